// The 1D output view, drawn with ImDrawList (Debian ships no plotting library for imgui). Whatever the
// zoom, the series is reduced to at most one cell per pixel column before anything is drawn: a cell is
// either one entry (zoomed in: points, steps) or the min..max envelope of the entries under a column
// (zoomed out), so one wrong element in millions still reaches the screen and a frame costs one pass
// over the entries in view at most.
#include "series_view.hpp"
#include "plot_palette.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace kplay::window {

namespace {

using namespace palette;
// The reference is opaque but dim, so that where the output lies exactly on it, the wider reference
// still shows on both sides of the output.
constexpr ImU32 kReference = IM_COL32(185, 120, 40, 255);
constexpr ImU32 kPass = IM_COL32(80, 200, 120, 255);
constexpr ImU32 kFirstBadLine = IM_COL32(255, 140, 140, 200);
constexpr ImU32 kFailZone = IM_COL32(242, 89, 89, 22);
constexpr ImU32 kUnwrittenBar = IM_COL32(230, 70, 230, 85);
constexpr ImU32 kUnwrittenBand = IM_COL32(230, 70, 230, 40);
constexpr ImU32 kPassLine = IM_COL32(200, 200, 200, 170);
constexpr ImU32 kHover = IM_COL32(255, 255, 255, 110);
constexpr ImU32 kHoverBand = IM_COL32(255, 255, 255, 28);
const ImVec4 kDimText(0.6f, 0.6f, 0.62f, 1);
const ImVec4 kPassText(0.35f, 0.8f, 0.5f, 1);

constexpr float kMaxBarWidth = 12;
constexpr float kCandleWidth = 8;          // pixels: an entry at least this wide is drawn on its own
constexpr double kMinVisibleElements = 8;  // deeper zoom shows nothing more: a handful of points
constexpr int kRatioFloorDecade = -6;      // |error| / allowed below 1e-6 (0 included) sits on the bottom
constexpr float kInf = std::numeric_limits<float>::infinity();

// The series' arrays as plain pointers; without a *_max array an entry is its own envelope.
struct Entries {
    const float *got_lo = nullptr, *got_hi = nullptr, *want_lo = nullptr, *want_hi = nullptr, *ratio = nullptr;
    int64_t size = 0;    // entries
    int64_t bucket = 1;  // elements per entry
    int64_t count = 0;   // elements
    int64_t first_element(int64_t k) const { return k * bucket; }
    int64_t end_element(int64_t k) const { return std::min(count, (k + 1) * bucket); }
};

Entries entries_of(const Series& series) {
    Entries e;
    e.bucket = std::max<int64_t>(1, series.bucket);
    size_t n = std::min({series.got_min.size(), series.want_min.size(), series.ratio_max.size()});
    if (!series.got_max.empty()) n = std::min(n, series.got_max.size());
    if (!series.want_max.empty()) n = std::min(n, series.want_max.size());
    e.got_lo = series.got_min.data();
    e.got_hi = series.got_max.empty() ? e.got_lo : series.got_max.data();
    e.want_lo = series.want_min.data();
    e.want_hi = series.want_max.empty() ? e.want_lo : series.want_max.data();
    e.ratio = series.ratio_max.data();
    // A count that disagrees with the arrays is believed only as far as the arrays reach.
    const int64_t held = static_cast<int64_t>(n) * e.bucket;
    e.count = series.count > 0 ? std::min(series.count, held) : held;
    e.size = (e.count + e.bucket - 1) / e.bucket;
    return e;
}

// What a run of entries holds. NaN (never written, not finite) fails every comparison, so it drops
// out of the envelopes by itself and is only counted.
struct Summary {
    float got_lo = kInf, got_hi = -kInf, want_lo = kInf, want_hi = -kInf;
    float ratio = -kInf;    // the worst finite |error| / allowed
    int64_t unwritten = 0;  // entries with a NaN output or ratio
    bool has_got() const { return got_lo <= got_hi; }
    bool has_want() const { return want_lo <= want_hi; }
    bool has_ratio() const { return ratio >= 0; }
};

Summary summarize(const Entries& e, int64_t begin, int64_t end) {
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
    Summary s;
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

// One drawn column: entries [k0, k1) between x0 and x1 on screen.
struct Cell {
    float x0 = 0, x1 = 0;
    int64_t k0 = 0, k1 = 0;
    Summary s;
};

// Reused from frame to frame: the view runs on the UI thread only and its size follows the pixels.
std::vector<Cell> g_cells;
std::vector<ImVec2> g_points;

void clamp_range(double& first, double& last, double count) {
    const double span = std::clamp(last - first, std::min(kMinVisibleElements, count), count);
    first = std::clamp(first, 0.0, count - span);
    last = first + span;
}

// 1, 2 or 5 times a power of ten, at least `raw`.
double nice_step(double raw) {
    if (!(raw > 0) || !std::isfinite(raw)) return 1;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw * (1 - 1e-9)) return m * power;
    return 10 * power;
}

// "1,234,567": indices are read digit by digit when hunting a bug, so they are never abbreviated.
void format_index(char* out, size_t size, int64_t value) {
    char digits[32];
    std::snprintf(digits, sizeof digits, "%lld", static_cast<long long>(value < 0 ? -value : value));
    const int n = static_cast<int>(std::strlen(digits));
    size_t o = 0;
    if (value < 0 && o + 1 < size) out[o++] = '-';
    for (int i = 0; i < n && o + 1 < size; ++i) {
        if (i > 0 && (n - i) % 3 == 0 && o + 2 < size) out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
}

// How a value axis writes its labels, chosen once per axis so that neighbouring labels agree.
struct ValueFormat {
    bool scientific = false;
    int decimals = 0;  // fixed: after the point; scientific: unused, digits come from the step
    double step = 1;
};

ValueFormat value_format(double lo, double hi, double step) {
    ValueFormat f;
    f.step = step;
    const double magnitude = std::max(std::abs(lo), std::abs(hi));
    f.scientific = magnitude >= 1e5 || magnitude < 1e-3;
    f.decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 9);
    return f;
}

void format_value(char* out, size_t size, double value, const ValueFormat& f) {
    if (std::abs(value) < f.step * 1e-6) value = 0;
    if (value == 0) {
        std::snprintf(out, size, "0");
    } else if (f.scientific) {
        const int exponent = static_cast<int>(std::floor(std::log10(std::abs(value)) + 1e-9));
        const int digits = std::clamp(exponent - static_cast<int>(std::floor(std::log10(f.step) + 1e-9)), 0, 8);
        std::snprintf(out, size, "%.*fe%d", digits, value / std::pow(10.0, exponent), exponent);
    } else {
        std::snprintf(out, size, "%.*f", f.decimals, value);
    }
}

void format_decade(char* out, size_t size, int decade) {
    if (decade >= 0 && decade <= 3)
        std::snprintf(out, size, "%.0f", std::pow(10.0, decade));
    else if (decade >= -2 && decade < 0)
        std::snprintf(out, size, "%.*f", -decade, std::pow(10.0, decade));
    else
        std::snprintf(out, size, "1e%d", decade);
}

// A cell's band from lo to hi, plus a one-pixel riser at its left edge up or down to the previous
// cell's band, so that envelopes and steps read as one connected trace. `widen` grows everything
// drawn (the reference is drawn wider, under the output).
struct Trace {
    float previous_top = NAN, previous_bottom = NAN;
    void add(ImDrawList* draw, float x0, float x1, float top, float bottom, float widen, ImU32 colour) {
        if (bottom - top < 1) {
            const float middle = 0.5f * (top + bottom);
            top = middle - 0.5f;
            bottom = middle + 0.5f;
        }
        if (!std::isnan(previous_top)) {
            const float riser_top = std::min(top, previous_bottom), riser_bottom = std::max(bottom, previous_top);
            draw->AddRectFilled(ImVec2(x0 - widen, riser_top - widen), ImVec2(x0 + 1 + widen, riser_bottom + widen),
                                colour);
        }
        draw->AddRectFilled(ImVec2(x0 - widen, top - widen), ImVec2(std::max(x1, x0 + 1) + widen, bottom + widen),
                            colour);
        previous_top = top;
        previous_bottom = bottom;
    }
    void cut() { previous_top = previous_bottom = NAN; }
};

void dashed_vertical(ImDrawList* draw, float x, float y0, float y1, ImU32 colour) {
    for (float y = y0; y < y1; y += 7) draw->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 4, y1)), colour, 1.5f);
}

