// The device groups a bench runs on with --pool or --devices all: each group on one of its workers (the
// others in reserve should it drop out), one group after another, so that no group's load shares a
// host's cores with another's timing. A column per group; a member that never came up is listed apart.
#pragma once

#include <vector>

#include "bench/bench_runner.hpp"
#include "remote_options.hpp"
#include "values/bench_report.hpp"

namespace kplay::cli {

struct BenchGroupsRequest {
    PoolCliOptions pool;       // empty specs: `local`, the machine's own devices
    int group = 0;             // --group N (1-based); 0: every group
    bool every_local = false;  // --devices all without --pool: the emulated device too, beside each GPU
    WorkerOptions base;        // every worker's limits
};

struct BenchGroups {
    std::vector<BenchColumn> columns;
    std::vector<BenchAbsent> absent;
    std::string usage_error;  // --group names no group: nothing ran
    int exit_code = 0;        // the worst of the groups' (bench_exit_code), 5 when a member never came up
};

BenchGroups bench_groups(const BenchGroupsRequest& request, const BenchSettings& settings);

// Where a bench's exit status comes from: 5 when a row failed to run or the bench stopped (`failure`:
// its workers dropped out, or a group's device could not be used), 6 when a check failed, else 0.
int bench_exit_code(const std::string& failure, const std::vector<BenchRow>& rows);

}  // namespace kplay::cli
