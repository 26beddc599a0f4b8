// The sweep cache: a JSON file of point results per (source, device, size, settings).
#include "sweep/sweep_cache.hpp"

#include "base/cache_dir.hpp"
#include "base/content_hash.hpp"

namespace kplay {

SweepCache::SweepCache(std::filesystem::path file) : file_(std::move(file)) {
    std::string bytes;
    if (file_.empty() || !read_whole_file(file_, bytes)) return;
    try {
        const nlohmann::json j = nlohmann::json::parse(bytes);
        for (const auto& entry : j.at("points")) {
            PointResult result = point_result_from_json(entry);
            result.from_cache = true;
            entries_[result.label] = std::move(result);
        }
    } catch (const nlohmann::json::exception&) {
        entries_.clear();  // a damaged cache is measured again, never trusted
    }
}

std::filesystem::path SweepCache::file_for(const std::filesystem::path& cache_dir, const SweepTarget& target, const RunRequest& base) {
    // Everything that changes a point's time or verdict: the text compiled, the device, the size and how
    // it is timed. The point itself is the entry's label.
    const std::string key = target.source + "\n" + target.file.filename().string() + "\n" + target.device.name + "\n" +
                            target.device.uuid + "\n" + (target.emulated ? "emulated" : "gpu") + "\n" + target.sizes_text + "\n" +
                            std::to_string(base.warmup) + "," + std::to_string(base.repeat) + "," + (base.flush_l2 ? "flush" : "") +
                            "," + std::to_string(base.inputs.seed) + "," + base.inputs.image_path;
    return cache_dir / "sweeps" / (hash_hex(key) + ".json");
}

std::optional<PointResult> SweepCache::find(const std::string& label) const {
    const auto found = entries_.find(label);
    if (found == entries_.end()) return std::nullopt;
    return found->second;
}

void SweepCache::store(const PointResult& result) {
    if (file_.empty() || (result.state != PointState::passed && result.state != PointState::wrong)) return;
    PointResult kept = result;
    kept.confirm_ms.clear();
    kept.confirmed_ms = kept.spread = 0;
    kept.noisy = false;
    entries_[kept.label] = kept;
    nlohmann::json points = nlohmann::json::array();
    for (const auto& [label, entry] : entries_) points.push_back(to_json(entry));
    std::error_code error;
    std::filesystem::create_directories(file_.parent_path(), error);
    write_file_atomically(file_, nlohmann::json{{"points", points}}.dump(1));
}

}  // namespace kplay
