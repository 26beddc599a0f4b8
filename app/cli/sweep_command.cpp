// `kplay-cli sweep FILE --param NAME=VALUES ...`: tune a kernel over block sizes, literal arguments,
// -D defines and sizes; every point checked before it is timed, a confirm round for the winner, and
// with --apply the winner written into the file's annotation (keeping FILE.orig once). With --pool, the
// points are spread over the workers of one device group of the pool (pool_sweep.hpp).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <thread>

#include "base/error.hpp"
#include "client/worker_client.hpp"
#include "client/worker_pool.hpp"
#include "kernel_file/source_scan.hpp"
#include "sweep/annotation_edit.hpp"
#include "sweep/sweep.hpp"
#include "sweep/sweep_table.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "option_values.hpp"
#include "remote_options.hpp"
#include "option_parsing.hpp"
#include "pool_sweep.hpp"

namespace kplay::cli {

namespace {

struct SweepOptionsCli {
    std::string file;
    std::vector<std::string> params, restrictions;
    std::string strategy = "exhaustive", budget, size, device;
    uint64_t seed = 1;
    int warmup = 3, repeat = 20, confirm_top = 3, confirm_rounds = 3;
    double timeout = 10;
    bool json = false, apply = false, no_cache = false, no_flush = false;
    RemoteOptions remote;
    PoolCliOptions pool;
    int group = 0;  // --group: the pool's device group to sweep on (1-based), 0 to choose
    int in_flight = 1;  // --in-flight: runs each worker holds at once
};

std::atomic<bool> interrupted{false};
extern "C" void on_interrupt(int) { interrupted = true; }

// The space: the command line's parameters when given (the file's kplay-sweep lines otherwise).
SweepSpace space_from(const SweepOptionsCli& o, const std::string& source) {
    SweepSpace space;
    if (o.params.empty()) {
        if (auto lines = find_sweep_lines(source, o.file)) space = std::move(*lines);
        for (const auto& restriction : o.restrictions) space.restrictions.push_back(restriction);
        return space;
    }
    // `--param block_x=32..1024 step *2` unquoted reaches us as three values: put the step back.
    std::vector<std::string> params;
    for (size_t i = 0; i < o.params.size(); ++i) {
        if (o.params[i] == "step" && i + 1 < o.params.size() && !params.empty()) params.back() += " step " + o.params[++i];
        else params.push_back(o.params[i]);
    }
    for (const auto& param : params) space.params.push_back(parse_sweep_param(param));
    space.restrictions = o.restrictions;
    return space;
}

class Progress {
public:
    explicit Progress(bool quiet) : tty_(!quiet && isatty(STDERR_FILENO)), quiet_(quiet) {}
    void show(const Sweep& sweep) {
        if (quiet_) return;
        const auto& results = sweep.results();
        if (tty_) {
            const int width = 30;
            const int filled = static_cast<int>(sweep.fraction_done() * width);
            const auto eta = sweep.eta_seconds();
            char eta_text[32] = "ETA --:--";
            show_notes(sweep);
            if (eta) std::snprintf(eta_text, sizeof eta_text, "ETA %d:%02d", static_cast<int>(*eta) / 60, static_cast<int>(*eta) % 60);
            std::fprintf(stderr, "\r\033[K[%s%s] %d/%d runs  %s  %s", std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(),
                         sweep.runs_done(), sweep.runs_expected(), eta_text, sweep.running().c_str());
            std::fflush(stderr);
            return;
        }
        // Not a terminal: one plain line per point as it is decided, with its worker when there are several.
        for (; reported_ < results.size(); ++reported_) {
            const PointResult& r = results[reported_];
            if (r.state == PointState::pending) break;
            const std::optional<size_t> worker = sweep.workers().size() > 1 ? sweep.worker_of(reported_) : std::nullopt;
            const std::string on = worker ? " (worker " + std::to_string(*worker + 1) + ")" : "";
            if (r.state == PointState::passed || r.state == PointState::wrong)
                std::fprintf(stderr, "point %zu: %s: %s %.4f ms%s%s\n", reported_ + 1, r.label.c_str(), point_state_name(r.state), r.median_ms,
                             r.from_cache ? " (cached)" : "", on.c_str());
            else
                std::fprintf(stderr, "point %zu: %s: %s: %s%s\n", reported_ + 1, r.label.c_str(), point_state_name(r.state), r.reason.c_str(),
                             on.c_str());
        }
        show_notes(sweep);
    }
    // A worker that dropped out is news as it happens, on a terminal too.
    void show_notes(const Sweep& sweep) {
        for (; notes_ < sweep.notes().size(); ++notes_) std::fprintf(stderr, "%skplay-cli: %s\n", tty_ ? "\r\033[K" : "", sweep.notes()[notes_].c_str());
    }
    void done() {
        if (tty_) std::fprintf(stderr, "\r\033[K");
    }

private:
    bool tty_, quiet_;
    size_t reported_ = 0, notes_ = 0;
};

// The sweep's workers: those of one device group of a pool, or the one worker that answered the device
// query (one start, not two). A failure is printed and its exit status returned.
struct SweepWorkers {
    WorkerPool pool;  // holds the Slurm jobs of the pool's workers until the sweep is over
    std::vector<SweepWorker> workers;
    DeviceQuery devices;
    bool emulated_group = false;
    int exit_code = 0;
};

SweepWorkers start_workers(const SweepOptionsCli& o, WorkerOptions worker) {
    SweepWorkers started;
    if (o.pool.specs.empty()) {
        auto client = std::make_unique<WorkerClient>(worker);
        const WorkerResult answer = client->wait(client->submit_devices());
        if (!answer.ok()) {
            std::cerr << "kplay-cli: " << answer.failure_message << "\n";
            started.exit_code = kCudaError;
            return started;
        }
        started.devices = answer.devices;
        started.workers.push_back(SweepWorker{"local", std::move(client)});
        return started;
    }
    started.pool = WorkerPool::start(parse_pool(o.pool.specs), pool_options(o.pool, worker));
    for (const PoolFailure& failure : started.pool.failures())
        std::cerr << "kplay-cli: pool member " << failure.member << " failed: " << failure.message << "\n";
    SweepGroup group = take_sweep_group(started.pool, o.group, o.device == "cpu");
    if (!group.failure.empty()) {
        std::cerr << "kplay-cli: " << group.failure << "\n";
        started.exit_code = group.exit_code;
        return started;
    }
    if (!group.notice.empty()) std::cerr << "kplay-cli: " << group.notice << "\n";
    std::cerr << "kplay-cli: " << group.workers.size() << " worker" << (group.workers.size() == 1 ? "" : "s")
              << " sweep; the confirm round runs on worker 1\n";
    started.workers = std::move(group.workers);
    started.devices = std::move(group.devices);
    started.emulated_group = group.emulated;
    return started;
}

int apply_best(const Sweep& sweep) {
    const auto best = sweep.best();
    if (!best) {
        std::cerr << "kplay-cli: --apply: nothing written: no point passed its check.\n";
        return kCheckFailed;
    }
    const SweepTarget& target = sweep.target();
    std::string bytes;
    std::vector<std::string> skipped;
    AnnotationEdit edit;
    try {
        edit = point_edit(target, sweep.results()[*best].point, bytes, &skipped);
    } catch (const InputError& error) {
        throw InputError(std::string("--apply: nothing written: ") + error.what());
    }
    for (const auto& size : skipped)
        std::cerr << "kplay-cli: --apply: " << size << " is a size, which the annotation does not hold; run with --size for it.\n";
    if (!edit.changed()) {
        std::cerr << "kplay-cli: --apply: the annotation already has the best point; nothing written.\n";
        return kSuccess;
    }
    const auto orig = write_annotation_edit(target.file, bytes, edit);
    std::cerr << "kplay-cli: wrote the best point into " << target.file.string() << " (the original is kept as " << orig.string() << "):\n"
              << edit.preview();
    return kSuccess;
}

}  // namespace

std::function<int()> add_sweep_command(CLI::App& app) {
    auto o = std::make_shared<SweepOptionsCli>();
    auto* command = app.add_subcommand("sweep", "Tune a kernel: every point checked, then timed, then the fastest confirmed");
    command->add_option("FILE", o->file, "Kernel file (.cu)")->required();
    command->add_option("--param", o->params,
                        "NAME=VALUES: a block axis (block_x), a literal argument (tw), a define (-DTILE) or a size (n); VALUES a list "
                        "(8,16,32) or a range (64..1024 step *2). Repeatable; default: the file's kplay-sweep lines");
    command->add_option("--restrict", o->restrictions,
                        "Keep only points where EXPR holds, e.g. \"block_x*block_y <= threads_max\" (names: the parameters, the sizes, "
                        "threads_max, smem_max, smem_default, regs_max, sms, warp_size). Repeatable");
    one_of(command->add_option("--strategy", o->strategy, "exhaustive (every point) or random (in random order, under --budget)"),
           {"exhaustive", "random"});
    command->add_option("--budget", o->budget, "Stop after N points (40) or seconds (90s)");
    command->add_option("--seed", o->seed, "The random strategy's seed");
    command->add_option("--size", o->size, "The size every point is timed at (default: the task's bench size)");
    add_device_option(command, o->device);
    command->add_option("--warmup", o->warmup, "Untimed launches before timing each point")->check(CLI::Range(0, 1000));
    command->add_option("--repeat", o->repeat, "Timed launches per point (median reported)")->check(CLI::Range(1, 100000));
    command->add_option("--confirm", o->confirm_top, "The fastest correct points re-timed in the confirm round (0: none)")->check(CLI::Range(0, 20));
    command->add_option("--confirm-rounds", o->confirm_rounds, "Interleaved rounds of the confirm round")->check(CLI::Range(1, 20));
    command->add_option("--timeout", o->timeout, "Stop a point's kernel after this many seconds")->check(CLI::PositiveNumber);
    command->add_flag("--no-l2-flush", o->no_flush, "Do not flush L2 between timed launches");
    command->add_flag("--no-cache", o->no_cache, "Measure every point again instead of taking earlier sweeps' results");
    command->add_flag("--apply", o->apply, "Write the best point into the file's kplay annotation (keeps FILE.orig once)");
    command->add_flag("--json", o->json, "Print JSON (schema in docs/CLI.md)");
    add_remote_options(command, o->remote);
    add_pool_options(command, o->pool);
    command->add_option("--group", o->group, "With --pool: the device group to sweep on, numbered as devices --pool shows (default: the first GPU group)")
        ->check(CLI::Range(1, 1000));
    command->add_option("--in-flight", o->in_flight, "Runs each worker holds at once: 1, or 2 to queue the next on the worker (docs/BENCHMARKS.md)")
        ->check(CLI::Range(1, 2));
    return [o]() -> int {
        const std::string source = read_source_file(o->file);
        SweepOptions options;
        options.strategy = *parse_sweep_strategy(o->strategy);
        parse_sweep_budget(o->budget, options);
        options.seed = o->seed;
        options.confirm_top = o->confirm_top;
        options.confirm_rounds = o->confirm_rounds;
        options.use_cache = !o->no_cache;
        options.runs_per_worker = o->in_flight;
        WorkerOptions worker = worker_options(o->remote);
        worker.run_timeout_s = o->timeout;
        SweepWorkers started = start_workers(*o, worker);
        if (started.exit_code != 0) return started.exit_code;
        const DeviceQuery& devices = started.devices;
        // A pool's emulated group runs on the emulated device whatever --device says: it has no GPU.
        const bool emulate = o->device == "cpu" || started.emulated_group;
        const int ordinal = emulate || o->device.empty() || !o->pool.specs.empty() ? 0 : parse_device_ordinal(o->device);
        if (!emulate && !o->device.empty() && (ordinal >= static_cast<int>(devices.devices.size()))) {
            std::cerr << "kplay-cli: no CUDA device " << ordinal << ": " << (devices.problem().empty() ? "the driver reports " + std::to_string(devices.devices.size()) : devices.problem()) << "\n";
            return kNoDevice;
        }
        SweepTarget target = make_sweep_target(o->file, source, space_from(*o, source), devices, emulate, ordinal, o->size);
        RunRequest base;
        base.warmup = o->warmup;
        base.repeat = o->repeat;
        base.flush_l2 = !o->no_flush;
        base.rotate_inputs = true;
        Sweep sweep(std::move(target), base, options, std::move(started.workers));
        std::signal(SIGINT, on_interrupt);
        Progress progress(false);
        while (!sweep.finished()) {
            if (interrupted) {  // Ctrl+C: stop the point in flight now, and print what finished
                sweep.cancel();
                break;
            }
            // Not update(true): a blocking wait would keep Ctrl+C waiting for the point in flight.
            if (sweep.update()) progress.show(sweep);
            else std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        progress.done();
        std::signal(SIGINT, SIG_DFL);
        if (o->json) std::cout << sweep_json(sweep).dump(2) << "\n";
        else std::cout << format_sweep_table(sweep);
        if (interrupted) return 130;
        if (!sweep.problem().empty()) return kCudaError;
        if (o->apply) return apply_best(sweep);
        return sweep.best() ? kSuccess : kCheckFailed;
    };
}

}  // namespace kplay::cli
