// The 1D output view's arithmetic without ImGui: entries and their envelopes, the visible range and its
// gestures, the cells a frame draws, the axes, and what lies under the cursor.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "series_model.hpp"

using namespace kplay;
using namespace kplay::window;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// n elements one per entry: got = want = i, ratio 0.5, except where the caller changes them.
Series plain_series(int n) {
    Series s;
    s.count = n;
    for (int i = 0; i < n; ++i) {
        s.got_min.push_back(static_cast<float>(i));
        s.want_min.push_back(static_cast<float>(i));
        s.ratio_max.push_back(0.5f);
    }
    return s;
}

}  // namespace

TEST(SeriesEntries, AnEntryWithoutMaxArraysIsItsOwnEnvelope) {
    const Series s = plain_series(10);
    const SeriesEntries e = entries_of(s);
    EXPECT_EQ(e.size, 10);
    EXPECT_EQ(e.count, 10);
    EXPECT_EQ(e.bucket, 1);
    EXPECT_EQ(e.got_hi, e.got_lo);
    EXPECT_EQ(e.want_hi, e.want_lo);
    EXPECT_EQ(e.first_element(3), 3);
    EXPECT_EQ(e.end_element(3), 4);
}

TEST(SeriesEntries, BucketsEndAtTheCountAndACountBeyondTheArraysIsCut) {
    Series s = plain_series(4);
    s.bucket = 10;
    s.count = 35;  // the last bucket holds 5 elements
    s.got_max = s.got_min;
    s.want_max = s.want_min;
    SeriesEntries e = entries_of(s);
    EXPECT_EQ(e.size, 4);
    EXPECT_EQ(e.first_element(3), 30);
    EXPECT_EQ(e.end_element(3), 35);
    EXPECT_NE(e.got_hi, e.got_lo);

    s.count = 1000;  // more than 4 buckets hold
    e = entries_of(s);
    EXPECT_EQ(e.count, 40);
    EXPECT_EQ(e.size, 4);

    s.got_max.pop_back();  // a shorter array limits the entries
    e = entries_of(s);
    EXPECT_EQ(e.count, 30);
    EXPECT_EQ(e.size, 3);
}

TEST(SeriesEntries, SummaryIsTheEnvelopeAndCountsWhatWasNeverWritten) {
    Series s = plain_series(21);  // more than the eight lanes, with a tail
    s.want_min[20] = -5;
    s.ratio_max[17] = 3;
    s.got_min[4] = kNaN;
    s.ratio_max[4] = kNaN;
    s.ratio_max[9] = kNaN;
    const SeriesEntries e = entries_of(s);
    const EntrySummary all = summarize(e, 0, 21);
    EXPECT_EQ(all.got_lo, 0);
    EXPECT_EQ(all.got_hi, 20);
    EXPECT_EQ(all.want_lo, -5);
    EXPECT_EQ(all.want_hi, 19);
    EXPECT_EQ(all.ratio, 3);
    EXPECT_EQ(all.unwritten, 2);
    EXPECT_TRUE(all.has_got() && all.has_want() && all.has_ratio());

    const EntrySummary one = summarize(e, 4, 5);
    EXPECT_FALSE(one.has_got());
    EXPECT_FALSE(one.has_ratio());
    EXPECT_EQ(one.unwritten, 1);
    EXPECT_FALSE(summarize(e, 3, 3).has_want());
}

TEST(SeriesRange, ShowsAtLeastAHandfulAndStaysInside) {
    IndexRange r = clamped({-50, 50}, 1000);
    EXPECT_EQ(r.first, 0);
    EXPECT_EQ(r.last, 100);
    r = clamped({500, 501}, 1000);
    EXPECT_EQ(r.span(), kMinVisibleElements);
    r = clamped({990, 1200}, 1000);
    EXPECT_EQ(r.last, 1000);
    EXPECT_EQ(r.first, 790);
    r = clamped({0, 1}, 3);  // fewer elements than the handful: all of them
    EXPECT_EQ(r.first, 0);
    EXPECT_EQ(r.last, 3);
}

