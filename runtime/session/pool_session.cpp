// The window's pool: started and ended on the keeper thread, looked at and lent out on the UI thread.
#include "session/pool_session.hpp"

#include "base/error.hpp"

namespace kplay {

PoolSession::PoolSession(PoolOptions options) {
    options.cancel = shared_->cancel;
    keeper_ = std::thread(keep, shared_, std::move(options));
}

PoolSession::~PoolSession() {
    {
        std::lock_guard<std::mutex> lock(shared_->mutex);
        shared_->retired = std::move(pool_);
        shared_->done = true;
    }
    shared_->cancel->store(true);  // a start under way ends now, its Slurm job cancelled, rather than at its timeout
    shared_->wake.notify_all();
    keeper_.join();
}

void PoolSession::keep(std::shared_ptr<Shared> shared, PoolOptions options) {
    std::unique_lock<std::mutex> lock(shared->mutex);
    for (;;) {
        shared->wake.wait(lock, [&] { return shared->done || shared->request || shared->retired; });
        if (shared->retired) {
            std::unique_ptr<WorkerPool> ending = std::move(shared->retired);
            lock.unlock();
            ending.reset();  // stops its workers, cancels its Slurm jobs (squeue may take a moment)
            lock.lock();
            continue;
        }
        if (shared->done) return;
        const std::vector<PoolMember> members = std::move(*shared->request);
        shared->request.reset();
        lock.unlock();
        auto pool = std::make_unique<WorkerPool>();
        std::string error;
        try {
            *pool = WorkerPool::start(members, options);
        } catch (const std::exception& failure) {
            error = failure.what();
        }
        lock.lock();
        if (shared->done) return;  // the session ended meanwhile: the pool ends here, on this thread
        shared->start_error = error;
        shared->started = std::move(pool);
    }
}

bool PoolSession::start() {
    if (lent()) {
        problem_ = "A sweep or a compare is using the pool; cancel it or let it finish first.";
        return false;
    }
    std::vector<PoolMember> members;
    try {
        members = parse_pool({spec});
    } catch (const std::exception& error) {
        problem_ = error.what();
        return false;
    }
    if (members.empty()) {
        problem_ = "The pool is empty: type members such as local:2 or ssh:HOST.";
        return false;
    }
    {
        std::lock_guard<std::mutex> lock(shared_->mutex);
        problem_.clear();
        shared_->retired = std::move(pool_);
        shared_->request = std::move(members);
    }
    shared_->wake.notify_all();
    starting_ = true;
    started_spec = spec;
    return true;
}

void PoolSession::stop() {
    if (lent()) return;
    {
        std::lock_guard<std::mutex> lock(shared_->mutex);
        shared_->retired = std::move(pool_);
    }
    shared_->wake.notify_all();
    started_spec.clear();
}

bool PoolSession::update() {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    if (!shared_->started) return false;
    pool_ = std::move(shared_->started);
    problem_ = std::move(shared_->start_error);
    shared_->start_error.clear();
    starting_ = false;
    return true;
}

std::optional<size_t> PoolSession::sweep_group() const {
    if (!pool_ || pool_->groups().empty()) return std::nullopt;
    const auto& groups = pool_->groups();
    if (chosen_group > 0 && static_cast<size_t>(chosen_group) <= groups.size())
        return static_cast<size_t>(chosen_group) - 1;
    for (size_t i = 0; i < groups.size(); ++i)
        if (!groups[i].emulated) return i;
    return 0;
}

std::optional<LentGroup> PoolSession::lend_group() {
    const std::optional<size_t> group = sweep_group();
    if (!group || lent()) return std::nullopt;
    LentGroup lent = lend(*group);
    if (lent.workers.empty()) return std::nullopt;
    return lent;
}

std::vector<LentGroup> PoolSession::lend_all_groups() {
    std::vector<LentGroup> groups;
    if (!pool_ || lent()) return groups;
    for (size_t group = 0; group < pool_->groups().size(); ++group) groups.push_back(lend(group));
    return groups;
}

LentGroup PoolSession::lend(size_t group) {
    LentGroup lent;
    lent.group = group;
    lent.emulated = pool_->groups()[group].emulated;
    for (const size_t worker : pool_->groups()[group].workers) {
        std::unique_ptr<WorkerClient> client = pool_->take_client(worker);
        if (!client) continue;  // still with an earlier sweep that could not hand it back
        if (lent.workers.empty()) lent.devices = pool_->workers()[worker].devices;
        lent.workers.push_back(SweepWorker{pool_->workers()[worker].where, std::move(client)});
        lent_workers_.push_back(worker);
    }
    return lent;
}

void PoolSession::give_back(std::vector<std::unique_ptr<WorkerClient>> clients) {
    for (size_t i = 0; i < clients.size() && i < lent_workers_.size(); ++i)
        if (clients[i] && pool_) pool_->give_back(lent_workers_[i], std::move(clients[i]));
    lent_workers_.clear();
}

}  // namespace kplay
