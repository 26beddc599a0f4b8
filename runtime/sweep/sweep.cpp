// The sweep's state machine: take up points in the strategy's order, prune, run, then confirm.
#include "sweep/sweep.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <unordered_set>

#include "base/cache_dir.hpp"
#include "base/enum_names.hpp"
#include "base/error.hpp"
#include "sweep/confirm_ties.hpp"

namespace kplay {

namespace {

constexpr EnumNames<SweepStrategy, 2> kStrategies{{{SweepStrategy::exhaustive, "exhaustive"}, {SweepStrategy::random, "random"}}};
constexpr EnumNames<SweepPhase, 4> kPhases{{{SweepPhase::measuring, "measuring"},
                                            {SweepPhase::confirming, "confirming"},
                                            {SweepPhase::done, "done"},
                                            {SweepPhase::cancelled, "cancelled"}}};

// A random order over a space too large to shuffle whole: distinct indices, drawn as needed.
constexpr uint64_t kLargestShuffledSpace = 1'000'000;
constexpr uint64_t kMostRandomDraws = 100'000;

double median_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n == 0 ? 0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

const char* sweep_strategy_name(SweepStrategy strategy) { return enum_name(kStrategies, strategy); }
const char* sweep_phase_name(SweepPhase phase) { return enum_name(kPhases, phase); }
std::optional<SweepStrategy> parse_sweep_strategy(std::string_view text) { return enum_value(kStrategies, text); }

void parse_sweep_budget(const std::string& text, SweepOptions& options) {
    if (text.empty()) return;
    try {
        size_t used = 0;
        if (text.back() == 's') {
            const double seconds = std::stod(text.substr(0, text.size() - 1), &used);
            if (used + 1 == text.size() && seconds > 0) {
                options.budget_seconds = seconds;
                return;
            }
        } else {
            const long long points = std::stoll(text, &used);
            if (used == text.size() && points > 0) {
                options.budget_points = static_cast<uint64_t>(points);
                return;
            }
        }
    } catch (const std::exception&) {
        // std::stod and std::stoll throw for text that is no number: the message below says what is wanted
    }
    throw InputError("The budget is a number of points (40) or seconds (90s), not '" + text + "'.");
}

Sweep::Sweep(SweepTarget target, RunRequest base, SweepOptions options, WorkerOptions worker)
    : Sweep(std::move(target), std::move(base), std::move(options), std::make_unique<WorkerClient>(std::move(worker))) {}

namespace {

std::vector<SweepWorker> one_worker(std::unique_ptr<WorkerClient> worker) {
    std::vector<SweepWorker> workers;
    workers.push_back(SweepWorker{worker && worker->remote() ? "remote" : "local", std::move(worker)});
    return workers;
}

}  // namespace

Sweep::Sweep(SweepTarget target, RunRequest base, SweepOptions options, std::unique_ptr<WorkerClient> worker)
    : Sweep(std::move(target), std::move(base), std::move(options), one_worker(std::move(worker))) {}

Sweep::Sweep(SweepTarget target, RunRequest base, SweepOptions options, std::vector<SweepWorker> workers)
    : target_(std::move(target)), base_(std::move(base)), options_(std::move(options)),
      dispatch_(std::move(workers), options_.runs_per_worker) {
    const uint64_t size = target_.space.size();
    if (options_.strategy == SweepStrategy::exhaustive && size > kMaxExhaustivePoints)
        throw InputError("The sweep has " + std::to_string(size) + " points; an exhaustive sweep takes at most " +
                         std::to_string(kMaxExhaustivePoints) +
                         ". Narrow a range, add a restriction, or sample it with --strategy random --budget N.");
    if (options_.strategy == SweepStrategy::exhaustive) {
        order_.resize(size);
        std::iota(order_.begin(), order_.end(), uint64_t{0});
    } else {
        std::mt19937_64 random(options_.seed);
        if (size <= kLargestShuffledSpace) {
            order_.resize(size);
            std::iota(order_.begin(), order_.end(), uint64_t{0});
            std::shuffle(order_.begin(), order_.end(), random);
        } else {
            if (options_.budget_points == 0 && options_.budget_seconds <= 0)
                throw InputError("A random sweep over " + std::to_string(size) + " points needs a budget (--budget N or --budget SECONDSs).");
            std::unordered_set<uint64_t> drawn;
            std::uniform_int_distribution<uint64_t> pick(0, size - 1);
            while (order_.size() < kMostRandomDraws)
                if (const uint64_t index = pick(random); drawn.insert(index).second) order_.push_back(index);
        }
    }
    if (options_.use_cache)
        cache_ = SweepCache(SweepCache::file_for(options_.cache_dir.empty() ? default_cache_dir() : options_.cache_dir, target_, base_));
    started_ = Clock::now();
}

Sweep::~Sweep() = default;

Sweep::Taken Sweep::take_next_point(size_t worker) {
    // Pruned and cached points need no run; a few hundred per call keep a frame of the window short
    // when thousands of them come in a row, and the next call goes on.
    constexpr int kPointsWithoutARunPerCall = 256;
    int without_a_run = 0;
    while (next_ < order_.size()) {
        if (without_a_run++ == kPointsWithoutARunPerCall) return Taken::paused;
        if (options_.budget_points && runs_started_measuring_ >= options_.budget_points) return Taken::none_left;
        if (options_.budget_seconds > 0 && elapsed_seconds() >= options_.budget_seconds) return Taken::none_left;
        const SweepPoint point = point_at(target_.space, order_[next_++]);
        PointResult result;
        result.point = point;
        result.label = point_label(target_.space, point);
        // The point's launch is worked out once: pruning reads it, and so does the request of its run.
        std::optional<PointLaunch> launch;
        std::optional<std::string> reason;
        try {
            launch = point_launch(target_, point);
            reason = prune_before_compile(target_, *launch);
        } catch (const std::exception& error) {  // a value std::stoll refuses (the parser keeps these integers)
            reason = std::string("cannot plan this point: ") + error.what();
        }
        if (reason) {
            result.state = PointState::pruned;
            result.reason = std::move(*reason);
            results_.push_back(std::move(result));
            continue;
        }
        ++runs_started_measuring_;
        if (auto cached = cache_.find(result.label)) {
            cached->point = point;
            results_.push_back(std::move(*cached));
            continue;
        }
        results_.push_back(std::move(result));
        requests_[results_.size() - 1] = point_request(base_, target_, *launch);
        submit(worker, results_.size() - 1, false);
        return Taken::submitted;
    }
    return Taken::none_left;
}

void Sweep::submit(size_t worker, size_t result_index, bool confirming) {
    // A point measured in an earlier sweep (the cache) is confirmed without having run in this one.
    auto made = requests_.find(result_index);
    if (made == requests_.end()) made = requests_.emplace(result_index, point_request(base_, target_, results_[result_index].point)).first;
    RunRequest request = made->second;
    if (confirming) {
        // Already checked at every size; the confirm round only times, with more repeats.
        request.repeat = base_.repeat * std::max(1, options_.confirm_repeat_factor);
        request.check_test_sizes = false;
    }
    dispatch_.send(worker, result_index, confirming, request, results_[result_index].label);
    if (!confirming) ran_on_[result_index] = worker;
    update_running_label();
}

void Sweep::update_running_label() {
    running_label_.clear();
    for (const SweepWorkerStatus& worker : dispatch_.status())
        if (!worker.running.empty()) running_label_ += (running_label_.empty() ? "" : "; ") + worker.running;
    if (!running_label_.empty()) running_label_ += confirm_label_;
}

void Sweep::finish_measuring() {
    std::vector<size_t> passed;
    for (size_t i = 0; i < results_.size(); ++i)
        if (results_[i].can_win()) passed.push_back(i);
    std::stable_sort(passed.begin(), passed.end(), [&](size_t a, size_t b) { return results_[a].median_ms < results_[b].median_ms; });
    passed.resize(std::min<size_t>(passed.size(), static_cast<size_t>(std::max(0, options_.confirm_top))));
    confirm_set_ = passed;
    confirm_queue_.clear();
    for (int round = 1; round <= options_.confirm_rounds; ++round)
        for (const size_t index : confirm_set_) confirm_queue_.emplace_back(index, round);
    confirm_next_ = 0;
    // One worker times the whole confirm round, so its rounds are comparable with one another.
    confirm_worker_ = dispatch_.first_alive();
    phase_ = confirm_queue_.empty() ? SweepPhase::done : SweepPhase::confirming;
    running_label_.clear();
}

void Sweep::finish_confirming() {
    for (const size_t index : confirm_set_) {
        PointResult& result = results_[index];
        if (!result.can_win() || result.confirm_ms.empty()) continue;
        result.confirmed_ms = median_of(result.confirm_ms);
        const auto [low, high] = std::minmax_element(result.confirm_ms.begin(), result.confirm_ms.end());
        result.spread = result.confirmed_ms > 0 ? (*high - *low) / result.confirmed_ms : 0;
        result.noisy = result.spread > options_.noisy_spread;
    }
    phase_ = SweepPhase::done;
    running_label_.clear();
}

bool Sweep::worker_dropped(const DispatchedRun& done) {
    // A worker that cannot be replaced costs no point while another of the group is up: its point runs
    // again elsewhere (a confirm run on the next worker, which then times the rest of the round).
    if (dispatch_.size() < 2) return false;
    const bool first_news = !dispatch_.status()[done.worker].dropped;  // its second run in flight says it again
    dispatch_.drop(done.worker, done.result.failure_message);
    if (dispatch_.alive() == 0) return false;
    const SweepWorkerStatus& worker = dispatch_.status()[done.worker];
    if (first_news) notes_.push_back("worker " + std::to_string(done.worker + 1) + " (" + worker.name + ") dropped out after " +
                     std::to_string(worker.points_run) + " points; its points go to the other " + std::to_string(dispatch_.alive()) +
                     ": " + done.result.failure_message);
    if (done.confirming) {
        if (confirm_next_ > 0) --confirm_next_;
        confirm_worker_ = dispatch_.first_alive();
    } else {
        retry_.push_back(done.result_index);
        ran_on_.erase(done.result_index);
    }
    update_running_label();
    return true;
}

bool Sweep::handle(DispatchedRun done) {
    const WorkerResult& result = done.result;
    if (result.failure == WorkerFailure::gave_up || result.failure == WorkerFailure::start_failed) {
        if (worker_dropped(done)) return true;
        ++runs_done_;
        problem_ = result.failure_message;
        results_[done.result_index].state = PointState::failed;
        results_[done.result_index].reason = result.failure_message;
        // Nothing else can run: the runs still in flight are abandoned as a cancel abandons them.
        for (const auto& [index, confirming] : dispatch_.stop_all())
            if (!confirming) results_[index].reason = "not run: " + result.failure_message;
        phase_ = SweepPhase::done;
        running_label_.clear();
        return true;
    }
    ++runs_done_;
    run_seconds_ += result.elapsed_ms / 1000;
    ++timed_runs_;
    update_running_label();
    PointResult& point = results_[done.result_index];
    const PointResult measured = point_result_from(target_.space, point.point, result.run);
    if (!done.confirming) {
        point = measured;
        cache_.store(point);
        return true;
    }
    if (measured.state == PointState::passed) {
        point.confirm_ms.push_back(measured.median_ms);
        note_confirm_conditions(point, result.run.conditions);
    } else {
        // Correct once, not again: a kernel that is right only sometimes can never win.
        point.state = measured.state;
        point.reason = "in the confirm round: " + measured.reason;
    }
    return true;
}

void Sweep::take_finished(bool wait, bool& changed) {
    // With `wait`, block for the first finished run only; then take whatever else is ready.
    while (std::optional<DispatchedRun> done = dispatch_.take(wait && !changed)) {
        changed |= handle(std::move(*done));
        if (finished()) return;
    }
}

void Sweep::submit_measuring(bool& changed) {
    const size_t before = results_.size();
    bool none_left = false;
    while (const std::optional<size_t> worker = dispatch_.free_worker()) {
        if (!retry_.empty()) {
            const size_t index = retry_.front();
            retry_.erase(retry_.begin());
            submit(*worker, index, false);
            continue;
        }
        const Taken taken = take_next_point(*worker);
        if (taken == Taken::none_left) none_left = true;
        if (taken != Taken::submitted) break;
    }
    if (!dispatch_.free_worker() && next_ >= order_.size()) none_left = true;
    changed |= results_.size() != before;
    // The confirm round waits for every point in flight: it ranks them all.
    if (none_left && retry_.empty() && dispatch_.in_flight() == 0) {
        finish_measuring();
        changed = true;
    }
}

void Sweep::submit_confirming(bool& changed) {
    if (dispatch_.in_flight() > 0) return;
    while (confirm_next_ < confirm_queue_.size() && !results_[confirm_queue_[confirm_next_].first].can_win()) ++confirm_next_;
    if (confirm_next_ == confirm_queue_.size() || !confirm_worker_) {
        confirm_label_.clear();
        finish_confirming();
    } else {
        const auto [index, round] = confirm_queue_[confirm_next_++];
        confirm_label_ = " (confirm round " + std::to_string(round) + "/" + std::to_string(options_.confirm_rounds) + ")";
        submit(*confirm_worker_, index, true);
    }
    changed = true;
}

bool Sweep::update(bool wait) {
    if (finished()) return false;
    bool changed = false;
    take_finished(wait, changed);
    if (finished()) return changed;
    if (phase_ == SweepPhase::measuring) submit_measuring(changed);
    if (phase_ == SweepPhase::confirming) submit_confirming(changed);
    return changed;
}

pid_t Sweep::worker_pid(size_t worker) const {
    const WorkerClient* client = worker < dispatch_.size() ? dispatch_.client(worker) : nullptr;
    return client ? client->worker_pid() : 0;
}

std::vector<std::unique_ptr<WorkerClient>> Sweep::release_workers() {
    std::vector<std::unique_ptr<WorkerClient>> clients;
    if (!finished() || dispatch_.in_flight() > 0) return clients;
    for (size_t i = 0; i < dispatch_.size(); ++i) clients.push_back(dispatch_.release(i));
    return clients;
}

std::optional<size_t> Sweep::worker_of(size_t result_index) const {
    const auto found = ran_on_.find(result_index);
    if (found == ran_on_.end()) return std::nullopt;
    return found->second;
}

std::unique_ptr<WorkerClient> Sweep::release_worker() {
    const std::optional<size_t> worker = dispatch_.first_alive();
    if (!finished() || dispatch_.in_flight() > 0 || !worker) return nullptr;
    return dispatch_.release(*worker);
}

void Sweep::cancel() {
    if (finished()) return;
    for (const auto& [index, confirming] : dispatch_.stop_all()) {  // stops every worker and the runs in them
        if (confirming) continue;
        results_[index].state = PointState::pending;
        results_[index].reason = "cancelled before it finished";
    }
    confirm_label_.clear();
    phase_ = SweepPhase::cancelled;
    running_label_.clear();
}

std::optional<size_t> Sweep::best() const {
    std::optional<size_t> best;
    const bool confirmed = std::any_of(results_.begin(), results_.end(), [](const PointResult& r) { return r.can_win() && r.confirmed_ms > 0; });
    for (size_t i = 0; i < results_.size(); ++i) {
        const PointResult& r = results_[i];
        if (!r.can_win() || (confirmed && r.confirmed_ms <= 0)) continue;
        if (!best || r.ranking_ms() < results_[*best].ranking_ms()) best = i;
    }
    return best;
}

std::optional<size_t> Sweep::best_before_confirm() const {
    std::optional<size_t> best;
    for (size_t i = 0; i < results_.size(); ++i)
        if (results_[i].can_win() && (!best || results_[i].median_ms < results_[*best].median_ms)) best = i;
    return best;
}

std::vector<size_t> Sweep::tied_with_best() const {
    const std::optional<size_t> winner = best();
    return winner ? tied_with(results_, *winner, options_.noisy_spread) : std::vector<size_t>{};
}

int Sweep::pruned() const {
    return static_cast<int>(std::count_if(results_.begin(), results_.end(), [](const PointResult& r) { return r.state == PointState::pruned; }));
}

int Sweep::from_cache() const {
    return static_cast<int>(std::count_if(results_.begin(), results_.end(), [](const PointResult& r) { return r.from_cache; }));
}

int Sweep::runs_expected() const {
    if (phase_ == SweepPhase::done || phase_ == SweepPhase::cancelled) return runs_done_;
    if (phase_ == SweepPhase::confirming) return runs_done_ + static_cast<int>(confirm_queue_.size() - confirm_next_) + static_cast<int>(dispatch_.in_flight());
    // Still measuring: the points left, at the share that has needed a run so far, then the confirm round.
    const size_t taken = results_.size();
    const size_t ran = taken - static_cast<size_t>(pruned()) - static_cast<size_t>(from_cache());
    const double share = taken ? static_cast<double>(ran) / static_cast<double>(taken) : 1.0;
    uint64_t left = order_.size() - next_;
    if (options_.budget_points) left = std::min<uint64_t>(left, options_.budget_points - std::min(options_.budget_points, runs_started_measuring_));
    const int in_flight = static_cast<int>(dispatch_.in_flight());
    const int confirm = options_.confirm_top * options_.confirm_rounds;
    return runs_done_ + in_flight + static_cast<int>(static_cast<double>(left) * share + 0.5) + confirm;
}

double Sweep::fraction_done() const {
    if (finished()) return 1;
    const int expected = runs_expected();
    return expected > 0 ? std::min(1.0, static_cast<double>(runs_done_) / expected) : 0;
}

std::optional<double> Sweep::eta_seconds() const {
    if (finished()) return 0.0;
    if (timed_runs_ == 0) return std::nullopt;
    // Runs overlap on several workers: the time left is shared among those still up.
    double left = (run_seconds_ / timed_runs_) * std::max(0, runs_expected() - runs_done_) /
                  static_cast<double>(std::max<size_t>(1, phase_ == SweepPhase::confirming ? 1 : dispatch_.alive()));
    if (options_.budget_seconds > 0) left = std::min(left, std::max(0.0, options_.budget_seconds - elapsed_seconds()));
    return left;
}

double Sweep::elapsed_seconds() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }

}  // namespace kplay
