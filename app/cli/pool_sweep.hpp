// The workers a sweep over a pool runs on: one device group of it (times are never compared across
// groups), chosen by --group or else the first GPU group, else the emulated one; and the devices its
// first worker answers, which the sweep's target is made from.
#pragma once

#include <string>
#include <vector>

#include "client/worker_pool.hpp"
#include "sweep/point_dispatch.hpp"

namespace kplay::cli {

struct SweepGroup {
    std::vector<SweepWorker> workers;  // taken from the pool, which still ends their Slurm jobs at the end
    DeviceQuery devices;
    bool emulated = false;
    std::string notice;   // which group is used and why, when the pool has several; else empty
    std::string failure;  // why no sweep can run (no such group, no worker came up); empty otherwise
    int exit_code = 0;
};

// `group`: the number devices --pool shows (1-based), 0 to choose; `cpu`: --device cpu, the emulated group.
SweepGroup take_sweep_group(WorkerPool& pool, int group, bool cpu);

}  // namespace kplay::cli
