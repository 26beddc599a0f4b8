// The 1D output view, drawn with ImDrawList (Debian ships no plotting library for imgui). What to draw
// (the cells, the axes, the element under the cursor) comes from series_model; this file lays it out
// and draws it, back to front: header, grids, the output against the reference, the error bars, the
// marks, the hover, the footer.
#include "series_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <vector>

#include "plot_palette.hpp"
#include "series_labels.hpp"

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
constexpr float kCandleWidth = 8;  // pixels: an entry at least this wide is drawn on its own

// Reused from frame to frame: the view runs on the UI thread only and its size follows the pixels.
SeriesCells g_cells;
std::vector<ImVec2> g_points;

// Where the parts of the view go, in screen pixels: the output plot on top, the error plot below it,
// the strip of never-written ticks under that, then the index labels and the footer.
struct Layout {
    ImVec2 origin, end;
    float line = 0;
    float axis_width = 0;  // the value labels, left of x0
    float x0 = 0, plot_w = 0;
    float top_y0 = 0, top_y1 = 0, err_y0 = 0, err_y1 = 0;
    float strip_h = 8, footer_y = 0;
    float x1() const { return x0 + plot_w; }
    ImVec2 top_min() const { return ImVec2(x0, top_y0); }
    ImVec2 top_max() const { return ImVec2(x1(), top_y1); }
    ImVec2 err_min() const { return ImVec2(x0, err_y0); }
    ImVec2 err_max() const { return ImVec2(x1(), err_y1); }
};

// The value axis gets a fixed width, so the columns (and what they cost) do not depend on the labels
// the data produces.
Layout layout_of(ImVec2 origin, ImVec2 end, float line, bool legend_row) {
    Layout l;
    l.origin = origin;
    l.end = end;
    l.line = line;
    l.axis_width = ImGui::CalcTextSize("-0.0000000").x + 10;
    l.x0 = std::floor(origin.x + l.axis_width);
    l.plot_w = static_cast<float>(std::max(8, static_cast<int>(std::floor(end.x - 10) - l.x0)));
    l.top_y0 = std::floor(origin.y + (legend_row ? 2 * line + 12 : line + 8));
    const float footer_h = line + 4, labels_h = line + 4, gap = 10;
    l.err_y1 = std::floor(end.y - footer_h - labels_h - l.strip_h);
    const float plots_h = std::max(40.0f, l.err_y1 - l.top_y0 - gap);
    l.top_y1 = std::floor(l.top_y0 + plots_h * 0.62f);
    l.err_y0 = l.top_y1 + gap;
    l.footer_y = end.y - footer_h + 2;
    return l;
}

// One frame of the view: where it goes, and the axes that map the series onto it.
struct Frame {
    Layout at;
    IndexAxis index;
    ValueAxis value;
    RatioAxis ratio;
    const SeriesCells& cells;
    bool points;  // one element per cell, zoomed in: points joined by lines rather than envelopes
};

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

