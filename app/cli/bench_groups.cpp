// Starting the pool a bench runs over, choosing its groups, and running the bench on each in turn.
#include "bench_groups.hpp"

#include <algorithm>

#include "client/pool_spec.hpp"
#include "client/worker_pool.hpp"
#include "exit_codes.hpp"

namespace kplay::cli {

namespace {

// 5 (a run failed) outweighs 6 (a check failed), as in one table.
int worse(int a, int b) {
    if (a == kCudaError || b == kCudaError) return kCudaError;
    return std::max(a, b);
}

}  // namespace

BenchGroups bench_groups(const BenchGroupsRequest& request, const BenchSettings& settings) {
    BenchGroups result;
    const std::vector<PoolMember> members =
        parse_pool(request.pool.specs.empty() ? std::vector<std::string>{"local"} : request.pool.specs);
    WorkerPool pool = WorkerPool::start(members, pool_options(request.pool, request.base));
    for (const PoolFailure& failure : pool.failures()) {
        result.absent.push_back({failure.member, failure.message});
        result.exit_code = kCudaError;
    }
    const std::vector<DeviceGroup>& groups = pool.groups();
    std::vector<size_t> chosen;
    if (request.group > 0) {
        if (static_cast<size_t>(request.group) > groups.size()) {
            result.usage_error = "--group " + std::to_string(request.group) + ": the pool has " +
                                 std::to_string(groups.size()) + " group" + (groups.size() == 1 ? "" : "s") +
                                 " (kplay-cli devices --pool numbers them)";
            result.exit_code = kUsageError;
            return result;
        }
        chosen.push_back(static_cast<size_t>(request.group) - 1);
    } else {
        for (size_t i = 0; i < groups.size(); ++i) chosen.push_back(i);
    }
    const auto bench = [&](const BenchGroup& group, const std::vector<size_t>& members) {
        std::vector<BenchWorker> workers;
        for (const size_t worker : members) workers.push_back({pool.workers()[worker].where, &pool.client(worker)});
        BenchColumn column = bench_group(group, workers, settings);
        result.exit_code = worse(result.exit_code, bench_exit_code(column.failure, column.summary.rows));
        result.columns.push_back(std::move(column));
    };
    for (const size_t index : chosen) {
        const DeviceGroup& group = groups[index];
        bench({static_cast<int>(index) + 1, group_title(group), group_arch(group), group.emulated, group.name}, group.workers);
    }
    // Every local device: the emulated CPU device beside the GPUs, run by a GPU's worker (each has it).
    const bool has_emulated =
        std::any_of(groups.begin(), groups.end(), [](const DeviceGroup& g) { return g.emulated; });
    if (request.every_local && !has_emulated && !groups.empty())
        bench({static_cast<int>(groups.size()) + 1, "cpu (emulated)", "", true, "the emulated CPU device"},
              {groups.front().workers.front()});
    if (groups.empty() && result.exit_code == kSuccess) result.exit_code = kCudaError;
    return result;
}

int bench_exit_code(const std::string& failure, const std::vector<BenchRow>& rows) {
    int exit_code = failure.empty() ? kSuccess : kCudaError;
    for (const BenchRow& row : rows) {
        if (!row.report.ok())
            exit_code = kCudaError;
        else if (!row.report.check.passed && exit_code == kSuccess)
            exit_code = kCheckFailed;
    }
    return exit_code;
}

}  // namespace kplay::cli
