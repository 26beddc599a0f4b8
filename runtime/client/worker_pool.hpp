// A pool of workers: one WorkerClient per worker of the pool's members, started together (a slow ssh
// login or a Slurm allocation holds up no other member; one loop on the caller's thread, which must
// outlive the pool, waits for them all), each asked for its devices as `kplay-cli devices` asks, and
// grouped by device model and compute capability (device_groups.hpp). A member
// that does not come up is a failure with its reason, and the others come up all the same. kplay opens
// no port: Slurm and ssh are reached only through srun, squeue, scancel and ssh.
//
// Move-only: the pool owns its workers. Its destructor stops every one and cancels any Slurm job it
// started that is still there (a killed srun leaves its job behind); it never throws.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "client/device_groups.hpp"
#include "client/pool_launch.hpp"
#include "client/pool_spec.hpp"
#include "client/worker_client.hpp"

namespace kplay {

struct PoolWorker {
    std::string member;   // the pool entry it came from ("slurm:gpu x4")
    std::string where;    // "local GPU 1", "gpu-box", "node17 (Slurm job 4242)"
    WorkerDevice device;  // where its runs go
    DeviceQuery devices;  // what it answered when it came up (a sweep's target is made from it)
    std::unique_ptr<WorkerClient> client;
};

// A worker that did not come up: its member, and why, in words.
struct PoolFailure {
    std::string member, message;
};

class WorkerPool {
public:
    WorkerPool() = default;
    // Returns once every worker has answered or failed (each within options.start_timeout_s; `local` on
    // a machine of several GPUs takes that twice, once to count them). Throws only for a malformed member.
    static WorkerPool start(const std::vector<PoolMember>& members, const PoolOptions& options);

    ~WorkerPool();
    WorkerPool(WorkerPool&& other) noexcept;
    WorkerPool& operator=(WorkerPool&& other) noexcept;
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    const std::vector<PoolWorker>& workers() const { return workers_; }
    WorkerClient& client(size_t worker) { return *workers_.at(worker).client; }
    // The worker's client, handed to its user (a sweep); the pool keeps its place, and still cancels the
    // Slurm job behind it at the end. Null once taken.
    std::unique_ptr<WorkerClient> take_client(size_t worker) { return std::move(workers_.at(worker).client); }
    // A taken client back in its place once its user is done with it (a finished sweep).
    void give_back(size_t worker, std::unique_ptr<WorkerClient> client) { workers_.at(worker).client = std::move(client); }
    // The groups' worker indices are into workers().
    const std::vector<DeviceGroup>& groups() const { return groups_; }
    const std::vector<PoolFailure>& failures() const { return failures_; }

private:
    void stop() noexcept;

    std::vector<PoolWorker> workers_;
    std::vector<DeviceGroup> groups_;
    std::vector<PoolFailure> failures_;
    std::vector<std::string> slurm_jobs_;  // the jobs Slurm made for workers (not steps of the user's job)
};

}  // namespace kplay