TEST(SeriesRange, TheWheelZoomsAtTheCursorAndDraggingPans) {
    SeriesViewState state;  // fitting
    IndexRange r = apply_gesture(state, {}, 1000);
    EXPECT_EQ(r.first, 0);
    EXPECT_EQ(r.last, 1000);
    EXPECT_EQ(state.last, 0);  // nothing moved: still fitting

    SeriesGesture zoom;
    zoom.wheel = 1;
    zoom.at = 0.25f;
    r = apply_gesture(state, zoom, 1000);
    EXPECT_NEAR(r.span(), 1000 / 1.2, 1e-9);
    EXPECT_NEAR(r.first + 0.25 * r.span(), 250, 1e-9);  // the element under the cursor stays there
    EXPECT_EQ(state.first, r.first);
    EXPECT_EQ(state.last, r.last);

    SeriesGesture pan;
    pan.pan = 0.05f;  // dragged left by a twentieth of the plot
    const IndexRange before = r;
    r = apply_gesture(state, pan, 1000);
    EXPECT_NEAR(r.first, before.first + 0.05 * before.span(), 1e-6);
    pan.pan = 10;  // far past the end: stops there
    r = apply_gesture(state, pan, 1000);
    EXPECT_EQ(r.last, 1000);

    SeriesGesture out;
    out.wheel = -20;  // zoomed all the way out: fitting again, so a longer next series shows whole
    r = apply_gesture(state, out, 1000);
    EXPECT_EQ(r.span(), 1000);
    EXPECT_EQ(state.first, 0);
    EXPECT_EQ(state.last, 0);
}

TEST(SeriesRange, ADoubleClickFits) {
    SeriesViewState state{100, 200, -1};
    SeriesGesture fit;
    fit.fit = true;
    const IndexRange r = apply_gesture(state, fit, 1000);
    EXPECT_EQ(r.first, 0);
    EXPECT_EQ(r.last, 1000);
    EXPECT_EQ(state.first, 0);
    EXPECT_EQ(state.last, 0);
}

TEST(SeriesCells, ZoomedOutEachPixelColumnIsAnEnvelopeAndOneBadElementReachesIt) {
    Series s = plain_series(1000);
    s.ratio_max[537] = 40;
    const SeriesEntries e = entries_of(s);
    const IndexAxis axis(10, 100, {0, 1000});
    SeriesCells cells;
    cells.make(e, axis);
    ASSERT_TRUE(cells.per_column);
    ASSERT_EQ(cells.cells.size(), 100u);
    int64_t next = 0;
    int bad = 0;
    for (size_t c = 0; c < cells.cells.size(); ++c) {
        const Cell& cell = cells.cells[c];
        EXPECT_EQ(cell.k0, next);  // the columns cover the entries without gaps or overlaps
        EXPECT_EQ(cell.x0, 10 + static_cast<float>(c));
        next = cell.k1;
        if (cell.s.ratio > 1) {
            ++bad;
            EXPECT_TRUE(cell.k0 <= 537 && 537 < cell.k1);
        }
    }
    EXPECT_EQ(next, 1000);
    EXPECT_EQ(bad, 1);

    // The cursor picks its pixel column.
    const double element = axis.element_at(64.25f, 1000);
    EXPECT_EQ(element, 542);
    const Cell* under = cells.at(axis, 64.25f, element);
    ASSERT_NE(under, nullptr);
    EXPECT_EQ(under, &cells.cells[54]);
    EXPECT_EQ(cells.at(axis, 5, 0), nullptr);  // left of the plot
}

TEST(SeriesCells, ZoomedInEachEntryIsACellWithOneBeyondEachEdge) {
    const Series s = plain_series(1000);
    const SeriesEntries e = entries_of(s);
    const IndexAxis axis(0, 200, {100, 120});
    EXPECT_EQ(axis.px_per_element, 10);
    EXPECT_EQ(axis.x_of(105), 50);
    SeriesCells cells;
    cells.make(e, axis);
    ASSERT_FALSE(cells.per_column);
    ASSERT_EQ(cells.cells.size(), 22u);
    EXPECT_EQ(cells.cells.front().k0, 99);
    EXPECT_EQ(cells.cells.back().k0, 120);
    EXPECT_EQ(cells.cells[1].x0, 0);
    EXPECT_EQ(cells.cells[1].x1, 10);

    const double element = axis.element_at(57, 1000);
    EXPECT_EQ(element, 105);
    const Cell* under = cells.at(axis, 57, element);
    ASSERT_NE(under, nullptr);
    EXPECT_EQ(under->k0, 105);
    EXPECT_EQ(axis.element_at(-1e6f, 1000), 0);  // clamped into the series
    EXPECT_EQ(axis.element_at(1e9f, 1000), 999);
}

