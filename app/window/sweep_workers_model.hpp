// What the Sweep tab and the Pool menu say of a pool, as plain text: a row per sweep worker (points
// done, the point in flight, replaced or dropped out) and a line per device group of the pool. No ImGui,
// so it is tested without a window (window_model_tests).
#pragma once

#include <string>
#include <vector>

#include "client/worker_pool.hpp"
#include "sweep/point_dispatch.hpp"

namespace kplay::window {

struct WorkerRow {
    std::string name;    // "worker 2 (local)"
    std::string points;  // "5 points, 2 confirm runs"
    std::string now;     // "running block_x=256", "idle", "dropped out: ...", each with "replaced 1x" when it was
    bool dropped = false;
    bool busy = false;
};
std::vector<WorkerRow> worker_rows(const std::vector<SweepWorkerStatus>& workers);

// "group 1  cpu (emulated)  2 workers: local x2", and "failed  ssh:gone: ..." for each member that did
// not come up; `sweep_group` marks the group sweeps run on.
std::vector<std::string> pool_lines(const WorkerPool& pool, int sweep_group);

}  // namespace kplay::window
