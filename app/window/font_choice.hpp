// Which font the window draws with: a scalable sans font found through fontconfig (DejaVu Sans where
// it is installed, whatever sans font the machine has otherwise), so a machine without DejaVu does not
// fall back to ImGui's small bitmap font.
#pragma once

#include <string>

namespace kplay::window {

struct FontChoice {
    std::string path;         // a .ttf/.otf file; empty: none found, ImGui's built-in bitmap font
    std::string description;  // for the log: "DejaVu Sans (fontconfig)"
};

FontChoice choose_font();

}  // namespace kplay::window
