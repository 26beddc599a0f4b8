// Starting a pool's workers side by side, grouping those that came up, and stopping them all.
#include "client/worker_pool.hpp"

#include <poll.h>

#include <algorithm>
#include <mutex>
#include <optional>

namespace kplay {

namespace {

// A worker being started, and where it goes in the pool: its launch's place in the entries' order, then
// its GPU's for `local` on a machine of several.
struct Slot {
    StartingWorker starting;
    size_t order = 0, gpu = 0;
};

WorkerStart failed_start(const WorkerLaunch& launch, const std::string& why) {
    WorkerStart failed;
    failed.member = launch.member;
    failed.where = launch.where;
    failed.failure = "it could not be started: " + why;
    return failed;
}

// Every launch at once, advanced without blocking in one loop on the caller's thread: a start is
// mostly waiting (a login, an allocation, a worker's own start), so the slowest one sets the time,
// not their sum. Threads would not do: a local worker dies with the thread that started it.
std::vector<WorkerStart> start_all(const std::vector<WorkerLaunch>& launches, double timeout_s, const std::atomic<bool>* cancel) {
    std::vector<std::pair<std::pair<size_t, size_t>, WorkerStart>> done;
    std::vector<Slot> slots;
    auto begin = [&](const WorkerLaunch& launch, size_t order, size_t gpu) {
        try {
            slots.push_back({begin_start(launch, timeout_s), order, gpu});
        } catch (const std::exception& error) {  // memory or descriptors ran out
            done.emplace_back(std::make_pair(order, gpu), failed_start(launch, error.what()));
        }
    };
    for (size_t i = 0; i < launches.size(); ++i) begin(launches[i], i, 0);
    while (!slots.empty()) {
        if (cancel && cancel->load())
            for (Slot& slot : slots) slot.starting.until = std::chrono::steady_clock::now();
        for (size_t i = 0; i < slots.size();) {
            std::optional<WorkerStart> outcome = advance_start(slots[i].starting);
            if (!outcome) {
                ++i;
                continue;
            }
            Slot slot = std::move(slots[i]);
            slots.erase(slots.begin() + static_cast<std::ptrdiff_t>(i));
            const size_t gpus = outcome->devices.devices.size();
            if (slot.starting.launch.every_gpu && outcome->came_up() && gpus > 1) {
                // It sees every GPU: a worker pinned to each takes its place.
                outcome.reset();
                std::vector<WorkerLaunch> pinned = pinned_launches(slot.starting.launch, gpus);
                for (size_t g = 0; g < pinned.size(); ++g) begin(pinned[g], slot.order, g);
                continue;
            }
            done.emplace_back(std::make_pair(slot.order, slot.gpu), std::move(*outcome));
        }
        if (slots.empty()) break;
        std::vector<pollfd> watch;
        for (const Slot& slot : slots) watch.push_back({slot.starting.client->wait_fd(), POLLIN, 0});
        ::poll(watch.data(), watch.size(), 20);  // an answer wakes it; the tick serves the deadlines
    }
    std::stable_sort(done.begin(), done.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<WorkerStart> outcomes;
    for (auto& [order, outcome] : done) outcomes.push_back(std::move(outcome));
    return outcomes;
}

// Slurm job names are numbered across the process's pools, so that no two of its workers share one.
std::vector<WorkerLaunch> launches_of_all(const std::vector<PoolMember>& members, const PoolOptions& options) {
    static std::mutex numbering;
    static int next_number = 1;
    const std::lock_guard<std::mutex> lock(numbering);
    std::vector<WorkerLaunch> launches;
    for (const PoolMember& member : members)
        for (WorkerLaunch& launch : launches_of(member, options, next_number)) launches.push_back(std::move(launch));
    return launches;
}

}  // namespace

WorkerPool WorkerPool::start(const std::vector<PoolMember>& members, const PoolOptions& options) {
    std::vector<WorkerStart> outcomes = start_all(launches_of_all(members, options), options.start_timeout_s, options.cancel.get());
    WorkerPool pool;
    std::vector<WorkerDevice> devices;
    for (WorkerStart& outcome : outcomes) {
        if (!outcome.slurm_job.empty()) pool.slurm_jobs_.push_back(outcome.slurm_job);
        if (!outcome.came_up()) {
            pool.failures_.push_back({outcome.member, outcome.failure});
            continue;
        }
        devices.push_back(device_of(outcome.devices));
        pool.workers_.push_back({outcome.member, outcome.where, devices.back(), outcome.devices, std::move(outcome.client)});
    }
    pool.groups_ = group_by_device(devices);
    return pool;
}

WorkerPool::~WorkerPool() { stop(); }

WorkerPool::WorkerPool(WorkerPool&& other) noexcept
    : workers_(std::move(other.workers_)),
      groups_(std::move(other.groups_)),
      failures_(std::move(other.failures_)),
      slurm_jobs_(std::move(other.slurm_jobs_)) {
    other.workers_.clear();
    other.slurm_jobs_.clear();
}

WorkerPool& WorkerPool::operator=(WorkerPool&& other) noexcept {
    if (this != &other) {
        stop();
        workers_ = std::move(other.workers_);
        groups_ = std::move(other.groups_);
        failures_ = std::move(other.failures_);
        slurm_jobs_ = std::move(other.slurm_jobs_);
        other.workers_.clear();
        other.slurm_jobs_.clear();
    }
    return *this;
}

void WorkerPool::stop() noexcept {
    // Each client's link closes its worker's stdin and waits a moment for it to end, then kills it; a
    // Slurm worker's job ends with its srun, unless srun had to be killed: then scancel ends it.
    workers_.clear();
    groups_.clear();
    failures_.clear();
    slurm_cancel(slurm_jobs_, 0);
    slurm_jobs_.clear();
}

}  // namespace kplay
