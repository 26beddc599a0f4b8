// Points a sweep measured before, kept on disk by (source, device, size, settings), so an interrupted
// or repeated sweep resumes where it stopped instead of timing every point again.
//
// One JSON-lines file per key under the cache folder's sweeps/, a line appended per point, so a sweep
// killed mid-way loses at most the point in flight. Only points that ran to a verdict (correct or
// wrong) are kept: a failure may be the machine's (a worker killed), and pruning costs nothing.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "values/run_request.hpp"
#include "sweep/point_result.hpp"
#include "sweep/sweep_target.hpp"

namespace kplay {

class SweepCache {
public:
    SweepCache() = default;  // keeps nothing
    explicit SweepCache(std::filesystem::path file);

    // The file for this target and these run settings under `cache_dir`.
    static std::filesystem::path file_for(const std::filesystem::path& cache_dir, const SweepTarget& target, const RunRequest& base);

    std::optional<PointResult> find(const std::string& label) const;
    void store(const PointResult& result);  // passed and wrong points only; a write that fails is ignored
    size_t size() const { return entries_.size(); }
    const std::filesystem::path& file() const { return file_; }

private:
    std::filesystem::path file_;
    std::map<std::string, PointResult> entries_;
};

}  // namespace kplay
