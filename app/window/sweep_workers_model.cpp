// The Sweep tab's rows per worker and the Pool menu's lines per group, in words.
#include "sweep_workers_model.hpp"

#include <algorithm>

namespace kplay::window {

namespace {

std::string count(int n, const char* noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

}  // namespace

std::vector<WorkerRow> worker_rows(const std::vector<SweepWorkerStatus>& workers) {
    std::vector<WorkerRow> rows;
    for (size_t i = 0; i < workers.size(); ++i) {
        const SweepWorkerStatus& w = workers[i];
        WorkerRow row;
        row.name = "worker " + std::to_string(i + 1) + " (" + w.name + ")";
        row.points = count(w.points_run, "point");
        if (w.confirm_runs > 0) row.points += ", " + count(w.confirm_runs, "confirm run");
        row.dropped = w.dropped;
        row.busy = !w.running.empty() && !w.dropped;
        row.now = w.dropped ? "dropped out: " + w.dropped_reason : row.busy ? "running " + w.running : "idle";
        // A process replaced after a crash or a hang is still the same worker: it says so.
        if (w.restarts > 0) row.now += " (replaced " + std::to_string(w.restarts) + "x)";
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::string> pool_lines(const WorkerPool& pool, int sweep_group) {
    std::vector<std::string> lines;
    for (size_t g = 0; g < pool.groups().size(); ++g) {
        const DeviceGroup& group = pool.groups()[g];
        // Alike places once, with their count: "local x2, gpu-box".
        std::vector<std::pair<std::string, int>> places;
        for (const size_t worker : group.workers) {
            const std::string& where = pool.workers()[worker].where;
            auto place = std::find_if(places.begin(), places.end(), [&](const auto& p) { return p.first == where; });
            if (place == places.end())
                places.push_back({where, 1});
            else
                ++place->second;
        }
        std::string text;
        for (const auto& [where, n] : places)
            text += (text.empty() ? "" : ", ") + where + (n > 1 ? " x" + std::to_string(n) : "");
        lines.push_back("group " + std::to_string(g + 1) + "  " + group_title(group) + "  " +
                        count(static_cast<int>(group.workers.size()), "worker") + ": " + text +
                        (static_cast<int>(g) + 1 == sweep_group ? "  (sweeps run here)" : ""));
    }
    for (const PoolFailure& failure : pool.failures())
        lines.push_back("failed  " + failure.member + ": " + failure.message);
    return lines;
}

}  // namespace kplay::window
