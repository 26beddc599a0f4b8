// Handing points to free workers and taking finished runs back, round-robin over the workers.
#include "sweep/point_dispatch.hpp"

#include <poll.h>

#include <algorithm>

namespace kplay {

PointDispatch::PointDispatch(std::vector<SweepWorker> workers, int per_worker) : per_worker_(std::max(1, per_worker)) {
    for (SweepWorker& worker : workers) {
        status_.push_back(SweepWorkerStatus{.name = worker.name});
        workers_.push_back(Slot{std::move(worker.client), {}});
    }
}

PointDispatch::~PointDispatch() = default;
PointDispatch::PointDispatch(PointDispatch&&) noexcept = default;
PointDispatch& PointDispatch::operator=(PointDispatch&&) noexcept = default;

std::optional<size_t> PointDispatch::free_worker(std::optional<size_t> only) const {
    // The least busy worker first, so two workers each hold one run before either holds two.
    std::optional<size_t> best;
    for (size_t i = 0; i < workers_.size(); ++i) {
        if (only && i != *only) continue;
        if (!workers_[i].client || status_[i].dropped || workers_[i].runs.size() >= static_cast<size_t>(per_worker_))
            continue;
        if (!best || workers_[i].runs.size() < workers_[*best].runs.size()) best = i;
    }
    return best;
}

void PointDispatch::send(size_t worker, size_t result_index, bool confirming, const RunRequest& request,
                         const std::string& label) {
    Slot& slot = workers_.at(worker);
    slot.runs.push_back(Run{slot.client->submit_run(request), result_index, confirming, label});
    status_[worker].running = slot.runs.front().label;
}

std::optional<DispatchedRun> PointDispatch::take(bool wait) {
    while (in_flight() > 0) {
        for (size_t n = 0; n < workers_.size(); ++n) {
            const size_t i = (next_poll_ + n) % workers_.size();
            Slot& slot = workers_[i];
            if (!slot.client || slot.runs.empty()) continue;
            std::optional<WorkerResult> result = slot.client->poll();
            if (!result) continue;
            const auto run =
                std::find_if(slot.runs.begin(), slot.runs.end(), [&](const Run& r) { return r.id == result->id; });
            if (run == slot.runs.end()) continue;  // an answer to something the sweep did not send
            DispatchedRun done{i, run->result_index, run->confirming, std::move(*result)};
            slot.runs.erase(run);
            SweepWorkerStatus& status = status_[i];
            status.running = slot.runs.empty() ? std::string() : slot.runs.front().label;
            status.restarts = slot.client->restarts();
            // A run its client gave up on never ran: it counts for no worker.
            const bool ran =
                done.result.failure != WorkerFailure::gave_up && done.result.failure != WorkerFailure::start_failed;
            if (ran) ++(done.confirming ? status.confirm_runs : status.points_run);
            next_poll_ = i + 1;
            return done;
        }
        if (!wait) return std::nullopt;
        // Sleep in poll(2) on every worker's answers; a short timeout still lets each client's watchdog
        // and restart backoff advance (they move only when polled).
        std::vector<pollfd> fds;
        for (const Slot& slot : workers_)
            if (slot.client && !slot.runs.empty() && slot.client->wait_fd() >= 0)
                fds.push_back(pollfd{slot.client->wait_fd(), POLLIN, 0});
        ::poll(fds.data(), fds.size(), 20);
    }
    return std::nullopt;
}

void PointDispatch::drop(size_t worker, const std::string& reason) {
    status_.at(worker).dropped = true;
    status_[worker].dropped_reason = reason;
    status_[worker].running.clear();
}

std::vector<std::pair<size_t, bool>> PointDispatch::stop_all() noexcept {
    std::vector<std::pair<size_t, bool>> abandoned;
    for (size_t i = 0; i < workers_.size(); ++i) {
        for (const Run& run : workers_[i].runs) abandoned.emplace_back(run.result_index, run.confirming);
        workers_[i].runs.clear();
        workers_[i].client.reset();  // stops the worker and the run in it
        status_[i].running.clear();
    }
    return abandoned;
}

size_t PointDispatch::in_flight() const {
    size_t count = 0;
    for (const Slot& slot : workers_) count += slot.runs.size();
    return count;
}

size_t PointDispatch::alive() const {
    size_t count = 0;
    for (size_t i = 0; i < workers_.size(); ++i) count += workers_[i].client && !status_[i].dropped;
    return count;
}

std::optional<size_t> PointDispatch::first_alive() const {
    for (size_t i = 0; i < workers_.size(); ++i)
        if (workers_[i].client && !status_[i].dropped) return i;
    return std::nullopt;
}

}  // namespace kplay
