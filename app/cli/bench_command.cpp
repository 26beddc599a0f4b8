// `kplay-cli bench FILE...`: the kernels side by side with the device's ceilings, measured in one run:
// the copy ceiling (memory-bound tasks) and cuBLAS fp32 and TF32 (matmul).
#include <cstdio>
#include <iostream>

#include "values/bench_report.hpp"
#include "values/report_json.hpp"
#include "client/worker_client.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/task_sizes.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "option_values.hpp"
#include "remote_options.hpp"
#include "option_parsing.hpp"

namespace kplay::cli {

namespace {

struct BenchOptionsCli {
    std::vector<std::string> files;
    std::string image, size;
    std::vector<std::string> inits;
    int warmup = 5, repeat = 50;
    bool json = false, no_flush = false, no_cublas = false;
    double timeout = 30;
    std::string device;
    RemoteOptions remote;
};

struct Row {
    std::string name;
    RunReport report;
};

// The task's bench sizes as size texts, read from the file here; empty when the file cannot be read
// or its spec resolved (the worker's run then reports why).
std::vector<std::string> bench_sizes_of(const std::string& file, bool emulated) {
    std::vector<std::string> texts;
    try {
        const KernelSpec spec = resolve_kernel_spec(read_source_file(file), file);
        const auto& sizes = emulated && !spec.task.sizes.cpu_bench.empty() ? spec.task.sizes.cpu_bench : spec.task.sizes.gpu_bench;
        for (const auto& size : sizes) texts.push_back(size_values_text(size));
    } catch (const std::exception&) {
        texts.clear();
    }
    return texts;
}

}  // namespace

std::function<int()> add_bench_command(CLI::App& app) {
    auto o = std::make_shared<BenchOptionsCli>();
    auto* command = app.add_subcommand("bench", "Time kernels side by side against the copy ceiling and cuBLAS");
    command->add_option("FILE", o->files, "Kernel files (.cu)")->required();
    command->add_option("--image", o->image, "Input image for tasks that take one; default: the built-in image at the bench size");
    command->add_option("--size", o->size,
                        "The sizes for every file (default: each task's bench size, e.g. grayscale 7680x4320 and matmul 4096x4096x4096 "
                        "on a GPU, 1920x1080 and 512x512x512 emulated)");
    command->add_option("--init", o->inits, "Fill an input another way, e.g. pixels=randint(0,255) (repeatable)");
    command->add_option("--warmup", o->warmup, "Untimed launches before timing")->check(CLI::Range(0, 1000));
    command->add_option("--repeat", o->repeat, "Timed launches (median reported)")->check(CLI::Range(1, 100000));
    command->add_option("--timeout", o->timeout, "Stop a kernel after this many seconds")->check(CLI::PositiveNumber);
    command->add_flag("--no-l2-flush", o->no_flush, "Do not flush L2 between timed launches");
    command->add_flag("--no-cublas", o->no_cublas, "Leave out the cuBLAS rows");
    command->add_flag("--json", o->json, "Print JSON (schema in docs/CLI.md)");
    add_device_option(command, o->device);
    add_remote_options(command, o->remote);
    return [o]() -> int {
        WorkerOptions options = worker_options(o->remote);
        options.run_timeout_s = o->timeout;
        WorkerClient client(options);
        // Without a GPU (and no ordinal asked for) the kernels run on the emulated CPU device, at sizes a
        // CPU finishes in seconds; cuBLAS rows need a GPU and are left out.
        bool emulated = o->device == "cpu";
        if (o->device.empty()) {
            const WorkerResult devices = client.wait(client.submit_devices());
            emulated = devices.ok() && !devices.devices.problem().empty();
        }
        std::string gemm_file;  // the first GEMM-like file, whose sizes the cuBLAS rows take
        auto request_for = [&](const std::string& file) {
            RunRequest request;
            request.kernel_path = file;
            request.warmup = o->warmup;
            request.repeat = o->repeat;
            request.flush_l2 = !o->no_flush;
            request.rotate_inputs = true;
            request.inputs.image_path = o->image;
            request.inputs.size = o->size;
            for (const auto& init : o->inits) request.init_overrides.insert(parse_assignment(init, "--init"));
            request.bench_sizes = true;        // each task's own bench size unless --size says otherwise
            request.check_test_sizes = false;  // bench measures; `kplay-cli run` checks the edge cases
            // The cuBLAS rows below, at the first GEMM-like file's sizes, are its ceiling; a later GEMM-like file
            // may have other sizes, so it measures cuBLAS on its own inputs.
            request.defer_library_ceiling = gemm_file.empty() || o->no_cublas;
            request.emulate = emulated;
            request.emulation_track = false;  // a table of times: the emulated device's untracked build, on every core
            request.emulate_without_gpu = false;  // decided above, once for the whole table
            if (!emulated && !o->device.empty()) request.device = parse_device_ordinal(o->device);
            return request;
        };
        std::vector<Row> rows;
        std::string device_problem;
        bool first = true;
        for (const auto& file : o->files) {
            // A task with several bench sizes (softmax: short and long rows) gets a row for each.
            const std::vector<std::string> sizes = o->size.empty() && o->image.empty() ? bench_sizes_of(file, emulated) : std::vector<std::string>{};
            for (size_t s = 0; s < std::max<size_t>(1, sizes.size()); ++s) {
                RunRequest request = request_for(file);
                if (sizes.size() > 1) request.inputs.size = sizes[s];
                request.remeasure_ceiling = first;  // the bandwidth ceilings are measured in this run, once
                first = false;
                Row row{sizes.size() > 1 ? file + " @ " + sizes[s] : file, client.wait(client.submit_run(request)).run};
                if (row.report.stage == Stage::device) device_problem = row.report.error;
                if (gemm_file.empty() && row.report.spec && row.report.spec->task.cost.ceiling == CeilingKind::cublas) gemm_file = file;
                rows.push_back(std::move(row));
            }
        }
        if (!device_problem.empty()) {
            std::cerr << "kplay-cli: cannot benchmark: " << device_problem << "\n";
            return kNoDevice;
        }
        std::vector<Row> baselines;
        std::string cublas_note;
        if (!gemm_file.empty() && !o->no_cublas && emulated) cublas_note = "cuBLAS rows need a GPU; this table ran on the emulated CPU device.";
        if (!gemm_file.empty() && !o->no_cublas && !emulated) {
            // cuBLAS at the first GEMM-like file's sizes, on that task's inputs.
            for (const Baseline baseline : {Baseline::cublas_fp32, Baseline::cublas_tf32}) {
                RunRequest request = request_for(gemm_file);
                request.baseline = baseline;
                Row row{baseline_name(baseline), client.wait(client.submit_run(request)).run};
                if (!row.report.ok()) cublas_note = row.report.error;
                baselines.push_back(std::move(row));
            }
        }
        BenchSummary summary;
        summary.cublas_note = cublas_note;
        summary.warmup = o->warmup;
        summary.repeat = o->repeat;
        summary.l2_flush = !o->no_flush;
        summary.emulated = emulated;
        if (!baselines.empty() && baselines[0].report.ok()) summary.cublas_fp32_gflops = baselines[0].report.gflops;
        for (auto& row : baselines) summary.rows.push_back({row.name, true, std::move(row.report)});
        for (auto& row : rows) summary.rows.push_back({row.name, false, std::move(row.report)});
        int exit_code = kSuccess;
        for (const BenchRow& row : summary.rows) {
            if (row.report.ceiling.gbps > 0 && row.report.ceiling.kind == CeilingKind::copy) summary.copy_ceiling_gbps = row.report.ceiling.gbps;
            if (row.report.ceiling.gbps > 0 && row.report.ceiling.kind == CeilingKind::read_only)
                summary.read_only_ceiling_gbps = row.report.ceiling.gbps;
            if (row.report.device) summary.device = row.report.device->name;
            if (!row.report.ok()) exit_code = kCudaError;
            else if (!row.report.check.passed && exit_code == kSuccess) exit_code = kCheckFailed;
        }
        if (!emulated) summary.datasheet = datasheet_peaks(summary.device);
        if (o->json) std::cout << bench_json(summary).dump(2) << "\n";
        else std::cout << format_bench_table(summary);
        return exit_code;
    };
}

}  // namespace kplay::cli
