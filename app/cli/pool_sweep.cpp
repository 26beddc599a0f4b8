// Choosing the device group of a pool a sweep runs on, and taking its workers out of the pool.
#include "pool_sweep.hpp"

#include "exit_codes.hpp"

namespace kplay::cli {

namespace {

std::string group_title(const WorkerPool& pool, size_t index) {
    const DeviceGroup& group = pool.groups()[index];
    return "group " + std::to_string(index + 1) + " (" + group.name + ", " + std::to_string(group.workers.size()) +
           " worker" + (group.workers.size() == 1 ? "" : "s") + ")";
}

}  // namespace

SweepGroup take_sweep_group(WorkerPool& pool, int group, bool cpu) {
    SweepGroup chosen;
    const std::vector<DeviceGroup>& groups = pool.groups();
    if (groups.empty()) {
        chosen.failure = "no worker of the pool came up";
        chosen.exit_code = kCudaError;
        return chosen;
    }
    size_t index = 0;
    std::string why;
    if (group > 0) {
        if (static_cast<size_t>(group) > groups.size()) {
            chosen.failure = "--group " + std::to_string(group) + ": the pool has " + std::to_string(groups.size()) +
                             " group" + (groups.size() == 1 ? "" : "s") + " (kplay-cli devices --pool numbers them)";
            chosen.exit_code = kUsageError;
            return chosen;
        }
        index = static_cast<size_t>(group) - 1;
        why = "as --group asks";
    } else {
        // The first GPU group, as a sweep without a pool takes the first GPU; --device cpu or a pool
        // without a GPU: the emulated group.
        index = groups.size();
        for (size_t i = 0; i < groups.size() && index == groups.size(); ++i)
            if (groups[i].emulated == cpu) index = i;
        if (index == groups.size()) index = 0;
        if (groups[index].emulated == cpu)
            why = cpu ? "the emulated device, as --device cpu asks" : "the first GPU group";
        else
            why = cpu ? "no group is emulated" : "no group has a GPU";
    }
    if (groups.size() > 1)
        chosen.notice = "sweeping on " + group_title(pool, index) + ": " + why +
                        "; times are never compared across groups (--group N picks another)";
    chosen.emulated = groups[index].emulated;
    for (const size_t worker : groups[index].workers) {
        const PoolWorker& member = pool.workers()[worker];
        chosen.workers.push_back(SweepWorker{member.where, pool.take_client(worker)});
    }
    // The target is made from the devices the group's first worker sees, as a sweep without a pool makes it.
    WorkerClient& first = *chosen.workers.front().client;
    const WorkerResult answer = first.wait(first.submit_devices());
    if (!answer.ok()) {
        chosen.failure = answer.failure_message;
        chosen.exit_code = kCudaError;
        return chosen;
    }
    chosen.devices = answer.devices;
    return chosen;
}

}  // namespace kplay::cli
