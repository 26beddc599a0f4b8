// The window's pool, free of GUI code: the spec as the user types it (the syntax of --pool), the pool
// started off the UI thread, its groups, and the group a sweep runs on, whose workers it lends to the
// sweep and takes back when the sweep is over.
//
// A pool is started on a thread of this session's own that lives as long as the session: a local
// worker dies with the thread that started it (its PR_SET_PDEATHSIG follows the thread), so that
// thread must outlive every worker. The UI thread only looks at what the start left behind. Ending the
// session ends a start still under way as its deadline would (srun stopped, the job cancelled), so a
// closing window waits for no Slurm queue and leaves no job queued.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "client/worker_pool.hpp"
#include "sweep/point_dispatch.hpp"

namespace kplay {

// A group's workers lent to a sweep, and the devices its first worker answered (the sweep's target).
struct LentGroup {
    std::vector<SweepWorker> workers;
    DeviceQuery devices;
    bool emulated = false;
    size_t group = 0;
};

class PoolSession {
public:
    explicit PoolSession(PoolOptions options = {});
    ~PoolSession();
    PoolSession(const PoolSession&) = delete;
    PoolSession& operator=(const PoolSession&) = delete;

    // Starts the pool `spec` names in the background (a running one is stopped first); false, with
    // problem() set, for a spec that does not parse or while workers are lent to a sweep.
    bool start();
    // Stops the pool (the workers end, Slurm jobs are cancelled); the window runs on its own worker again.
    void stop();
    bool update();  // per frame: takes in a pool that came up; true when something changed
    bool starting() const { return starting_; }
    const WorkerPool* pool() const { return pool_.get(); }
    const std::string& problem() const { return problem_; }
    // The group sweeps run on (into pool()->groups()): chosen_group when it names one, else the first
    // GPU group, else the first; nothing without a pool that has groups.
    std::optional<size_t> sweep_group() const;
    // The sweep group's workers, taken out of the pool until give_back; nothing when there is no group
    // or they are lent already.
    std::optional<LentGroup> lend_group();
    // Every group's workers, group after group (for a compare across the groups), taken out of the pool
    // until give_back, which takes them in the same order; empty when there is no pool or they are lent.
    std::vector<LentGroup> lend_all_groups();
    void give_back(std::vector<std::unique_ptr<WorkerClient>> clients);
    bool lent() const { return !lent_workers_.empty(); }

    std::string spec;          // "local:2", "local,ssh:gpu-box": as --pool takes it
    int chosen_group = 0;      // 1-based, as `kplay-cli devices --pool` numbers them; 0: choose
    std::string started_spec;  // the spec of the pool shown (or starting)

private:
    // What the keeper thread and the UI thread share.
    struct Shared {
        std::mutex mutex;
        std::condition_variable wake;
        std::optional<std::vector<PoolMember>> request;  // a start asked for, for the keeper
        std::unique_ptr<WorkerPool> started;             // a start done, for the UI thread
        std::string start_error;                         // and why it failed, if it did
        std::unique_ptr<WorkerPool> retired;             // a pool to end on the keeper thread
        bool done = false;
        // Ends a start under way (a Slurm queue, an ssh login) when the session ends, as its deadline would.
        std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
    };
    // The keeper thread: starts each pool asked for, ends each retired one, until the session is done.
    static void keep(std::shared_ptr<Shared> shared, PoolOptions options);
    LentGroup lend(size_t group);  // the group's workers still in the pool, noted as lent

    std::unique_ptr<WorkerPool> pool_;
    std::string problem_;
    bool starting_ = false;
    std::vector<size_t> lent_workers_;  // pool workers lent, in the order the sweep has them
    std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
    std::thread keeper_;
};

}  // namespace kplay
