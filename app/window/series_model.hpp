// What the 1D output view shows, worked out without ImGui: the entries in view reduced to at most one
// cell per pixel column, the visible index range and its gestures, the value and |error| / allowed
// axes, and what lies under the cursor. series_view.cpp only draws what these give.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "values/output_view.hpp"

namespace kplay::window {

struct SeriesViewState {
    double first = 0, last = 0;  // visible index range [first, last) in elements; last <= first means "fit all"
    int hovered = -1;            // set by the view: the element index under the cursor, or -1
};

constexpr double kMinVisibleElements = 8;  // deeper zoom shows nothing more: a handful of points
constexpr int kRatioFloorDecade = -6;      // |error| / allowed below 1e-6 (0 included) sits on the bottom
constexpr float kInf = std::numeric_limits<float>::infinity();

// The series' arrays as plain pointers; without a *_max array an entry is its own envelope.
struct SeriesEntries {
    const float *got_lo = nullptr, *got_hi = nullptr, *want_lo = nullptr, *want_hi = nullptr, *ratio = nullptr;
    int64_t size = 0;    // entries
    int64_t bucket = 1;  // elements per entry
    int64_t count = 0;   // elements
    int64_t first_element(int64_t k) const { return k * bucket; }
    int64_t end_element(int64_t k) const;
};

// A count that disagrees with the arrays is believed only as far as the arrays reach.
SeriesEntries entries_of(const Series& series);

// What a run of entries holds. NaN (never written, not finite) fails every comparison, so it drops
// out of the envelopes by itself and is only counted.
struct EntrySummary {
    float got_lo = kInf, got_hi = -kInf, want_lo = kInf, want_hi = -kInf;
    float ratio = -kInf;    // the worst finite |error| / allowed
    int64_t unwritten = 0;  // entries with a NaN output or ratio
    bool has_got() const { return got_lo <= got_hi; }
    bool has_want() const { return want_lo <= want_hi; }
    bool has_ratio() const { return ratio >= 0; }
};

EntrySummary summarize(const SeriesEntries& entries, int64_t begin, int64_t end);

// A visible index range [first, last) in elements.
struct IndexRange {
    double first = 0, last = 0;
    double span() const { return last - first; }
};

// At least kMinVisibleElements (or all, if fewer), at most all, and inside [0, count).
IndexRange clamped(IndexRange range, double count);

// One frame's gestures over the plot, in the plot's own terms.
struct SeriesGesture {
    float wheel = 0;   // notches; positive zooms in
    float at = 0;      // where the wheel turned: 0 the plot's left edge, 1 its right
    float pan = 0;     // how far the range moves, as a fraction of its span (drag left: positive)
    bool fit = false;  // a double-click
};

// The range this frame shows after the gesture; the state keeps it, or goes back to fitting when the
// whole series is in view, so that a longer next series shows whole.
IndexRange apply_gesture(SeriesViewState& state, const SeriesGesture& gesture, double count);

// The index axis: `width` pixels from `x0` show the elements [first, last).
struct IndexAxis {
    float x0 = 0, width = 0;
    double first = 0, last = 0;
    double px_per_element = 0;
    IndexAxis(float x0, float width, IndexRange range);
    float x_of(double element) const { return static_cast<float>(x0 + (element - first) * px_per_element); }
    // The element under pixel x, inside [0, count).
    double element_at(float x, double count) const;
};

// One drawn column: entries [k0, k1) between x0 and x1 on screen.
struct Cell {
    float x0 = 0, x1 = 0;
    int64_t k0 = 0, k1 = 0;
    EntrySummary s;
};

// The cells of a frame: one per pixel column when entries outnumber the pixels (per_column), else one
// per entry, with one beyond each edge, so lines run on out of the view.
struct SeriesCells {
    std::vector<Cell> cells;  // kept from frame to frame, so a frame allocates nothing
    bool per_column = false;
    int64_t bucket = 1;
    void make(const SeriesEntries& entries, const IndexAxis& axis);
    // The cell under pixel x, where the element under it is `element`; null when there is none.
    const Cell* at(const IndexAxis& axis, float x, double element) const;
};

// What the cells within the plot hold: the value range, ignoring NaN and infinities, and the worst ratio.
struct ValueExtent {
    double lo = kInf, hi = -kInf, worst = 0;
    bool any_got = false;
};
ValueExtent extent_of(const std::vector<Cell>& cells, const IndexAxis& axis);

// The value axis of the upper plot, from y0 (top) to y1 (bottom).
struct ValueAxis {
    double lo = 0, hi = 1;
    float y0 = 0, y1 = 0;
    float y_of(double v) const;
};

// The extent padded a little (or 0..1 when empty), with `headroom` pixels left free at the top (for
// the first-bad label, which would otherwise sit on the highest values) when the plot has room for it.
ValueAxis value_axis(const ValueExtent& extent, float y0, float y1, float headroom);

// The |error| / allowed axis, logarithmic from 10^kRatioFloorDecade at y1 to 10^top_decade at y0. An
// exact check allows no error, so a wrong element's ratio is infinite: it goes to the top.
struct RatioAxis {
    int top_decade = 1;
    float y0 = 0, y1 = 0;
    RatioAxis(double worst, float y0, float y1);
    int decades() const { return top_decade - kRatioFloorDecade; }
    float y_of(double ratio) const;
    // Every how many decades a label goes, so that labels stay `min_px` apart.
    int label_stride(float min_px) const;
};

}  // namespace kplay::window