void draw_tooltip(const SeriesEntries& e, const Cell& cell) {
    const EntrySummary& s = cell.s;
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

// The buffer, its length, how it travelled and the first bad index, from the left. Returns where the
// text ends.
float draw_title(ImDrawList* draw, const SeriesEntries& e, ImVec2 origin, int64_t first_bad, const char* buffer_name) {
    char length[32];
    format_index(length, sizeof length, e.count);
    float x = origin.x;
    const auto header_text = [&](ImU32 colour, const char* text) {
        draw->AddText(ImVec2(x, origin.y), colour, text);
        x += ImGui::CalcTextSize(text).x;
    };
    header_text(ImGui::GetColorU32(ImGuiCol_Text), buffer_name && *buffer_name ? buffer_name : "output");
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
    return x;
}

// The legend, right-aligned on the title's row when it fits beside the title (which ends at
// `title_end`), else on a row of its own. Returns whether it took a row of its own.
bool draw_legend(ImDrawList* draw, ImVec2 origin, ImVec2 end, float line, float title_end) {
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
    bool own_row = false;
    if (lx < title_end + spacing) {
        ly += line + 4;
        own_row = true;
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
    return own_row;
}

void draw_no_data(ImDrawList* draw, const Layout& at) {
    draw->AddRectFilled(at.top_min(), at.err_max(), kPlotBackground);
    draw->AddRect(at.top_min(), at.err_max(), kBorder);
    const char* text = "no data";
    const ImVec2 ts = ImGui::CalcTextSize(text);
    draw->AddText(ImVec2(0.5f * (at.x0 + at.x1() - ts.x), 0.5f * (at.top_y0 + at.err_y1 - ts.y)), kAxisText, text);
}

// This frame's wheel, drag and double-click over the view (applied before drawing, so nothing lags a frame).
SeriesGesture gesture_of(const Layout& at, bool hovered, bool active) {
    const ImGuiIO& io = ImGui::GetIO();
    SeriesGesture g;
    if (hovered && io.MouseWheel != 0) {
        g.wheel = io.MouseWheel;
        g.at = std::clamp((io.MousePos.x - at.x0) / at.plot_w, 0.0f, 1.0f);
    }
    if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0) && io.MouseDelta.x != 0)
        g.pan = -io.MouseDelta.x / at.plot_w;
    g.fit = hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
    return g;
}

void draw_value_grid(ImDrawList* draw, const Frame& f) {
    const Layout& at = f.at;
    const double lo = f.value.lo, hi = f.value.hi;
    const double step = nice_step((hi - lo) / std::max(2.0f, (at.top_y1 - at.top_y0) / (at.line * 2.4f)));
    const ValueFormat format = value_format(lo, hi, step);
    char text[64];
    // (The cap on ticks guards against a step lost in rounding next to huge values.)
    for (double i = std::ceil(lo / step), ticks = 0; i * step <= hi && ticks < 64; ++i, ++ticks) {
        const double v = i * step;
        const float y = std::round(f.value.y_of(v)) + 0.5f;
        draw->AddLine(ImVec2(at.x0, y), ImVec2(at.x1(), y), kGrid);
        format_value(text, sizeof text, v, format);
        const ImVec2 ts = ImGui::CalcTextSize(text);
        if (y - 0.5f * ts.y >= at.top_y0 - 2 && y + 0.5f * ts.y <= at.top_y1 + 2)
            draw->AddText(ImVec2(at.x0 - 6 - ts.x, y - 0.5f * ts.y), kAxisText, text);
    }
}

// The decades of |error| / allowed; the pass line's 1 is written in the text colour.
void draw_ratio_grid(ImDrawList* draw, const Frame& f) {
    const Layout& at = f.at;
    const int stride = f.ratio.label_stride(at.line * 1.3f);
    char text[64];
    for (int d = kRatioFloorDecade; d <= f.ratio.top_decade; ++d) {
        if (d % stride != 0 && d != kRatioFloorDecade) continue;
        const float y = std::round(f.ratio.y_of(std::pow(10.0, d))) + 0.5f;
        if (d != 0) draw->AddLine(ImVec2(at.x0, y), ImVec2(at.x1(), y), kGrid);
        format_decade(text, sizeof text, d);
        const ImVec2 ts = ImGui::CalcTextSize(text);
        const float ty = std::clamp(y - 0.5f * ts.y, at.err_y0 - 2, at.err_y1 - ts.y + 2);
        draw->AddText(ImVec2(at.x0 - 6 - ts.x, ty), d == 0 ? ImGui::GetColorU32(ImGuiCol_Text) : kAxisText, text);
    }
}

