// What the window remembers between runs, under $XDG_CONFIG_HOME/kplay (default ~/.config/kplay): the
// last kernel, image, the sizes set per task, launch overrides and the panel width. ImGui's own layout
// file sits beside it.
#pragma once

#include <filesystem>
#include <array>
#include <map>
#include <optional>
#include <string>

#include "app_state.hpp"

namespace kplay::window {

std::filesystem::path config_dir();

struct SavedSettings {
    std::string kernel;
    std::string image;
    std::map<std::string, NamedValues> sizes;  // per task name
    float left_width = 560;
    std::optional<std::array<int64_t, 3>> block, grid;  // launch overrides, for `kernel`
    std::optional<int64_t> smem;
    std::map<std::string, std::string> args;
    int window_w = 1600, window_h = 1000;
    std::string output_dir;  // where Ctrl+S saves; empty: the folder kplay was started in
    bool find_fault_automatically = false;  // look for a GPU fault's line as soon as it comes
    std::string pool_spec;  // Device > Pool's members, as --pool takes them (started only when asked)
    int pool_group = 0;     // the group sweeps run on (1-based; 0: the first GPU group, else the first)
};

SavedSettings load_settings();  // defaults when absent or unreadable
void save_settings(const AppState& state, int window_w, int window_h);

}  // namespace kplay::window
