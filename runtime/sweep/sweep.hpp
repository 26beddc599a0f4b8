// A sweep in progress: every point pruned, checked or timed on a worker of its own (or on the workers
// of one device group of a pool, each holding a point or two: point_dispatch.hpp), then a confirm round
// on one worker that re-times the fastest correct points, interleaved, to pick a winner timing noise
// did not choose.
//
// A point runs as any run does (compiled through the compile cache, checked at the task's test sizes
// and a second seed, timed at the sweep's size), so a point that is wrong anywhere can never win. The
// state machine never blocks unless asked (the window calls update() once per frame, kplay-cli waits),
// and a fault or hang in one point costs that point only: the supervised worker is replaced. A worker that
// cannot be replaced (its client gave up: the host dropped out) has its points sent to the others.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/worker_client.hpp"
#include "sweep/point_dispatch.hpp"
#include "sweep/point_result.hpp"
#include "sweep/sweep_cache.hpp"
#include "sweep/sweep_target.hpp"

namespace kplay {

enum class SweepStrategy { exhaustive, random };
const char* sweep_strategy_name(SweepStrategy strategy);
std::optional<SweepStrategy> parse_sweep_strategy(std::string_view text);

struct SweepOptions {
    SweepStrategy strategy = SweepStrategy::exhaustive;
    uint64_t budget_points = 0;  // random: the points to run (0: every point, in random order)
    double budget_seconds = 0;   // no new point starts after this long (0: no limit)
    uint64_t seed = 1;           // random's order
    int confirm_top = 3;         // the fastest correct points re-timed in the confirm round
    int confirm_rounds = 3;      // each re-timed this many times, interleaved: A B C A B C ...
    int confirm_repeat_factor = 3;  // with this many times the sweep's repeats
    double noisy_spread = 0.05;     // a confirmed point whose rounds spread more than this is flagged
    int runs_per_worker = 1;        // runs each worker holds at once (docs/BENCHMARKS.md: 2 gains nothing measurable)
    bool use_cache = true;
    std::filesystem::path cache_dir;  // empty: the user's cache folder
};

// "40" (points) or "90s" (seconds) into the options' budget; empty leaves it unset. Throws InputError
// "The budget is a number of points (40) or seconds (90s), not 'soon'."
void parse_sweep_budget(const std::string& text, SweepOptions& options);

// The most points an exhaustive sweep takes; a larger space needs restrictions or --strategy random.
constexpr uint64_t kMaxExhaustivePoints = 10000;

enum class SweepPhase { measuring, confirming, done, cancelled };
const char* sweep_phase_name(SweepPhase phase);  // "measuring", "confirming", "done", "cancelled"

class Sweep {
public:
    // `base`: the warm-ups, repeats and flags every point runs with. Throws InputError for an exhaustive
    // sweep over more than kMaxExhaustivePoints points.
    Sweep(SweepTarget target, RunRequest base, SweepOptions options, WorkerOptions worker = {});
    // On a worker that is already running (the one that answered the device query, or the last sweep's,
    // whose caches of compiles, inputs and references are still warm).
    Sweep(SweepTarget target, RunRequest base, SweepOptions options, std::unique_ptr<WorkerClient> worker);
    // On several running workers of one device group (never of two: their times are not comparable).
    Sweep(SweepTarget target, RunRequest base, SweepOptions options, std::vector<SweepWorker> workers);
    ~Sweep();
    Sweep(const Sweep&) = delete;
    Sweep& operator=(const Sweep&) = delete;

    // Submits the next run and takes in the finished one; with `wait`, blocks until one finishes.
    // Returns true when something changed.
    bool update(bool wait = false);
    // Stops now: the runs in flight are abandoned (every worker is stopped) and the points so far stay.
    void cancel();