// Index ticks through both plots, spaced so that the widest label fits.
void draw_index_grid(ImDrawList* draw, const Frame& f) {
    const Layout& at = f.at;
    const double first = f.index.first, last = f.index.last;
    char text[64], widest[32];
    format_index(widest, sizeof widest, static_cast<int64_t>(last));
    const double step =
        std::max(1.0, nice_step((ImGui::CalcTextSize(widest).x + at.line * 2.5) / f.index.px_per_element));
    for (double i = std::ceil((first - 0.5) / step); i * step < last; ++i) {
        const double element = i * step;
        const float x = std::round(f.index.x_of(element + 0.5)) + 0.5f;
        if (x < at.x0 || x > at.x1()) continue;
        draw->AddLine(ImVec2(x, at.top_y0), ImVec2(x, at.top_y1), kGrid);
        draw->AddLine(ImVec2(x, at.err_y0), ImVec2(x, at.err_y1), kGrid);
        draw->AddLine(ImVec2(x, at.err_y1), ImVec2(x, at.err_y1 + 4), kAxisText);
        format_index(text, sizeof text, static_cast<int64_t>(element));
        const ImVec2 ts = ImGui::CalcTextSize(text);
        const float tx = std::clamp(x - 0.5f * ts.x, at.x0 - at.axis_width * 0.5f, at.end.x - ts.x);
        draw->AddText(ImVec2(tx, at.err_y1 + at.strip_h + 2), kAxisText, text);
    }
}

// Zoomed in, one element per cell at its centre: the reference wide, the output over it, polylines
// broken where an element is NaN; with room, each element a dot.
void draw_points(ImDrawList* draw, const Frame& f) {
    const auto centre = [](const Cell& c) { return 0.5f * (c.x0 + c.x1); };
    const auto polyline = [&](bool want, ImU32 colour, float thickness) {
        g_points.clear();
        const auto flush = [&] {
            if (g_points.size() >= 2)
                draw->AddPolyline(g_points.data(), static_cast<int>(g_points.size()), colour, 0, thickness);
            else if (g_points.size() == 1)
                draw->AddCircleFilled(g_points[0], thickness * 0.9f + 0.6f, colour);
            g_points.clear();
        };
        for (const Cell& c : f.cells.cells) {
            const float v = want ? c.s.want_lo : c.s.got_lo;
            if (!std::isfinite(v)) {
                flush();
                continue;
            }
            g_points.push_back(ImVec2(centre(c), f.value.y_of(v)));
        }
        flush();
    };
    polyline(true, kReference, 4.5f);
    polyline(false, kOutput, 1.5f);
    if (f.index.px_per_element < 6) return;
    const float radius = std::min(5.0f, static_cast<float>(f.index.px_per_element) * 0.3f);
    for (const Cell& c : f.cells.cells)
        if (std::isfinite(c.s.want_lo))
            draw->AddCircleFilled(ImVec2(centre(c), f.value.y_of(c.s.want_lo)), radius + 1.5f, kReferenceMarker);
    for (const Cell& c : f.cells.cells)
        if (std::isfinite(c.s.got_lo))
            draw->AddCircleFilled(ImVec2(centre(c), f.value.y_of(c.s.got_lo)), radius, kOutput);
}

// Narrow cells join into one trace. A wide one (a bucket zoomed in) becomes a candle: the reference's
// range across the bucket, the output's as a narrower bar inside it, so that neither hides the other.
void draw_envelopes(ImDrawList* draw, const Frame& f) {
    Trace reference, output;
    for (const Cell& c : f.cells.cells) {
        const float width = c.x1 - c.x0;
        const float top = f.value.y_of(c.s.want_hi), bottom = f.value.y_of(c.s.want_lo);
        if (!c.s.has_want()) {
            reference.cut();
        } else if (width > kCandleWidth) {
            reference.cut();
            reference.add(draw, c.x0 + 1, c.x1 - 1, top, bottom, 1.5f, kReference);
            reference.cut();
        } else {
            reference.add(draw, c.x0, c.x1, top, bottom, 1.5f, kReference);
        }
    }
    for (const Cell& c : f.cells.cells) {
        const float width = c.x1 - c.x0;
        const float top = f.value.y_of(c.s.got_hi), bottom = f.value.y_of(c.s.got_lo);
        if (!c.s.has_got()) {
            output.cut();
        } else if (width > kCandleWidth) {
            output.cut();
            output.add(draw, c.x0 + 0.3f * width, c.x1 - 0.3f * width, top, bottom, 0, kOutput);
            output.cut();
        } else {
            output.add(draw, c.x0, c.x1, top, bottom, 0, kOutput);
        }
    }
}

