// Settings as a small JSON file, written atomically; a corrupt file is ignored.
#include "settings_store.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "base/cache_dir.hpp"

namespace kplay::window {

std::filesystem::path config_dir() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kplay";
    if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".config" / "kplay";
    return std::filesystem::temp_directory_path() / "kplay-config";
}

SavedSettings load_settings() {
    SavedSettings settings;
    std::string text;
    if (!read_whole_file(config_dir() / "settings.json", text)) return settings;
    try {
        const auto json = nlohmann::json::parse(text);
        settings.kernel = json.value("kernel", "");
        settings.image = json.value("image", "");
        if (json.contains("sizes")) settings.sizes = json["sizes"].get<std::map<std::string, NamedValues>>();
        settings.left_width = json.value("left_width", settings.left_width);
        settings.window_w = json.value("window_w", settings.window_w);
        settings.window_h = json.value("window_h", settings.window_h);
        if (json.contains("block")) settings.block = json["block"].get<std::array<int64_t, 3>>();
        if (json.contains("grid")) settings.grid = json["grid"].get<std::array<int64_t, 3>>();
        if (json.contains("smem")) settings.smem = json["smem"].get<int64_t>();
        settings.args = json.value("args", settings.args);
        settings.output_dir = json.value("output_dir", "");
        settings.find_fault_automatically = json.value("find_fault_automatically", false);
        settings.pool_spec = json.value("pool_spec", "");
        settings.pool_group = json.value("pool_group", 0);
    } catch (const nlohmann::json::exception&) {
        return SavedSettings{};
    }
    return settings;
}

void save_settings(const AppState& state, int window_w, int window_h) {
    const auto& session = state.session;
    nlohmann::json json = {{"kernel", session.file().string()}, {"image", session.inputs.image_path},
                           {"sizes", session.inputs.sizes},
                           {"left_width", state.left_width}, {"window_w", window_w}, {"window_h", window_h},
                           {"args", session.overrides.args}, {"output_dir", state.output_dir},
                           {"find_fault_automatically", session.find_fault_automatically},
                           {"pool_spec", state.pool.spec}, {"pool_group", state.pool.chosen_group}};
    if (session.overrides.block) json["block"] = *session.overrides.block;
    if (session.overrides.grid) json["grid"] = *session.overrides.grid;
    if (session.overrides.smem) json["smem"] = *session.overrides.smem;
    write_file_atomically(config_dir() / "settings.json", json.dump(2));
}

}  // namespace kplay::window