// A label on a dark plate, so it stays readable over the traces.
void plate_text(ImDrawList* draw, ImVec2 at, ImU32 colour, const char* text) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    draw->AddRectFilled(ImVec2(at.x - 3, at.y - 1), ImVec2(at.x + size.x + 3, at.y + size.y + 1),
                        IM_COL32(20, 20, 22, 225), 3);
    draw->AddText(at, colour, text);
}

void tooltip_row(const char* name, const ImVec4* colour, const char* format, ...) IM_FMTARGS(3);
void tooltip_row(const char* name, const ImVec4* colour, const char* format, ...) {
    ImGui::TextColored(kDimText, "%s", name);
    ImGui::SameLine(ImGui::CalcTextSize("worst |error| / allowed").x + ImGui::GetFontSize());
    char text[160];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    if (colour)
        ImGui::TextColored(*colour, "%s", text);
    else
        ImGui::TextUnformatted(text);
}

void draw_tooltip(const Entries& e, const Cell& cell) {
    const Summary& s = cell.s;
    const int64_t e0 = e.first_element(cell.k0), e1 = e.end_element(cell.k1 - 1);
    const bool single = e1 - e0 == 1;
    char a[32], b[32], n[32];
    format_index(a, sizeof a, e0);
    format_index(b, sizeof b, e1 - 1);
    format_index(n, sizeof n, e1 - e0);
    ImGui::BeginTooltip();
    if (single)
        ImGui::Text("index %s", a);
    else
        ImGui::Text("indices %s .. %s  (%s elements)", a, b, n);
    const auto range_row = [&](const char* name, bool has, float lo, float hi) {
        if (!has)
            tooltip_row(name, &kUnwrittenText, "never written (or not finite)");
        else if (lo == hi)
            tooltip_row(name, nullptr, "%.7g", lo);
        else
            tooltip_row(name, nullptr, "%.7g .. %.7g", lo, hi);
    };
    range_row("output", s.has_got(), s.got_lo, s.got_hi);
    range_row("reference", s.has_want(), s.want_lo, s.want_hi);
    if (single && s.has_got() && s.has_want())
        tooltip_row("difference", nullptr, "%.3g", static_cast<double>(s.got_lo) - s.want_lo);
    const char* ratio_name = single ? "|error| / allowed" : "worst |error| / allowed";
    if (s.has_ratio())
        tooltip_row(ratio_name, s.ratio > 1 ? &kFailText : &kPassText, "%.3g  %s", s.ratio,
                    s.ratio > 1 ? "FAIL" : "pass");
    else
        tooltip_row(ratio_name, &kUnwrittenText, "not checkable");
    if (s.unwritten > 0 && !single && s.has_got()) {
        if (e.bucket == 1) {
            char count[32];
            format_index(count, sizeof count, s.unwritten);
            ImGui::TextColored(kUnwrittenText, "%s never written (or not finite)", count);
        } else {
            ImGui::TextColored(kUnwrittenText, "some never written (or not finite)");
        }
    }
    ImGui::EndTooltip();
}

}  // namespace

