// Wrapped messages: the text is pushed with a wrap position at the panel's edge, then measured.
#include "wrapped_text.hpp"

#include <algorithm>
#include <cstdarg>

namespace kplay::window {

namespace {

float overflow = 0;

void draw(const ImVec4& color, const char* format, va_list args) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    ImGui::PushTextWrapPos(0);  // the content region's right edge
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextWrappedV(format, args);
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    overflow = std::max(overflow, ImGui::GetItemRectMax().x - right);
}

}  // namespace

void wrapped_colored(const ImVec4& color, const char* format, ...) {
    va_list args;
    va_start(args, format);
    draw(color, format, args);
    va_end(args);
}

void wrapped_disabled(const char* format, ...) {
    va_list args;
    va_start(args, format);
    draw(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], format, args);
    va_end(args);
}

float wrapped_overflow_px() { return std::max(0.0f, overflow); }
void reset_wrapped_overflow() { overflow = 0; }

}  // namespace kplay::window