// The upper plot: unwritten bands, the reference, then the output over it.
void draw_values_plot(ImDrawList* draw, const Frame& f, bool any_got) {
    const Layout& at = f.at;
    draw->PushClipRect(at.top_min(), at.top_max(), true);
    for (const Cell& c : f.cells.cells)
        if (c.s.unwritten > 0)
            draw->AddRectFilled(ImVec2(c.x0, at.top_y0), ImVec2(std::max(c.x1, c.x0 + 1), at.top_y1), kUnwrittenBand);
    if (f.points)
        draw_points(draw, f);
    else
        draw_envelopes(draw, f);
    if (!any_got) {
        const char* message = "never written";
        const ImVec2 ts = ImGui::CalcTextSize(message);
        plate_text(draw, ImVec2(0.5f * (at.x0 + at.x1() - ts.x), 0.5f * (at.top_y0 + at.top_y1 - ts.y)), kUnwritten,
                   message);
    }
    draw->PopClipRect();
}

// The lower plot: bars up from the bottom, full-height magenta where nothing can be checked, the pass line.
void draw_error_plot(ImDrawList* draw, const Frame& f) {
    const Layout& at = f.at;
    draw->PushClipRect(at.err_min(), at.err_max(), true);
    for (const Cell& c : f.cells.cells) {
        float bx0 = c.x0, bx1 = std::max(c.x1, c.x0 + 1);
        if (f.points && bx1 - bx0 > kMaxBarWidth + 2) {
            // One element is a slim bar at its point, however far zoomed in.
            const float middle = 0.5f * (bx0 + bx1);
            bx0 = middle - 0.5f * kMaxBarWidth;
            bx1 = middle + 0.5f * kMaxBarWidth;
        } else if (bx1 - bx0 >= 4) {
            bx0 += 1;  // a gap, so wide bars still read as separate entries
            bx1 -= 1;
        }
        if (c.s.unwritten > 0) draw->AddRectFilled(ImVec2(bx0, at.err_y0), ImVec2(bx1, at.err_y1), kUnwrittenBar);
        if (!c.s.has_ratio()) continue;
        const float y = std::min(f.ratio.y_of(c.s.ratio), at.err_y1 - 1.5f);
        if (c.s.ratio <= 1) {
            draw->AddRectFilled(ImVec2(bx0, y), ImVec2(bx1, at.err_y1), kPass);
        } else if (bx1 - bx0 < 3) {
            // One failing column among a million elements must not be a hairline: drawn 3 px wide, later.
            continue;
        } else {
            draw->AddRectFilled(ImVec2(bx0, y), ImVec2(bx1, at.err_y1), kFail);
        }
    }
    for (const Cell& c : f.cells.cells) {
        if (!(c.s.ratio > 1) || c.x1 - c.x0 >= 3) continue;
        const float middle = std::floor(0.5f * (c.x0 + c.x1));
        draw->AddRectFilled(ImVec2(middle - 1, f.ratio.y_of(c.s.ratio)), ImVec2(middle + 2, at.err_y1), kFail);
    }
    const float pass_y = f.ratio.y_of(1.0);
    draw->AddLine(ImVec2(at.x0, std::round(pass_y) + 0.5f), ImVec2(at.x1(), std::round(pass_y) + 0.5f), kPassLine,
                  1.0f);
    draw->PopClipRect();
    const char* pass = "pass line";
    const ImVec2 ts = ImGui::CalcTextSize(pass);
    if (pass_y - ts.y - 3 > at.err_y0) plate_text(draw, ImVec2(at.x1() - ts.x - 6, pass_y - ts.y - 3), kPassLine, pass);
}

