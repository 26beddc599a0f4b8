// `kplay-cli bench FILE...`: the kernels side by side with the device's ceilings, measured in one run:
// the copy ceiling (memory-bound tasks) and cuBLAS fp32 and TF32 (matmul). With --pool or --devices all,
// the same on each device group, a column per group (bench_groups.hpp).
#include <cstdio>
#include <iostream>

#include "bench_groups.hpp"
#include "bench/bench_runner.hpp"
#include "client/worker_client.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "option_parsing.hpp"
#include "option_values.hpp"
#include "remote_options.hpp"
#include "values/bench_report.hpp"
#include "values/report_json.hpp"

namespace kplay::cli {

namespace {

struct BenchOptionsCli {
    BenchSettings settings;
    std::vector<std::string> inits;  // --init NAME=INIT, parsed into settings.init_overrides
    bool json = false;
    double timeout = 30;
    std::string device;
    std::string devices;  // --devices all
    int group = 0;
    RemoteOptions remote;
    PoolCliOptions pool;
};

int bench_on_groups(const BenchOptionsCli& o, WorkerOptions base) {
    BenchGroupsRequest request;
    request.pool = o.pool;
    request.group = o.group;
    request.every_local = o.devices == "all" && o.pool.specs.empty();
    request.base = std::move(base);
    const BenchGroups groups = bench_groups(request, o.settings);
    if (!groups.usage_error.empty()) {
        std::cerr << "kplay-cli: " << groups.usage_error << "\n";
        return groups.exit_code;
    }
    if (o.json)
        std::cout << bench_columns_json(groups.columns, groups.absent).dump(2) << "\n";
    else
        std::cout << format_bench_columns(groups.columns, groups.absent);
    return groups.exit_code;
}

}  // namespace

std::function<int()> add_bench_command(CLI::App& app) {
    auto o = std::make_shared<BenchOptionsCli>();
    BenchSettings& s = o->settings;
    auto* command = app.add_subcommand("bench", "Time kernels side by side against the copy ceiling and cuBLAS");
    command->add_option("FILE", s.files, "Kernel files (.cu)")->required();
    command->add_option("--image", s.image,
                        "Input image for tasks that take one; default: the built-in image at the bench size");
    command->add_option(
        "--size", s.size,
        "The sizes for every file (default: each task's bench size, e.g. grayscale 7680x4320 and matmul 4096x4096x4096 "
        "on a GPU, 1920x1080 and 512x512x512 emulated)");
    command->add_option("--init", o->inits, "Fill an input another way, e.g. pixels=randint(0,255) (repeatable)");
    command->add_option("--warmup", s.warmup, "Untimed launches before timing")->check(CLI::Range(0, 1000));
    command->add_option("--repeat", s.repeat, "Timed launches (median reported)")->check(CLI::Range(1, 100000));
    command->add_option("--timeout", o->timeout, "Stop a kernel after this many seconds")->check(CLI::PositiveNumber);
    command->add_flag("--no-l2-flush", s.no_flush, "Do not flush L2 between timed launches");
    command->add_flag("--no-cublas", s.no_cublas, "Leave out the cuBLAS rows");
    command->add_flag("--json", o->json, "Print JSON (schema in docs/CLI.md)");
    auto* device = add_device_option(command, o->device);
    add_remote_options(command, o->remote);
    add_pool_options(command, o->pool);
    auto* devices = one_of(
        command->add_option("--devices", o->devices,
                            "all: every device group, a column each (with --pool, the pool's groups; without, each "
                            "local GPU and the emulated CPU device)"),
        {"all"});
    auto* group =
        command
            ->add_option("--group", o->group, "With --pool: only this device group, numbered as devices --pool shows")
            ->check(CLI::PositiveNumber);
    devices->excludes(group);
    device->excludes(command->get_option("--pool"));  // a pool's workers each run on their own device
    for (CLI::Option* each : {devices, group}) {
        device->excludes(each);
        for (const char* name : {"--remote", "--remote-command"}) each->excludes(command->get_option(name));
    }
    return [o]() -> int {
        for (const auto& init : o->inits) o->settings.init_overrides.insert(parse_assignment(init, "--init"));
        WorkerOptions options = worker_options(o->remote);
        options.run_timeout_s = o->timeout;
        if (o->group > 0 && o->pool.specs.empty()) {
            std::cerr
                << "kplay-cli: --group needs --pool (its groups are numbered as kplay-cli devices --pool shows them)\n";
            return kUsageError;
        }
        if (!o->pool.specs.empty() || o->devices == "all") return bench_on_groups(*o, std::move(options));
        WorkerClient client(options);
        // Without a GPU (and no ordinal asked for) the kernels run on the emulated CPU device, at sizes a
        // CPU finishes in seconds; cuBLAS rows need a GPU and are left out.
        bool emulated = o->device == "cpu";
        if (o->device.empty()) {
            const WorkerResult devices = client.wait(client.submit_devices());
            emulated = devices.ok() && !devices.devices.problem().empty();
        }
        BenchSettings settings = o->settings;
        if (!emulated && !o->device.empty()) settings.ordinal = parse_device_ordinal(o->device);
        const BenchOutcome outcome = run_bench({{"local", &client}}, settings, emulated);
        if (!outcome.device_problem.empty()) {
            std::cerr << "kplay-cli: cannot benchmark: " << outcome.device_problem << "\n";
            return kNoDevice;
        }
        if (o->json)
            std::cout << bench_json(outcome.summary).dump(2) << "\n";
        else
            std::cout << format_bench_table(outcome.summary);
        return bench_exit_code(outcome.failure, outcome.summary.rows);
    };
}

}  // namespace kplay::cli
