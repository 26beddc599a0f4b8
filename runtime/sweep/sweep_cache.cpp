// The sweep cache: a JSON-lines file of point results per (source, device, size, settings).
#include "sweep/sweep_cache.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "base/cache_dir.hpp"
#include "base/content_hash.hpp"
#include "base/text.hpp"
#include "base/unique_fd.hpp"

namespace kplay {

SweepCache::SweepCache(std::filesystem::path file) : file_(std::move(file)) {
    std::string bytes;
    if (file_.empty() || !read_whole_file(file_, bytes)) return;
    // One point per line, later lines winning; a line that does not parse (cut short, or an older
    // format) is measured again, never trusted.
    for (const std::string_view line : split_lines(bytes)) {
        try {
            PointResult result = point_result_from_json(nlohmann::json::parse(line));
            result.from_cache = true;
            entries_[result.label] = std::move(result);
        } catch (const nlohmann::json::exception&) {
        }
    }
}

std::filesystem::path SweepCache::file_for(const std::filesystem::path& cache_dir, const SweepTarget& target, const RunRequest& base) {
    // Everything that changes a point's time or verdict: the text compiled, the device, the size and how
    // it is timed. The point itself is the entry's label.
    const std::string key = target.source + "\n" + target.file.filename().string() + "\n" + target.device.name + "\n" +
                            target.device.uuid + "\n" + (target.emulated ? "emulated" : "gpu") + "\n" + target.sizes_text + "\n" +
                            std::to_string(base.warmup) + "," + std::to_string(base.repeat) + "," + (base.flush_l2 ? "flush" : "") +
                            "," + std::to_string(base.inputs.seed) + "," + base.inputs.image_path;
    return cache_dir / "sweeps" / (hash_hex(key) + ".jsonl");
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
    kept.clock_change = 0;
    kept.unsteady.clear();
    entries_[kept.label] = kept;
    // Appended, not rewritten: a sweep of thousands of points writes each once. One write() of the whole
    // line, so two sweeps of the same file appending at once never interleave within a line.
    std::error_code error;
    std::filesystem::create_directories(file_.parent_path(), error);
    const std::string line = to_json(kept).dump() + "\n";
    const UniqueFd fd(::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
    if (fd.get() >= 0 && ::write(fd.get(), line.data(), line.size()) < 0) {
        // A cache that cannot be written only costs a later sweep the time to measure again.
    }
}

}  // namespace kplay