// Never-written ticks on the index axis, at least two pixels wide so that one element shows.
void draw_unwritten_ticks(ImDrawList* draw, const Frame& f) {
    const Layout& at = f.at;
    draw->PushClipRect(ImVec2(at.x0, at.err_y1), ImVec2(at.x1(), at.err_y1 + at.strip_h), true);
    for (const Cell& c : f.cells.cells)
        if (c.s.unwritten > 0)
            draw->AddRectFilled(ImVec2(c.x0, at.err_y1 + 1), ImVec2(std::max(c.x1, c.x0 + 2), at.err_y1 + at.strip_h),
                                kUnwritten);
    draw->PopClipRect();
}

// The first bad element's label beside its line, or an arrow at the edge it lies beyond.
void draw_first_bad_label(ImDrawList* draw, const Frame& f, int64_t first_bad, bool visible, float line_x) {
    const Layout& at = f.at;
    char index[32], label[64];
    format_index(index, sizeof index, first_bad);
    std::snprintf(label, sizeof label, "first bad: %s", index);
    const ImVec2 ts = ImGui::CalcTextSize(label);
    const float ly = at.top_y0 + 4;
    if (visible) {
        const float lx = line_x + 6 + ts.x + 4 <= at.x1() ? line_x + 6 : line_x - 6 - ts.x;
        plate_text(draw, ImVec2(lx, ly), kFail, label);
        return;
    }
    const bool left = static_cast<double>(first_bad) < f.index.first;
    const float cy = ly + 0.5f * ts.y;
    const float tip = left ? at.x0 + 4 : at.x1() - 4, base = left ? tip + 9 : tip - 9;
    draw->AddTriangleFilled(ImVec2(tip, cy), ImVec2(base, cy - 6), ImVec2(base, cy + 6), kFail);
    plate_text(draw, ImVec2(left ? base + 6 : base - 6 - ts.x, ly), kFail, label);
}

// The element under the cursor: its cell highlighted and inspected. Returns the element, or -1.
int draw_hover(ImDrawList* draw, const Frame& f, const SeriesEntries& e, bool item_hovered, bool item_active) {
    const Layout& at = f.at;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (!(item_hovered && mouse.x >= at.x0 && mouse.x < at.x1() && mouse.y >= at.top_y0 &&
          mouse.y < at.err_y1 + at.strip_h))
        return -1;
    const double element = f.index.element_at(mouse.x, static_cast<double>(e.count));
    const Cell* cell = f.cells.at(f.index, mouse.x, element);
    if (!cell) return static_cast<int>(element);
    // A wide entry (a bucket zoomed in) is shaded over its extent; elements and pixel columns get a
    // one-pixel line, which hides nothing.
    float hx0 = std::max(cell->x0, at.x0), hx1 = std::min(std::max(cell->x1, cell->x0 + 1), at.x1());
    if (f.points || hx1 - hx0 < 2) {
        hx0 = std::floor(f.points ? 0.5f * (cell->x0 + cell->x1) : hx0);
        hx1 = hx0 + 1;
    }
    const ImU32 shade = hx1 - hx0 > 1 ? kHoverBand : kHover;
    draw->AddRectFilled(ImVec2(hx0, at.top_y0), ImVec2(hx1, at.top_y1), shade);
    draw->AddRectFilled(ImVec2(hx0, at.err_y0), ImVec2(hx1, at.err_y1), shade);
    if (f.points) {
        const float cx = 0.5f * (cell->x0 + cell->x1);
        draw->PushClipRect(at.top_min(), at.top_max(), true);
        if (std::isfinite(cell->s.want_lo))
            draw->AddCircle(ImVec2(cx, f.value.y_of(cell->s.want_lo)), 7, kReferenceMarker, 0, 2);
        if (std::isfinite(cell->s.got_lo)) draw->AddCircle(ImVec2(cx, f.value.y_of(cell->s.got_lo)), 5, kOutput, 0, 2);
        draw->PopClipRect();
    }
    if (!item_active || !ImGui::IsMouseDragging(ImGuiMouseButton_Left)) draw_tooltip(e, *cell);
    return static_cast<int>(element);
}

