// Test hooks: what the window shows, as JSON (--dump-state), and the framebuffer as PNG (--screenshot).
#pragma once

#include <filesystem>
#include <string>

#include "app_state.hpp"

namespace kplay::window {

void write_state_dump(const AppState& state, const std::filesystem::path& path);

// Reads the current framebuffer (width x height) and writes it as PNG. Returns false on failure.
bool write_screenshot(const std::filesystem::path& path, int width, int height);

}  // namespace kplay::window