TEST(SeriesAxes, TheValueRangeIgnoresWhatIsOutOfViewOrNotFinite) {
    Series s = plain_series(30);
    s.got_min[12] = std::numeric_limits<float>::infinity();
    s.ratio_max[14] = 7;
    s.ratio_max[2] = 100;  // out of view
    const SeriesEntries e = entries_of(s);
    const IndexAxis axis(0, 100, {10, 20});
    SeriesCells cells;
    cells.make(e, axis);  // cells 9..20, of which 9 and 20 are outside the plot
    const ValueExtent extent = extent_of(cells.cells, axis);
    EXPECT_EQ(extent.lo, 10);
    EXPECT_EQ(extent.hi, 19);
    EXPECT_EQ(extent.worst, 7);
    EXPECT_TRUE(extent.any_got);

    const ValueExtent nothing = extent_of({}, axis);
    EXPECT_FALSE(nothing.any_got);
    const ValueAxis fallback = value_axis(nothing, 0, 100, 0);
    EXPECT_EQ(fallback.lo, 0);
    EXPECT_EQ(fallback.hi, 1);
}

TEST(SeriesAxes, TheValueAxisIsPaddedAndLeavesRoomForTheFirstBadLabel) {
    ValueExtent extent;
    extent.lo = 0;
    extent.hi = 100;
    const ValueAxis plain = value_axis(extent, 10, 110, 0);
    EXPECT_DOUBLE_EQ(plain.lo, -6);
    EXPECT_DOUBLE_EQ(plain.hi, 106);
    EXPECT_FLOAT_EQ(plain.y_of(-6), 110);
    EXPECT_FLOAT_EQ(plain.y_of(106), 10);
    EXPECT_FLOAT_EQ(plain.y_of(50), 60);

    const ValueAxis roomy = value_axis(extent, 10, 110, 20);
    EXPECT_NEAR(roomy.y_of(106), 30, 1e-3);  // the highest value sits the headroom below the top

    extent.lo = extent.hi = 4;  // flat: 5% either side
    EXPECT_DOUBLE_EQ(value_axis(extent, 0, 100, 0).lo, 3.8);
    extent.lo = extent.hi = 0;
    EXPECT_DOUBLE_EQ(value_axis(extent, 0, 100, 0).hi, 1);
}

TEST(SeriesAxes, TheRatioAxisIsLogarithmicWithThePassLineAtOne) {
    const RatioAxis axis(0, 0, 140);  // 1e-6 .. 10: seven decades, 20 px each
    EXPECT_EQ(axis.top_decade, 1);
    EXPECT_EQ(axis.decades(), 7);
    EXPECT_FLOAT_EQ(axis.y_of(1), 20);
    EXPECT_FLOAT_EQ(axis.y_of(10), 0);
    EXPECT_FLOAT_EQ(axis.y_of(0), 140);     // exact sits on the bottom
    EXPECT_FLOAT_EQ(axis.y_of(1e-9), 140);  // so does anything below the floor
    // An exact check's wrong element goes to the top.
    EXPECT_FLOAT_EQ(axis.y_of(std::numeric_limits<double>::infinity()), 0);
    EXPECT_EQ(RatioAxis(150, 0, 140).top_decade, 3);
    EXPECT_EQ(RatioAxis(100, 0, 140).top_decade, 2);
    EXPECT_EQ(axis.label_stride(15), 1);
    EXPECT_EQ(axis.label_stride(30), 2);
    EXPECT_EQ(axis.label_stride(1e6f), 100);
}
