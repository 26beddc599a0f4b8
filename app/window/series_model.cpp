// The 1D output view's arithmetic. Whatever the zoom, the series is reduced to at most one cell per
// pixel column before anything is drawn: a cell is either one entry (zoomed in: points, steps) or the
// min..max envelope of the entries under a column (zoomed out), so one wrong element in millions still
// reaches the screen and a frame costs one pass over the entries in view at most.
#include "series_model.hpp"

#include <algorithm>
#include <cmath>

namespace kplay::window {

int64_t SeriesEntries::end_element(int64_t k) const { return std::min(count, (k + 1) * bucket); }

SeriesEntries entries_of(const Series& series) {
    SeriesEntries e;
    e.bucket = std::max<int64_t>(1, series.bucket);
    size_t n = std::min({series.got_min.size(), series.want_min.size(), series.ratio_max.size()});
    if (!series.got_max.empty()) n = std::min(n, series.got_max.size());
    if (!series.want_max.empty()) n = std::min(n, series.want_max.size());
    e.got_lo = series.got_min.data();
    e.got_hi = series.got_max.empty() ? e.got_lo : series.got_max.data();
    e.want_lo = series.want_min.data();
    e.want_hi = series.want_max.empty() ? e.want_lo : series.want_max.data();
    e.ratio = series.ratio_max.data();
    const int64_t held = static_cast<int64_t>(n) * e.bucket;
    e.count = series.count > 0 ? std::min(series.count, held) : held;
    e.size = (e.count + e.bucket - 1) / e.bucket;
    return e;
}

EntrySummary summarize(const SeriesEntries& e, int64_t begin, int64_t end) {
    // The one loop whose cost grows with the series (every entry in view, each frame, when zoomed
    // out). Eight independent lanes let the compiler use SIMD min/max at -O2, which halves it.
    constexpr int kLanes = 8;
    float got_lo[kLanes], got_hi[kLanes], want_lo[kLanes], want_hi[kLanes], ratio[kLanes];
    int32_t unwritten[kLanes];
    for (int j = 0; j < kLanes; ++j) {
        got_lo[j] = want_lo[j] = kInf;
        got_hi[j] = want_hi[j] = ratio[j] = -kInf;
        unwritten[j] = 0;
    }
    const auto step = [&](int j, int64_t k) {
        const float g0 = e.got_lo[k], g1 = e.got_hi[k], w0 = e.want_lo[k], w1 = e.want_hi[k], r = e.ratio[k];
        got_lo[j] = g0 < got_lo[j] ? g0 : got_lo[j];
        got_hi[j] = g1 > got_hi[j] ? g1 : got_hi[j];
        want_lo[j] = w0 < want_lo[j] ? w0 : want_lo[j];
        want_hi[j] = w1 > want_hi[j] ? w1 : want_hi[j];
        ratio[j] = r > ratio[j] ? r : ratio[j];
        unwritten[j] += static_cast<int32_t>(std::isnan(r)) | static_cast<int32_t>(std::isnan(g0));
    };
    int64_t k = begin;
    for (; k + kLanes <= end; k += kLanes)
        for (int j = 0; j < kLanes; ++j) step(j, k + j);
    for (int j = 0; k < end; ++k, ++j) step(j, k);
    EntrySummary s;
    for (int j = 0; j < kLanes; ++j) {
        s.got_lo = got_lo[j] < s.got_lo ? got_lo[j] : s.got_lo;
        s.got_hi = got_hi[j] > s.got_hi ? got_hi[j] : s.got_hi;
        s.want_lo = want_lo[j] < s.want_lo ? want_lo[j] : s.want_lo;
        s.want_hi = want_hi[j] > s.want_hi ? want_hi[j] : s.want_hi;
        s.ratio = ratio[j] > s.ratio ? ratio[j] : s.ratio;
        s.unwritten += unwritten[j];
    }
    return s;
}

IndexRange clamped(IndexRange range, double count) {
    const double span = std::clamp(range.last - range.first, std::min(kMinVisibleElements, count), count);
    range.first = std::clamp(range.first, 0.0, count - span);
    range.last = range.first + span;
    return range;
}

IndexRange apply_gesture(SeriesViewState& state, const SeriesGesture& gesture, double count) {
    IndexRange r{state.first, state.last};
    if (r.last <= r.first) r = {0, count};
    r = clamped(r, count);
    bool moved = false;
    if (gesture.wheel != 0) {
        // Zoom at the cursor: the element under it stays under it.
        const double span = r.span();
        const double new_span =
            std::clamp(span / std::pow(1.2, gesture.wheel), std::min(kMinVisibleElements, count), count);
        const double anchor = r.first + gesture.at * span;
        r.first = anchor - gesture.at * new_span;
        r.last = r.first + new_span;
        moved = true;
    }
    if (gesture.pan != 0) {
        const double shift = gesture.pan * (r.last - r.first);
        r.first += shift;
        r.last += shift;
        moved = true;
    }
    if (moved) {
        r = clamped(r, count);
        if (r.last - r.first >= count) {
            state.first = state.last = 0;
        } else {
            state.first = r.first;
            state.last = r.last;
        }
    }
    if (gesture.fit) {
        state.first = state.last = 0;
        r = {0, count};
    }
    return r;
}

IndexAxis::IndexAxis(float x0, float width, IndexRange range)
    : x0(x0), width(width), first(range.first), last(range.last), px_per_element(width / range.span()) {}

double IndexAxis::element_at(float x, double count) const {
    return std::clamp(std::floor(first + (x - x0) / px_per_element), 0.0, count - 1);
}

void SeriesCells::make(const SeriesEntries& e, const IndexAxis& axis) {
    const double first = axis.first, last = axis.last, span = last - first;
    const int columns = static_cast<int>(axis.width);
    bucket = e.bucket;
    per_column = span / static_cast<double>(bucket) > axis.width;
    cells.clear();
    if (per_column) {
        int64_t k = std::clamp<int64_t>(static_cast<int64_t>(std::floor(first / bucket)), 0, e.size - 1);
        for (int c = 0; c < columns && k < e.size; ++c) {
            const double edge = first + span * (c + 1) / columns;
            int64_t next = c == columns - 1 ? static_cast<int64_t>(std::ceil(last / bucket))
                                            : static_cast<int64_t>(std::floor(edge / bucket));
            next = std::clamp<int64_t>(next, k + 1, e.size);
            cells.push_back({axis.x0 + c, axis.x0 + c + 1, k, next, summarize(e, k, next)});
            k = next;
        }
    } else {
        const int64_t k0 = std::max<int64_t>(0, static_cast<int64_t>(std::floor(first / bucket)) - 1);
        const int64_t k1 = std::min<int64_t>(e.size, static_cast<int64_t>(std::ceil(last / bucket)) + 1);
        for (int64_t k = k0; k < k1; ++k)
            cells.push_back({axis.x_of(static_cast<double>(e.first_element(k))),
                             axis.x_of(static_cast<double>(e.end_element(k))), k, k + 1, summarize(e, k, k + 1)});
    }
}

const Cell* SeriesCells::at(const IndexAxis& axis, float x, double element) const {
    if (per_column) {
        if (x < axis.x0) return nullptr;
        const size_t c = static_cast<size_t>(x - axis.x0);
        return c < cells.size() ? &cells[c] : nullptr;
    }
    if (cells.empty()) return nullptr;
    const int64_t k = static_cast<int64_t>(element) / bucket - cells.front().k0;
    return k >= 0 && k < static_cast<int64_t>(cells.size()) ? &cells[static_cast<size_t>(k)] : nullptr;
}

ValueExtent extent_of(const std::vector<Cell>& cells, const IndexAxis& axis) {
    ValueExtent extent;
    for (const Cell& c : cells) {
        if (!(c.x1 > axis.x0 && c.x0 < axis.x0 + axis.width)) continue;
        const EntrySummary& s = c.s;
        for (float v : {s.got_lo, s.got_hi, s.want_lo, s.want_hi})
            if (std::isfinite(v))
                extent.lo = std::min<double>(extent.lo, v), extent.hi = std::max<double>(extent.hi, v);
        extent.any_got = extent.any_got || s.has_got();
        if (std::isfinite(s.ratio)) extent.worst = std::max<double>(extent.worst, s.ratio);
    }
    return extent;
}

float ValueAxis::y_of(double v) const {
    const float h = y1 - y0;
    return static_cast<float>(std::clamp(y1 - (v - lo) / (hi - lo) * h, y0 - 1e5, y1 + 1e5));
}

ValueAxis value_axis(const ValueExtent& extent, float y0, float y1, float headroom) {
    ValueAxis axis;
    axis.y0 = y0;
    axis.y1 = y1;
    if (extent.lo > extent.hi) {
        axis.lo = 0;
        axis.hi = 1;
    } else {
        const double lo = extent.lo, hi = extent.hi;
        const double pad = lo == hi ? (lo == 0 ? 1 : std::abs(lo) * 0.05) : (hi - lo) * 0.06;
        axis.lo = lo - pad;
        axis.hi = hi + pad;
    }
    const float h = y1 - y0;
    if (headroom > 0 && h > 3 * headroom) axis.hi += (axis.hi - axis.lo) * headroom / (h - headroom);
    return axis;
}

RatioAxis::RatioAxis(double worst, float y0, float y1)
    : top_decade(std::max(1, static_cast<int>(std::ceil(std::log10(std::max(10.0, worst)) - 1e-9)))), y0(y0), y1(y1) {}

float RatioAxis::y_of(double r) const {
    if (!(r > std::pow(10.0, kRatioFloorDecade))) return y1;
    const float h = y1 - y0;
    return std::max(y0, static_cast<float>(y1 - (std::log10(r) - kRatioFloorDecade) / decades() * h));
}

int RatioAxis::label_stride(float min_px) const {
    const float per_decade = (y1 - y0) / decades();
    for (int stride : {1, 2, 3, 5, 10, 20, 50})
        if (per_decade * stride >= min_px) return stride;
    return 100;
}

}  // namespace kplay::window