    SweepPhase phase() const { return phase_; }
    bool finished() const { return phase_ == SweepPhase::done || phase_ == SweepPhase::cancelled; }
    const SweepTarget& target() const { return target_; }
    const SweepOptions& options() const { return options_; }
    const RunRequest& base() const { return base_; }
    // Every point considered so far, pruned ones included, in the order they were taken up.
    const std::vector<PointResult>& results() const { return results_; }
    // The winner: the fastest correct point, ranked by the confirm round once it ran; nullopt when no
    // point passed. An index into results().
    std::optional<size_t> best() const;
    // The fastest correct point by the sweep's own medians, before the confirm round.
    std::optional<size_t> best_before_confirm() const;
    // The confirmed points the winner cannot be told apart from (sweep/confirm_ties.hpp), fastest first.
    std::vector<size_t> tied_with_best() const;
    // Progress: runs finished and expected in all (measuring and confirming), and the seconds left.
    int runs_done() const { return runs_done_; }
    int runs_expected() const;
    double fraction_done() const;
    std::optional<double> eta_seconds() const;
    double elapsed_seconds() const;
    int pruned() const;
    int from_cache() const;
    // The label of the point running now ("" when none) and the round ("confirm 2/3").
    const std::string& running() const { return running_label_; }
    // Why the sweep stopped early (the worker could not be started, gave up); empty otherwise.
    const std::string& problem() const { return problem_; }
    const std::filesystem::path& cache_file() const { return cache_.file(); }
    pid_t worker_pid(size_t worker = 0) const;  // 0 once stopped
    // Each worker: its name, the points it ran, whether it dropped out, what it runs now.
    const std::vector<SweepWorkerStatus>& workers() const { return dispatch_.status(); }
    // The worker of each point that ran in this sweep, by its index in results() (absent: pruned, cached).
    std::optional<size_t> worker_of(size_t result_index) const;
    // What the user should know of the workers: "worker 2 (ssh:box) dropped out after 7 points; ...".
    const std::vector<std::string>& notes() const { return notes_; }
    // The worker, handed on once the sweep is finished (null after a cancel, which stopped it); with
    // several, the first that is still up.
    std::unique_ptr<WorkerClient> release_worker();
    // Every worker's client, in the order they were given (null where one was released already), once
    // the sweep is over and none holds a run: a pool's group goes back to the pool for the next sweep.
    std::vector<std::unique_ptr<WorkerClient>> release_workers();

private:
    using Clock = std::chrono::steady_clock;
    enum class Taken { submitted, paused, none_left };  // a run went out; more points next call; no more
    Taken take_next_point(size_t worker);
    void submit(size_t worker, size_t result_index, bool confirming);
    void take_finished(bool wait, bool& changed);
    void submit_measuring(bool& changed);
    void submit_confirming(bool& changed);
    bool worker_dropped(const DispatchedRun& done);
    void update_running_label();
    void finish_measuring();
    void finish_confirming();
    bool handle(DispatchedRun done);

    SweepTarget target_;
    RunRequest base_;
    SweepOptions options_;
    PointDispatch dispatch_;
    SweepCache cache_;
    SweepPhase phase_ = SweepPhase::measuring;
    std::vector<PointResult> results_;
    std::map<size_t, RunRequest> requests_;  // the run of each point that ran, by its index in results_
    std::vector<uint64_t> order_;  // point indices still to take up
    size_t next_ = 0;
    uint64_t runs_started_measuring_ = 0;
    std::vector<size_t> retry_;            // points whose worker dropped out, to run on another
    std::map<size_t, size_t> ran_on_;      // result index -> the worker that ran it
    std::optional<size_t> confirm_worker_; // the one worker of the confirm round
    std::string confirm_label_;            // " (confirm round 2/3)" while one is in flight
    std::vector<std::string> notes_;
    std::vector<size_t> confirm_set_;
    std::vector<std::pair<size_t, int>> confirm_queue_;  // (result index, round)
    size_t confirm_next_ = 0;
    int runs_done_ = 0;
    double run_seconds_ = 0;  // spent in finished runs (cached points excluded)
    int timed_runs_ = 0;
    Clock::time_point started_;
    std::string running_label_;
    std::string problem_;
};

}  // namespace kplay
