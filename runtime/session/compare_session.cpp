// The window's compare: the groups lent and benched on the compare thread, taken in on the UI thread.
#include "session/compare_session.hpp"

namespace kplay {

CompareSession::CompareSession() { keeper_ = std::thread(keep, shared_); }

CompareSession::~CompareSession() {
    cancel();
    {
        std::lock_guard<std::mutex> lock(shared_->mutex);
        shared_->done = true;
    }
    shared_->wake.notify_all();
    keeper_.join();
}

void CompareSession::keep(std::shared_ptr<Shared> shared) {
    std::unique_lock<std::mutex> lock(shared->mutex);
    for (;;) {
        shared->wake.wait(lock, [&] { return shared->done || shared->request; });
        if (shared->done) return;
        auto [groups, settings] = std::move(*shared->request);
        shared->request.reset();
        lock.unlock();
        std::vector<std::unique_ptr<WorkerClient>> clients;
        for (Group& group : groups) {
            std::vector<BenchWorker> workers;
            for (SweepWorker& worker : group.workers) workers.push_back({worker.name, worker.client.get()});
            BenchColumn column = bench_group(group.bench, workers, settings);
            for (SweepWorker& worker : group.workers) clients.push_back(std::move(worker.client));
            std::lock_guard<std::mutex> hold(shared->mutex);
            shared->finished.push_back(std::move(column));
        }
        lock.lock();
        shared->returned = std::move(clients);
    }
}

bool CompareSession::start(PoolSession& pool, BenchSettings settings) {
    if (running_) {
        problem_ = "A compare is under way; cancel it or let it finish first.";
        return false;
    }
    if (!pool.pool() || pool.pool()->groups().empty()) {
        problem_ = "No pool is running: start one in Device > Pool (e.g. local:2, or local,ssh:HOST).";
        return false;
    }
    if (settings.files.empty() || settings.files.front().empty()) {
        problem_ = "No kernel file is open.";
        return false;
    }
    if (pool.lent() || pool.starting()) {
        problem_ = "A sweep is using the pool; cancel it or let it finish first.";
        return false;
    }
    std::vector<Group> groups;
    const std::vector<DeviceGroup> pool_groups = pool.pool()->groups();
    for (LentGroup& lent : pool.lend_all_groups()) {
        const DeviceGroup& group = pool_groups[lent.group];
        groups.push_back({{static_cast<int>(lent.group) + 1, group_title(group), group_arch(group), group.emulated, group.name},
                          std::move(lent.workers)});
    }
    columns_.clear();
    titles_.clear();
    for (const Group& group : groups) titles_.push_back(group.bench.title);
    files_ = settings.files;
    problem_.clear();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    settings.cancel = cancel_;
    {
        std::lock_guard<std::mutex> lock(shared_->mutex);
        shared_->finished.clear();
        shared_->request.emplace(std::move(groups), std::move(settings));
    }
    shared_->wake.notify_all();
    running_ = true;
    return true;
}

bool CompareSession::update(PoolSession& pool) {
    std::optional<std::vector<std::unique_ptr<WorkerClient>>> returned;
    bool changed = false;
    {
        std::lock_guard<std::mutex> lock(shared_->mutex);
        for (BenchColumn& column : shared_->finished) columns_.push_back(std::move(column));
        changed = !shared_->finished.empty();
        shared_->finished.clear();
        returned = std::move(shared_->returned);
        shared_->returned.reset();
    }
    if (!returned) return changed;
    pool.give_back(std::move(*returned));
    running_ = false;
    return true;
}

void CompareSession::cancel() {
    if (cancel_) cancel_->store(true);
}

}  // namespace kplay
