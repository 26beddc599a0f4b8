// Which fonts the window draws with: a scalable sans font found through fontconfig (DejaVu Sans where
// it is installed, whatever sans font the machine has otherwise), so a machine without DejaVu does not
// fall back to ImGui's small bitmap font; and a monospace one the same way, for code.
#pragma once

#include <string>

namespace kplay::window {

struct FontChoice {
    std::string path;         // a .ttf/.otf file; empty: none found, ImGui's built-in bitmap font
    std::string description;  // for the log: "DejaVu Sans (fontconfig)"
};

// The text font (sans) and the listings' font (monospace: PTX and SASS in the Inside panel).
enum class FontRole { text, code };
FontChoice choose_font(FontRole role = FontRole::text);

}  // namespace kplay::window
