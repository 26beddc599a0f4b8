// Points handed to the free workers of one device group, and finished ones taken back: a sweep's runs
// spread over several workers without any of them waiting on another. Each worker is a supervised
// WorkerClient, so a point that crashes its worker costs that point only and the client replaces the
// process; a worker whose client gave up (its host dropped out) takes no more points, and the points
// it held come back to be sent elsewhere.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/worker_client.hpp"

namespace kplay {

// A worker handed to a sweep, with the name its progress is shown under ("local", "ssh:gpu-box").
struct SweepWorker {
    std::string name;
    std::unique_ptr<WorkerClient> client;
};

// What a sweep shows of each of its workers (the window's Sweep tab and the CLI read these).
struct SweepWorkerStatus {
    std::string name;
    int points_run = 0;  // measuring runs it finished (confirm runs counted apart)
    int confirm_runs = 0;
    int restarts = 0;      // its process was replaced (a crash, a sticky fault, a watchdog stop) this many times
    bool dropped = false;  // its client gave up: it takes no more points
    std::string dropped_reason;
    std::string running;  // the label of the point it runs now; empty when idle
};

// A run that finished on a worker: which point it was, and how it went.
struct DispatchedRun {
    size_t worker = 0;
    size_t result_index = 0;
    bool confirming = false;
    WorkerResult result;
};

class PointDispatch {
public:
    PointDispatch() = default;
    // `per_worker`: how many runs each worker holds at once (the second waits in its client's queue,
    // so the worker starts it without a round trip).
    PointDispatch(std::vector<SweepWorker> workers, int per_worker);
    ~PointDispatch();
    PointDispatch(PointDispatch&&) noexcept;
    PointDispatch& operator=(PointDispatch&&) noexcept;
    PointDispatch(const PointDispatch&) = delete;
    PointDispatch& operator=(const PointDispatch&) = delete;

    // A worker that can take a run now, or nullopt; `only` restricts the choice to one worker.
    std::optional<size_t> free_worker(std::optional<size_t> only = std::nullopt) const;
    void send(size_t worker, size_t result_index, bool confirming, const RunRequest& request, const std::string& label);
    // A finished run, if any; with `wait`, blocks until one finishes (none in flight: nullopt at once).
    std::optional<DispatchedRun> take(bool wait);
    // Marks the worker as gone for good: it takes no more points.
    void drop(size_t worker, const std::string& reason);
    // Stops every worker and forgets the runs in flight (the user cancelled); returns their points.
    std::vector<std::pair<size_t, bool>> stop_all() noexcept;

    size_t size() const { return workers_.size(); }
    size_t in_flight() const;
    size_t alive() const;
    // The first worker still taking points, for the confirm round.
    std::optional<size_t> first_alive() const;
    const std::vector<SweepWorkerStatus>& status() const { return status_; }
    const WorkerClient* client(size_t worker) const { return workers_.at(worker).client.get(); }
    std::unique_ptr<WorkerClient> release(size_t worker) { return std::move(workers_.at(worker).client); }

private:
    struct Run {
        uint64_t id = 0;
        size_t result_index = 0;
        bool confirming = false;
        std::string label;
    };
    struct Slot {
        std::unique_ptr<WorkerClient> client;
        std::vector<Run> runs;  // in the order they were sent
    };
    std::vector<Slot> workers_;
    std::vector<SweepWorkerStatus> status_;
    int per_worker_ = 1;
    size_t next_poll_ = 0;  // polled round-robin, so no worker's results wait behind another's
};

}  // namespace kplay