void draw_series_view(const Series& series, SeriesViewState& state, ImVec2 size, int64_t first_bad,
                      const char* buffer_name) {
    size.x = std::max(size.x, 200.0f);
    size.y = std::max(size.y, 140.0f);
    ImGui::PushID(&state);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("series", size);
    ImGui::PopID();
    const bool item_hovered = ImGui::IsItemHovered();
    const bool item_active = ImGui::IsItemActive();
    const ImVec2 end(origin.x + size.x, origin.y + size.y);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(origin, end, true);

    const Entries e = entries_of(series);
    const float line = ImGui::GetTextLineHeight();
    const ImU32 text_colour = ImGui::GetColorU32(ImGuiCol_Text);

    // Header: the buffer, its length, how it travelled, and the legend.
    bool legend_row = false;
    {
        char length[32];
        format_index(length, sizeof length, e.count);
        float x = origin.x;
        const auto header_text = [&](ImU32 colour, const char* text) {
            draw->AddText(ImVec2(x, origin.y), colour, text);
            x += ImGui::CalcTextSize(text).x;
        };
        header_text(text_colour, buffer_name && *buffer_name ? buffer_name : "output");
        char note[96];
        std::snprintf(note, sizeof note, "   %s element%s", length, e.count == 1 ? "" : "s");
        header_text(ImGui::GetColorU32(kDimText), note);
        if (e.bucket > 1) {
            std::snprintf(note, sizeof note, "  (min/max of every %lld)", static_cast<long long>(e.bucket));
            header_text(ImGui::GetColorU32(kDimText), note);
        }
        if (first_bad >= 0 && first_bad < e.count) {
            char index[32];
            format_index(index, sizeof index, first_bad);
            std::snprintf(note, sizeof note, "   first bad: %s", index);
            header_text(ImGui::GetColorU32(kFailText), note);
        }
        // The legend, right-aligned on the same row when it fits beside the text, else on a row of its own.
        struct Item {
            const char* text;
            int swatch;
        };
        const Item items[] = {{"output", 0}, {"reference", 1}, {"|error| / allowed", 2}, {"never written", 3}};
        const float swatch = line * 1.2f, spacing = line * 0.9f;
        float width = 0;
        for (const Item& item : items) width += swatch + 4 + ImGui::CalcTextSize(item.text).x + spacing;
        width -= spacing;
        float lx = end.x - width - 10;
        float ly = origin.y;
        if (lx < x + spacing) {
            ly += line + 4;
            legend_row = true;
            lx = std::max(origin.x, lx);
        }
        const float cy = ly + 0.5f * line;
        for (const Item& item : items) {
            switch (item.swatch) {
                case 0:
                    draw->AddLine(ImVec2(lx, cy), ImVec2(lx + swatch, cy), kOutput, 2);
                    break;
                case 1:
                    draw->AddLine(ImVec2(lx, cy), ImVec2(lx + swatch, cy), kReference, 5);
                    break;
                case 2:
                    draw->AddRectFilled(ImVec2(lx, cy - 5), ImVec2(lx + swatch * 0.5f - 1, cy + 5), kPass);
                    draw->AddRectFilled(ImVec2(lx + swatch * 0.5f + 1, cy - 5), ImVec2(lx + swatch, cy + 5), kFail);
                    break;
                default:
                    draw->AddRectFilled(ImVec2(lx + swatch * 0.5f - 1, cy - 6), ImVec2(lx + swatch * 0.5f + 2, cy + 6),
                                        kUnwritten);
            }
            lx += swatch + 4;
            draw->AddText(ImVec2(lx, ly), kAxisText, item.text);
            lx += ImGui::CalcTextSize(item.text).x + spacing;
        }
    }

    // Geometry. The value axis gets a fixed width, so the columns (and what they cost) do not depend
    // on the labels the data produces.
    const float axis_width = ImGui::CalcTextSize("-0.0000000").x + 10;
    const float x0 = std::floor(origin.x + axis_width), x1 = std::floor(end.x - 10);
    const int columns = std::max(8, static_cast<int>(x1 - x0));
    const float plot_w = static_cast<float>(columns);
    const float top_y0 = std::floor(origin.y + (legend_row ? 2 * line + 12 : line + 8));
    const float footer_h = line + 4, labels_h = line + 4, strip_h = 8, gap = 10;
    const float err_y1 = std::floor(end.y - footer_h - labels_h - strip_h);
    const float plots_h = std::max(40.0f, err_y1 - top_y0 - gap);
    const float top_y1 = std::floor(top_y0 + plots_h * 0.62f);
    const float err_y0 = top_y1 + gap;
    const ImVec2 top_min(x0, top_y0), top_max(x0 + plot_w, top_y1);
    const ImVec2 err_min(x0, err_y0), err_max(x0 + plot_w, err_y1);
    const float footer_y = end.y - footer_h + 2;

    if (e.size == 0) {
        draw->AddRectFilled(top_min, err_max, kPlotBackground);
        draw->AddRect(top_min, err_max, kBorder);
        const char* text = "no data";
        const ImVec2 ts = ImGui::CalcTextSize(text);
        draw->AddText(ImVec2(0.5f * (x0 + err_max.x - ts.x), 0.5f * (top_y0 + err_y1 - ts.y)), kAxisText, text);
        draw->PopClipRect();
        state.hovered = -1;
        return;
    }

    // The visible range, then this frame's gestures (applied before drawing, so nothing lags a frame).
    const double count = static_cast<double>(e.count);
    double first = state.first, last = state.last;
    if (last <= first) {
        first = 0;
        last = count;
    }
    clamp_range(first, last, count);
    ImGuiIO& io = ImGui::GetIO();
    bool moved = false;
    if (item_hovered && io.MouseWheel != 0) {
        const double span = last - first;
        const double new_span =
            std::clamp(span / std::pow(1.2, io.MouseWheel), std::min(kMinVisibleElements, count), count);
        const double t = std::clamp((io.MousePos.x - x0) / plot_w, 0.0f, 1.0f);
        const double anchor = first + t * span;
        first = anchor - t * new_span;
        last = first + new_span;
        moved = true;
    }
    if (item_active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0) && io.MouseDelta.x != 0) {
        const double shift = -io.MouseDelta.x / plot_w * (last - first);
        first += shift;
        last += shift;
        moved = true;
    }
    if (moved) {
        clamp_range(first, last, count);
        // Zoomed all the way out, the view goes back to fitting, so a longer next series shows whole.
        if (last - first >= count) {
            state.first = state.last = 0;
        } else {
            state.first = first;
            state.last = last;
        }
    }
    if (item_hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        state.first = state.last = 0;
        first = 0;
        last = count;
    }
    const double span = last - first;
    const double px_per_element = plot_w / span;
    const auto x_of = [&](double element) { return static_cast<float>(x0 + (element - first) * px_per_element); };

    // Cells: one per pixel column when entries outnumber the pixels, else one per entry (with one
    // beyond each edge, so lines run on out of the view).
    const int64_t bucket = e.bucket;
    const bool per_column = span / static_cast<double>(bucket) > plot_w;
    std::vector<Cell>& cells = g_cells;
    cells.clear();
    if (per_column) {
        int64_t k = std::clamp<int64_t>(static_cast<int64_t>(std::floor(first / bucket)), 0, e.size - 1);
        for (int c = 0; c < columns && k < e.size; ++c) {
            const double edge = first + span * (c + 1) / columns;
            int64_t next = c == columns - 1 ? static_cast<int64_t>(std::ceil(last / bucket))
                                            : static_cast<int64_t>(std::floor(edge / bucket));
            next = std::clamp<int64_t>(next, k + 1, e.size);
            cells.push_back({x0 + c, x0 + c + 1, k, next, summarize(e, k, next)});
            k = next;
        }
    } else {
        const int64_t k0 = std::max<int64_t>(0, static_cast<int64_t>(std::floor(first / bucket)) - 1);
        const int64_t k1 = std::min<int64_t>(e.size, static_cast<int64_t>(std::ceil(last / bucket)) + 1);
        for (int64_t k = k0; k < k1; ++k)
            cells.push_back({x_of(static_cast<double>(e.first_element(k))), x_of(static_cast<double>(e.end_element(k))),
                             k, k + 1, summarize(e, k, k + 1)});
    }
    const auto visible = [&](const Cell& c) { return c.x1 > x0 && c.x0 < x0 + plot_w; };

    // Value range of what is in view, ignoring NaN and infinities.
    double lo = kInf, hi = -kInf, worst = 0;
    bool any_got = false;
    for (const Cell& c : cells) {
        if (!visible(c)) continue;
        const Summary& s = c.s;
        for (float v : {s.got_lo, s.got_hi, s.want_lo, s.want_hi})
            if (std::isfinite(v)) lo = std::min<double>(lo, v), hi = std::max<double>(hi, v);
        any_got = any_got || s.has_got();
        if (std::isfinite(s.ratio)) worst = std::max<double>(worst, s.ratio);
    }
    if (lo > hi) {
        lo = 0;
        hi = 1;
    } else {
        const double pad = lo == hi ? (lo == 0 ? 1 : std::abs(lo) * 0.05) : (hi - lo) * 0.06;
        lo -= pad;
        hi += pad;
    }
    const float top_h = top_y1 - top_y0, err_h = err_y1 - err_y0;
    // Headroom for the first-bad label, which would otherwise sit on the highest values.
    const bool first_bad_known = first_bad >= 0 && first_bad < e.count;
    const float label_room = line + 8;
    if (first_bad_known && top_h > 3 * label_room) hi += (hi - lo) * label_room / (top_h - label_room);
    const auto y_of = [&](double v) {
        return static_cast<float>(std::clamp(top_y1 - (v - lo) / (hi - lo) * top_h, top_y0 - 1e5, top_y1 + 1e5));
    };
    const int top_decade = std::max(1, static_cast<int>(std::ceil(std::log10(std::max(10.0, worst)) - 1e-9)));
    const int decades = top_decade - kRatioFloorDecade;
    // An exact check allows no error, so a wrong element's ratio is infinite: it goes to the top.
    const auto y_ratio = [&](double r) {
        if (!(r > std::pow(10.0, kRatioFloorDecade))) return err_y1;
        return std::max(err_y0, static_cast<float>(err_y1 - (std::log10(r) - kRatioFloorDecade) / decades * err_h));
    };
    const float pass_y = y_ratio(1.0);

    // Backgrounds and grids.
    draw->AddRectFilled(top_min, top_max, kPlotBackground);
    draw->AddRectFilled(err_min, err_max, kPlotBackground);
    draw->AddRectFilled(err_min, ImVec2(err_max.x, pass_y), kFailZone);
    char text[64];
    const double value_step = nice_step((hi - lo) / std::max(2.0f, top_h / (line * 2.4f)));
    const ValueFormat format = value_format(lo, hi, value_step);
    // (The cap on ticks guards against a step lost in rounding next to huge values.)
    for (double i = std::ceil(lo / value_step), ticks = 0; i * value_step <= hi && ticks < 64; ++i, ++ticks) {
        const double v = i * value_step;
        const float y = std::round(y_of(v)) + 0.5f;
        draw->AddLine(ImVec2(x0, y), ImVec2(top_max.x, y), kGrid);
        format_value(text, sizeof text, v, format);
        const ImVec2 ts = ImGui::CalcTextSize(text);
        if (y - 0.5f * ts.y >= top_y0 - 2 && y + 0.5f * ts.y <= top_y1 + 2)
            draw->AddText(ImVec2(x0 - 6 - ts.x, y - 0.5f * ts.y), kAxisText, text);
    }
    const int decade_stride = [&] {
        const float per_decade = err_h / decades;
        for (int stride : {1, 2, 3, 5, 10, 20, 50})
            if (per_decade * stride >= line * 1.3f) return stride;
        return 100;
    }();
    for (int d = kRatioFloorDecade; d <= top_decade; ++d) {
        if (d % decade_stride != 0 && d != kRatioFloorDecade) continue;
        const float y = std::round(y_ratio(std::pow(10.0, d))) + 0.5f;
        if (d != 0) draw->AddLine(ImVec2(x0, y), ImVec2(err_max.x, y), kGrid);
        format_decade(text, sizeof text, d);
        const ImVec2 ts = ImGui::CalcTextSize(text);
        const float ty = std::clamp(y - 0.5f * ts.y, err_y0 - 2, err_y1 - ts.y + 2);
        draw->AddText(ImVec2(x0 - 6 - ts.x, ty), d == 0 ? text_colour : kAxisText, text);
    }
    char widest[32];
    format_index(widest, sizeof widest, static_cast<int64_t>(last));
    const double index_step = std::max(1.0, nice_step((ImGui::CalcTextSize(widest).x + line * 2.5) / px_per_element));
    for (double i = std::ceil((first - 0.5) / index_step); i * index_step < last; ++i) {
        const double element = i * index_step;
        const float x = std::round(x_of(element + 0.5)) + 0.5f;
        if (x < x0 || x > top_max.x) continue;
        draw->AddLine(ImVec2(x, top_y0), ImVec2(x, top_y1), kGrid);
        draw->AddLine(ImVec2(x, err_y0), ImVec2(x, err_y1), kGrid);
        draw->AddLine(ImVec2(x, err_y1), ImVec2(x, err_y1 + 4), kAxisText);
        format_index(text, sizeof text, static_cast<int64_t>(element));
        const ImVec2 ts = ImGui::CalcTextSize(text);
        const float tx = std::clamp(x - 0.5f * ts.x, x0 - axis_width * 0.5f, end.x - ts.x);
        draw->AddText(ImVec2(tx, err_y1 + strip_h + 2), kAxisText, text);
    }

    // The first bad element's line goes under the data: the failure it points at must stay visible.
    const double first_bad_at = static_cast<double>(first_bad) + 0.5;
    const bool first_bad_visible = first_bad_known && first_bad_at >= first && first_bad_at <= last;
    const bool first_bad_beyond = first_bad_known && !first_bad_visible;
    const float first_bad_x = std::round(x_of(first_bad_at)) + 0.5f;
    if (first_bad_visible) dashed_vertical(draw, first_bad_x, top_y0, err_y1, kFirstBadLine);

    // Top plot: unwritten bands, the reference, then the output over it.
    draw->PushClipRect(top_min, top_max, true);
    for (const Cell& c : cells)
        if (c.s.unwritten > 0)
            draw->AddRectFilled(ImVec2(c.x0, top_y0), ImVec2(std::max(c.x1, c.x0 + 1), top_y1), kUnwrittenBand);
    const bool points = !per_column && bucket == 1;
    if (points) {
        // One element per cell, at its centre: polylines broken where an element is NaN.
        const auto polyline = [&](bool want, ImU32 colour, float thickness) {
            g_points.clear();
            const auto flush = [&] {
                if (g_points.size() >= 2)
                    draw->AddPolyline(g_points.data(), static_cast<int>(g_points.size()), colour, 0, thickness);
                else if (g_points.size() == 1)
                    draw->AddCircleFilled(g_points[0], thickness * 0.9f + 0.6f, colour);
                g_points.clear();
            };
            for (const Cell& c : cells) {
                const float v = want ? c.s.want_lo : c.s.got_lo;
                if (!std::isfinite(v)) {
                    flush();
                    continue;
                }
                g_points.push_back(ImVec2(0.5f * (c.x0 + c.x1), y_of(v)));
            }
            flush();
        };
        polyline(true, kReference, 4.5f);
        polyline(false, kOutput, 1.5f);
        if (px_per_element >= 6) {
            const float radius = std::min(5.0f, static_cast<float>(px_per_element) * 0.3f);
            for (const Cell& c : cells)
                if (std::isfinite(c.s.want_lo))
                    draw->AddCircleFilled(ImVec2(0.5f * (c.x0 + c.x1), y_of(c.s.want_lo)), radius + 1.5f,
                                          kReferenceMarker);
            for (const Cell& c : cells)
                if (std::isfinite(c.s.got_lo))
                    draw->AddCircleFilled(ImVec2(0.5f * (c.x0 + c.x1), y_of(c.s.got_lo)), radius, kOutput);
        }
    } else {
        // Narrow cells join into one trace. A wide one (a bucket zoomed in) becomes a candle: the
        // reference's range across the bucket, the output's as a narrower bar inside it, so that
        // neither hides the other.
        Trace reference, output;
        for (const Cell& c : cells) {
            const float width = c.x1 - c.x0;
            if (!c.s.has_want()) {
                reference.cut();
            } else if (width > kCandleWidth) {
                reference.cut();
                reference.add(draw, c.x0 + 1, c.x1 - 1, y_of(c.s.want_hi), y_of(c.s.want_lo), 1.5f, kReference);
                reference.cut();
            } else {
                reference.add(draw, c.x0, c.x1, y_of(c.s.want_hi), y_of(c.s.want_lo), 1.5f, kReference);
            }
        }
        for (const Cell& c : cells) {
            const float width = c.x1 - c.x0;
            if (!c.s.has_got()) {
                output.cut();
            } else if (width > kCandleWidth) {
                output.cut();
                output.add(draw, c.x0 + 0.3f * width, c.x1 - 0.3f * width, y_of(c.s.got_hi), y_of(c.s.got_lo), 0,
                           kOutput);
                output.cut();
            } else {
                output.add(draw, c.x0, c.x1, y_of(c.s.got_hi), y_of(c.s.got_lo), 0, kOutput);
            }
        }
    }
    if (!any_got) {
        const char* message = "never written";
        const ImVec2 ts = ImGui::CalcTextSize(message);
        plate_text(draw, ImVec2(0.5f * (x0 + top_max.x - ts.x), 0.5f * (top_y0 + top_y1 - ts.y)), kUnwritten, message);
    }
    draw->PopClipRect();

    // Error plot: bars up from the bottom, full-height magenta where nothing can be checked.
    draw->PushClipRect(err_min, err_max, true);
    for (const Cell& c : cells) {
        float bx0 = c.x0, bx1 = std::max(c.x1, c.x0 + 1);
        if (points && bx1 - bx0 > kMaxBarWidth + 2) {
            // One element is a slim bar at its point, however far zoomed in.
            const float middle = 0.5f * (bx0 + bx1);
            bx0 = middle - 0.5f * kMaxBarWidth;
            bx1 = middle + 0.5f * kMaxBarWidth;
        } else if (bx1 - bx0 >= 4) {
            bx0 += 1;  // a gap, so wide bars still read as separate entries
            bx1 -= 1;
        }
        if (c.s.unwritten > 0) draw->AddRectFilled(ImVec2(bx0, err_y0), ImVec2(bx1, err_y1), kUnwrittenBar);
        if (!c.s.has_ratio()) continue;
        const float y = std::min(y_ratio(c.s.ratio), err_y1 - 1.5f);
        if (c.s.ratio <= 1) {
            draw->AddRectFilled(ImVec2(bx0, y), ImVec2(bx1, err_y1), kPass);
        } else if (bx1 - bx0 < 3) {
            // One failing column among a million elements must not be a hairline: drawn 3 px wide, later.
            continue;
        } else {
            draw->AddRectFilled(ImVec2(bx0, y), ImVec2(bx1, err_y1), kFail);
        }
    }
    for (const Cell& c : cells) {
        if (!(c.s.ratio > 1) || c.x1 - c.x0 >= 3) continue;
        const float middle = std::floor(0.5f * (c.x0 + c.x1));
        draw->AddRectFilled(ImVec2(middle - 1, y_ratio(c.s.ratio)), ImVec2(middle + 2, err_y1), kFail);
    }
    draw->AddLine(ImVec2(x0, std::round(pass_y) + 0.5f), ImVec2(err_max.x, std::round(pass_y) + 0.5f), kPassLine, 1.0f);
    draw->PopClipRect();
    {
        const char* pass = "pass line";
        const ImVec2 ts = ImGui::CalcTextSize(pass);
        if (pass_y - ts.y - 3 > err_y0)
            plate_text(draw, ImVec2(err_max.x - ts.x - 6, pass_y - ts.y - 3), kPassLine, pass);
    }

    // Never-written ticks on the index axis, at least two pixels wide so that one element shows.
    draw->PushClipRect(ImVec2(x0, err_y1), ImVec2(err_max.x, err_y1 + strip_h), true);
    for (const Cell& c : cells)
        if (c.s.unwritten > 0)
            draw->AddRectFilled(ImVec2(c.x0, err_y1 + 1), ImVec2(std::max(c.x1, c.x0 + 2), err_y1 + strip_h),
                                kUnwritten);
    draw->PopClipRect();

    draw->AddRect(ImVec2(top_min.x - 1, top_min.y - 1), ImVec2(top_max.x + 1, top_max.y + 1), kBorder);
    draw->AddRect(ImVec2(err_min.x - 1, err_min.y - 1), ImVec2(err_max.x + 1, err_max.y + 1), kBorder);

    // The first bad element's label, or an arrow at the edge it lies beyond.
    if (first_bad_visible || first_bad_beyond) {
        char index[32], label[64];
        format_index(index, sizeof index, first_bad);
        std::snprintf(label, sizeof label, "first bad: %s", index);
        const ImVec2 ts = ImGui::CalcTextSize(label);
        const float ly = top_y0 + 4;
        if (first_bad_visible) {
            const float lx = first_bad_x + 6 + ts.x + 4 <= top_max.x ? first_bad_x + 6 : first_bad_x - 6 - ts.x;
            plate_text(draw, ImVec2(lx, ly), kFail, label);
        } else {
            const bool left = static_cast<double>(first_bad) < first;
            const float cy = ly + 0.5f * ts.y;
            const float tip = left ? x0 + 4 : top_max.x - 4, base = left ? tip + 9 : tip - 9;
            draw->AddTriangleFilled(ImVec2(tip, cy), ImVec2(base, cy - 6), ImVec2(base, cy + 6), kFail);
            plate_text(draw, ImVec2(left ? base + 6 : base - 6 - ts.x, ly), kFail, label);
        }
    }

    // Hover: the element under the cursor, its cell highlighted and inspected.
    state.hovered = -1;
    const ImVec2 mouse = io.MousePos;
    if (item_hovered && mouse.x >= x0 && mouse.x < top_max.x && mouse.y >= top_y0 && mouse.y < err_y1 + strip_h) {
        const double element = std::clamp(std::floor(first + (mouse.x - x0) / px_per_element), 0.0, count - 1);
        state.hovered = static_cast<int>(element);
        const Cell* cell = nullptr;
        if (per_column) {
            const size_t c = static_cast<size_t>(mouse.x - x0);
            if (c < cells.size()) cell = &cells[c];
        } else if (!cells.empty()) {
            const int64_t k = static_cast<int64_t>(element) / bucket - cells.front().k0;
            if (k >= 0 && k < static_cast<int64_t>(cells.size())) cell = &cells[static_cast<size_t>(k)];
        }
        if (cell) {
            // A wide entry (a bucket zoomed in) is shaded over its extent; elements and pixel columns
            // get a one-pixel line, which hides nothing.
            float hx0 = std::max(cell->x0, x0), hx1 = std::min(std::max(cell->x1, cell->x0 + 1), top_max.x);
            if (points || hx1 - hx0 < 2) {
                hx0 = std::floor(points ? 0.5f * (cell->x0 + cell->x1) : hx0);
                hx1 = hx0 + 1;
            }
            const ImU32 shade = hx1 - hx0 > 1 ? kHoverBand : kHover;
            draw->AddRectFilled(ImVec2(hx0, top_y0), ImVec2(hx1, top_y1), shade);
            draw->AddRectFilled(ImVec2(hx0, err_y0), ImVec2(hx1, err_y1), shade);
            if (points) {
                const float cx = 0.5f * (cell->x0 + cell->x1);
                draw->PushClipRect(top_min, top_max, true);
                if (std::isfinite(cell->s.want_lo))
                    draw->AddCircle(ImVec2(cx, y_of(cell->s.want_lo)), 7, kReferenceMarker, 0, 2);
                if (std::isfinite(cell->s.got_lo)) draw->AddCircle(ImVec2(cx, y_of(cell->s.got_lo)), 5, kOutput, 0, 2);
                draw->PopClipRect();
            }
            if (!item_active || !ImGui::IsMouseDragging(ImGuiMouseButton_Left)) draw_tooltip(e, *cell);
        }
    }

    // Footer: what is in view, and the gestures.
    {
        char a[32], b[32], n[32];
        format_index(a, sizeof a, static_cast<int64_t>(std::floor(first)));
        format_index(b, sizeof b, std::max<int64_t>(0, static_cast<int64_t>(std::ceil(last)) - 1));
        format_index(n, sizeof n, e.count);
        char footer[128];
        std::snprintf(footer, sizeof footer, "showing %s .. %s of %s", a, b, n);
        draw->AddText(ImVec2(x0, footer_y), ImGui::GetColorU32(kDimText), footer);
        const char* hint = "wheel: zoom   drag: pan   double-click: fit";
        const float hx = end.x - ImGui::CalcTextSize(hint).x - 10;
        if (hx > x0 + ImGui::CalcTextSize(footer).x + line)
            draw->AddText(ImVec2(hx, footer_y), ImGui::GetColorU32(kDimText), hint);
    }
    draw->PopClipRect();
}

}  // namespace kplay::window
