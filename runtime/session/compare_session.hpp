// The window's compare, free of GUI code: the open kernel file benched on every device group of the
// pool, a column per group, each against its own ceilings and its own cuBLAS (the runner of
// `kplay-cli bench --pool`), while the window goes on drawing.
//
// The groups run one after another, as kplay-cli's do, so that no group's load shares a host's cores
// with another's timing. They run on a thread of this session's own that lives as long as the session:
// a worker that faults is restarted by its client on the thread that runs it, and a local worker dies
// with the thread that started it, so that thread must outlive the workers it hands back to the pool.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_runner.hpp"
#include "session/pool_session.hpp"

namespace kplay {

class CompareSession {
public:
    CompareSession();
    ~CompareSession();  // a compare under way stops after the row it is running
    CompareSession(const CompareSession&) = delete;
    CompareSession& operator=(const CompareSession&) = delete;

    // Benches settings.files on every group of `pool`, whose workers it borrows until the compare is
    // over; false, with problem() set, without a pool, while its workers are lent, or with no file.
    bool start(PoolSession& pool, BenchSettings settings);
    // Per frame: takes in the groups finished; at the end gives the workers back to `pool`. True when
    // something changed.
    bool update(PoolSession& pool);
    void cancel();
    bool running() const { return running_; }
    // The groups finished so far, in the pool's order of groups; a group that failed says why in its
    // column (failure), and the others still stand.
    const std::vector<BenchColumn>& columns() const { return columns_; }
    // Every group's title ("H200 sm_90", "cpu (emulated)"), those still to come included.
    const std::vector<std::string>& titles() const { return titles_; }
    const std::vector<std::string>& files() const { return files_; }
    const std::string& problem() const { return problem_; }

private:
    // A group as the compare thread takes it: what its column is called, and its lent workers.
    struct Group {
        BenchGroup bench;
        std::vector<SweepWorker> workers;
    };
    // What the compare thread and the UI thread share.
    struct Shared {
        std::mutex mutex;
        std::condition_variable wake;
        std::optional<std::pair<std::vector<Group>, BenchSettings>> request;  // a compare asked for
        std::vector<BenchColumn> finished;                                    // columns not yet taken in
        std::optional<std::vector<std::unique_ptr<WorkerClient>>> returned;   // the compare is over
        bool done = false;
    };
    static void keep(std::shared_ptr<Shared> shared);

    bool running_ = false;
    std::vector<BenchColumn> columns_;
    std::vector<std::string> titles_, files_;
    std::string problem_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
    std::thread keeper_;
};

}  // namespace kplay