// What is in view, and the gestures.
void draw_footer(ImDrawList* draw, const Frame& f, int64_t count) {
    const Layout& at = f.at;
    char a[32], b[32], n[32];
    format_index(a, sizeof a, static_cast<int64_t>(std::floor(f.index.first)));
    format_index(b, sizeof b, std::max<int64_t>(0, static_cast<int64_t>(std::ceil(f.index.last)) - 1));
    format_index(n, sizeof n, count);
    char footer[128];
    std::snprintf(footer, sizeof footer, "showing %s .. %s of %s", a, b, n);
    draw->AddText(ImVec2(at.x0, at.footer_y), ImGui::GetColorU32(kDimText), footer);
    const char* hint = "wheel: zoom   drag: pan   double-click: fit";
    const float hx = at.end.x - ImGui::CalcTextSize(hint).x - 10;
    if (hx > at.x0 + ImGui::CalcTextSize(footer).x + at.line)
        draw->AddText(ImVec2(hx, at.footer_y), ImGui::GetColorU32(kDimText), hint);
}

}  // namespace

SeriesPlotArea draw_series_view(const Series& series, SeriesViewState& state, ImVec2 size, int64_t first_bad,
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

    const SeriesEntries e = entries_of(series);
    const float line = ImGui::GetTextLineHeight();
    const float title_end = draw_title(draw, e, origin, first_bad, buffer_name);
    const Layout at = layout_of(origin, end, line, draw_legend(draw, origin, end, line, title_end));
    if (e.size == 0) {
        draw_no_data(draw, at);
        draw->PopClipRect();
        state.hovered = -1;
        return {};
    }

    const double count = static_cast<double>(e.count);
    const IndexAxis index(at.x0, at.plot_w, apply_gesture(state, gesture_of(at, item_hovered, item_active), count));
    g_cells.make(e, index);
    const ValueExtent extent = extent_of(g_cells.cells, index);
    const bool first_bad_known = first_bad >= 0 && first_bad < e.count;
    const Frame f{at,
                  index,
                  value_axis(extent, at.top_y0, at.top_y1, first_bad_known ? line + 8 : 0),
                  RatioAxis(extent.worst, at.err_y0, at.err_y1),
                  g_cells,
                  !g_cells.per_column && e.bucket == 1};

    draw->AddRectFilled(at.top_min(), at.top_max(), kPlotBackground);
    draw->AddRectFilled(at.err_min(), at.err_max(), kPlotBackground);
    draw->AddRectFilled(at.err_min(), ImVec2(at.x1(), f.ratio.y_of(1.0)), kFailZone);
    draw_value_grid(draw, f);
    draw_ratio_grid(draw, f);
    draw_index_grid(draw, f);
    // The first bad element's line goes under the data: the failure it points at must stay visible.
    const double first_bad_at = static_cast<double>(first_bad) + 0.5;
    const bool first_bad_visible = first_bad_known && first_bad_at >= index.first && first_bad_at <= index.last;
    const float first_bad_x = std::round(index.x_of(first_bad_at)) + 0.5f;
    if (first_bad_visible) dashed_vertical(draw, first_bad_x, at.top_y0, at.err_y1, kFirstBadLine);
    draw_values_plot(draw, f, extent.any_got);
    draw_error_plot(draw, f);
    draw_unwritten_ticks(draw, f);
    draw->AddRect(ImVec2(at.x0 - 1, at.top_y0 - 1), ImVec2(at.x1() + 1, at.top_y1 + 1), kBorder);
    draw->AddRect(ImVec2(at.x0 - 1, at.err_y0 - 1), ImVec2(at.x1() + 1, at.err_y1 + 1), kBorder);
    if (first_bad_known) draw_first_bad_label(draw, f, first_bad, first_bad_visible, first_bad_x);
    state.hovered = draw_hover(draw, f, e, item_hovered, item_active);
    draw_footer(draw, f, e.count);
    draw->PopClipRect();
    return {at.x0, at.plot_w, at.top_y0, at.err_y1, index.first, index.last};
}

}  // namespace kplay::window
