// Bars with ImDrawList: one bar per entry (or per pixel column of entries when there are more entries
// than columns), the reference as a tick across each bar, a y axis from zero to the tallest value.
#include "bars_view.hpp"
#include "plot_palette.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kplay::window {

namespace {

using namespace palette;
constexpr ImU32 kHover = IM_COL32(255, 255, 255, 40);

// A column's values: the tallest output and reference among its entries, and whether any is off.
struct Column {
    float got = 0, want = 0;
    bool bad = false, unwritten = false;
};

Column column(const Series& series, size_t begin, size_t end) {
    Column c;
    for (size_t k = begin; k < end; ++k) {
        const float got = series.got_max.empty() ? series.got_min[k] : series.got_max[k];
        const float want = series.want_max.empty() ? series.want_min[k] : series.want_max[k];
        const float ratio = k < series.ratio_max.size() ? series.ratio_max[k] : 0;
        if (std::isnan(got) || std::isnan(ratio)) c.unwritten = true;
        else c.got = std::max(c.got, got);
        if (!std::isnan(want)) c.want = std::max(c.want, want);
        if (ratio > 1) c.bad = true;
    }
    return c;
}

std::string count_text(double value) {
    char text[32];
    if (std::abs(value) >= 1e6) std::snprintf(text, sizeof text, "%.3gM", value / 1e6);
    else if (std::abs(value) >= 1e4) std::snprintf(text, sizeof text, "%.3gk", value / 1e3);
    else std::snprintf(text, sizeof text, "%.4g", value);
    return text;
}

}  // namespace

int draw_bars_view(const Series& series, ImVec2 size, int64_t first_bad, const char* buffer_name) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##bars", size);
    const bool hovered = ImGui::IsItemHovered();
    const float line = ImGui::GetTextLineHeight();
    const float left = origin.x + ImGui::CalcTextSize("00000000").x, right = origin.x + size.x - 8;
    const float top = origin.y + line + 8, bottom = origin.y + size.y - line - 6;
    draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), kPlotBackground);
    draw->AddRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), kBorder);
    const size_t entries = std::min({series.got_min.size(), series.want_min.size(), series.ratio_max.size()});
    if (entries == 0 || right - left < 16 || bottom - top < 16) return -1;

    const size_t columns = std::min(entries, static_cast<size_t>(right - left));
    const float width = (right - left) / static_cast<float>(columns);
    static std::vector<Column> shown;  // reused from frame to frame: drawing allocates nothing
    shown.assign(columns, Column{});
    float tallest = 0;
    for (size_t i = 0; i < columns; ++i) {
        shown[i] = column(series, i * entries / columns, (i + 1) * entries / columns);
        tallest = std::max({tallest, shown[i].got, shown[i].want});
    }
    if (tallest <= 0) tallest = 1;
    const auto y_of = [&](float value) { return bottom - (bottom - top) * std::clamp(value / tallest, 0.0f, 1.0f); };

    for (int g = 0; g <= 4; ++g) {  // grid lines at quarters of the tallest, labelled
        const float value = tallest * static_cast<float>(g) / 4, y = y_of(value);
        draw->AddLine(ImVec2(left, y), ImVec2(right, y), kGrid);
        const std::string text = count_text(value);
        draw->AddText(ImVec2(left - ImGui::CalcTextSize(text.c_str()).x - 4, y - 0.5f * line), kAxisText, text.c_str());
    }
    const float gap = width >= 4 ? 1 : 0;
    for (size_t i = 0; i < columns; ++i) {
        const float x0 = left + width * static_cast<float>(i), x1 = x0 + std::max(1.0f, width - gap);
        const Column& c = shown[i];
        draw->AddRectFilled(ImVec2(x0, y_of(c.got)), ImVec2(x1, bottom), c.unwritten ? kUnwritten : c.bad ? kFail : kOutput);
        const float ref_y = y_of(c.want);  // the reference's height, across the bar
        draw->AddLine(ImVec2(x0, ref_y), ImVec2(x1, ref_y), kReferenceMarker, 2);
    }
    // The index axis: first, middle, last entry.
    const int64_t bucket = std::max<int64_t>(1, series.bucket);
    const int64_t last = series.count > 0 ? series.count - 1 : static_cast<int64_t>(entries) - 1;
    for (const int64_t index : {int64_t{0}, last / 2, last}) {
        const float x = left + (right - left) * (static_cast<float>(index) + 0.5f) / static_cast<float>(last + 1);
        const std::string text = std::to_string(index);
        const float w = ImGui::CalcTextSize(text.c_str()).x;
        draw->AddText(ImVec2(std::clamp(x - 0.5f * w, left, right - w), bottom + 3), kAxisText, text.c_str());
    }
    if (first_bad >= 0 && last >= 0) {
        const float x = left + (right - left) * (static_cast<float>(first_bad) + 0.5f) / static_cast<float>(last + 1);
        draw->AddTriangleFilled(ImVec2(x - 5, top - 7), ImVec2(x + 5, top - 7), ImVec2(x, top - 1), kFail);
    }
    char legend[160];
    std::snprintf(legend, sizeof legend, "%s: bars = output, orange ticks = reference, red = off, magenta = never written", buffer_name);
    draw->AddText(ImVec2(left, origin.y + 4), kAxisText, legend);

    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (!hovered || mouse.x < left || mouse.x >= right) return -1;
    const size_t col = std::min(columns - 1, static_cast<size_t>((mouse.x - left) / width));
    const size_t begin = col * entries / columns, end = (col + 1) * entries / columns;
    draw->AddRectFilled(ImVec2(left + width * static_cast<float>(col), top), ImVec2(left + width * static_cast<float>(col + 1), bottom), kHover);
    ImGui::BeginTooltip();
    const int64_t first = static_cast<int64_t>(begin) * bucket, final = static_cast<int64_t>(end) * bucket - 1;
    if (first == final) ImGui::Text("%s[%lld]", buffer_name, static_cast<long long>(first));
    else ImGui::Text("%s[%lld..%lld]", buffer_name, static_cast<long long>(first), static_cast<long long>(std::min(final, last)));
    const Column& c = shown[col];
    if (c.unwritten) ImGui::TextColored(kUnwrittenText, "never written");
    ImGui::Text("output     %.9g", c.got);
    ImGui::Text("reference  %.9g", c.want);
    if (c.bad) ImGui::TextColored(kFailText, "outside the tolerance");
    ImGui::EndTooltip();
    return static_cast<int>(begin);
}

}  // namespace kplay::window
