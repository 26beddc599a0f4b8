// The bench on one device: the rows in order, the cuBLAS rows after them, and the summary they make.
#include "bench/bench_runner.hpp"

#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/source_scan.hpp"
#include "kernel_file/task_sizes.hpp"

namespace kplay {

namespace {

// The task's bench sizes as size texts, read from the file here; empty when the file cannot be read
// or its spec resolved (the worker's run then reports why).
std::vector<std::string> bench_sizes_of(const std::string& file, bool emulated) {
    std::vector<std::string> texts;
    try {
        const KernelSpec spec = resolve_kernel_spec(read_source_file(file), file);
        const auto& sizes =
            emulated && !spec.task.sizes.cpu_bench.empty() ? spec.task.sizes.cpu_bench : spec.task.sizes.gpu_bench;
        for (const auto& size : sizes) texts.push_back(size_values_text(size));
    } catch (const std::exception&) {
        texts.clear();
    }
    return texts;
}

// The rows' runs, on the first worker still up: a worker whose client gave up (or could not start it)
// hands the run to the next, and the notes say so.
class WorkerChain {
public:
    WorkerChain(const std::vector<BenchWorker>& workers, BenchOutcome& outcome,
                std::shared_ptr<const std::atomic<bool>> cancel)
        : workers_(workers), outcome_(outcome), cancel_(std::move(cancel)) {}

    // `ran`: false when no worker was left to run it, or the bench was cancelled.
    RunReport run(const RunRequest& request, bool& ran) {
        ran = false;
        if (cancel_ && cancel_->load()) {
            if (outcome_.failure.empty()) outcome_.failure = "cancelled";
            return not_run(request);
        }
        if (workers_.empty() && outcome_.failure.empty()) outcome_.failure = "no worker of this group is free";
        for (;;) {
            if (current_ >= workers_.size()) return not_run(request);
            WorkerClient& client = *workers_[current_].client;
            WorkerResult result = client.wait(client.submit_run(request));
            if (result.failure != WorkerFailure::gave_up && result.failure != WorkerFailure::start_failed) {
                ++rows_;
                ran = true;
                return std::move(result.run);
            }
            const std::string what = "worker " + std::to_string(current_ + 1) + " (" + workers_[current_].name +
                                     ") dropped out after " + std::to_string(rows_) + " row" + (rows_ == 1 ? "" : "s");
            ++current_;
            rows_ = 0;
            if (current_ < workers_.size())
                outcome_.notes.push_back(what + ", so the rest run on worker " + std::to_string(current_ + 1) + " (" +
                                         workers_[current_].name + "): " + result.failure_message);
            else
                outcome_.failure = what + ": " + result.failure_message;
        }
    }

private:
    RunReport not_run(const RunRequest& request) const {
        RunReport report;
        report.file = request.kernel_path.string();
        report.stage = Stage::worker;
        report.error_code = ErrorCode::worker_failed;
        report.error = "not run: " + outcome_.failure;
        return report;
    }

    const std::vector<BenchWorker>& workers_;
    BenchOutcome& outcome_;
    std::shared_ptr<const std::atomic<bool>> cancel_;
    size_t current_ = 0;
    int rows_ = 0;
};

}  // namespace

BenchOutcome run_bench(const std::vector<BenchWorker>& workers, const BenchSettings& o, bool emulated) {
    BenchOutcome outcome;
    WorkerChain chain(workers, outcome, o.cancel);
    std::string gemm_file;  // the first GEMM-like file, whose sizes the cuBLAS rows take
    auto request_for = [&](const std::string& file) {
        RunRequest request;
        request.kernel_path = file;
        request.warmup = o.warmup;
        request.repeat = o.repeat;
        request.flush_l2 = !o.no_flush;
        request.rotate_inputs = true;
        request.inputs.image_path = o.image;
        request.inputs.size = o.size;
        request.init_overrides = o.init_overrides;
        request.bench_sizes = true;        // each task's own bench size unless --size says otherwise
        request.check_test_sizes = false;  // bench measures; `kplay-cli run` checks the edge cases
        // The cuBLAS rows below, at the first GEMM-like file's sizes, are its ceiling; a later GEMM-like file
        // may have other sizes, so it measures cuBLAS on its own inputs.
        request.defer_library_ceiling = gemm_file.empty() || o.no_cublas;
        request.emulate = emulated;
        request.emulation_track = false;      // a table of times: the emulated device's untracked build, on every core
        request.emulate_without_gpu = false;  // decided by the caller, once for the whole table
        if (!emulated && o.ordinal >= 0) request.device = o.ordinal;
        return request;
    };
    std::vector<BenchRow> rows;
    bool first = true;
    for (const auto& file : o.files) {
        // A task with several bench sizes (softmax: short and long rows) gets a row for each.
        const std::vector<std::string> sizes =
            o.size.empty() && o.image.empty() ? bench_sizes_of(file, emulated) : std::vector<std::string>{};
        for (size_t s = 0; s < std::max<size_t>(1, sizes.size()); ++s) {
            RunRequest request = request_for(file);
            if (sizes.size() > 1) request.inputs.size = sizes[s];
            request.remeasure_ceiling = first;  // the bandwidth ceilings are measured in this run, once
            first = false;
            bool ran = true;
            BenchRow row{sizes.size() > 1 ? file + " @ " + sizes[s] : file, false, chain.run(request, ran)};
            row.not_run = !ran;
            row.key = file + " #" + std::to_string(s + 1);  // a GPU's first bench size beside the emulated device's
            if (row.report.stage == Stage::device) outcome.device_problem = row.report.error;
            if (gemm_file.empty() && row.report.spec && row.report.spec->task.cost.ceiling == CeilingKind::cublas)
                gemm_file = file;
            rows.push_back(std::move(row));
        }
    }
    BenchSummary& summary = outcome.summary;
    std::vector<BenchRow> baselines;
    if (!gemm_file.empty() && !o.no_cublas && emulated)
        summary.cublas_note = "cuBLAS rows need a GPU; this table ran on the emulated CPU device.";
    if (!gemm_file.empty() && !o.no_cublas && !emulated && outcome.failure.empty()) {
        // cuBLAS at the first GEMM-like file's sizes, on that task's inputs.
        for (const Baseline baseline : {Baseline::cublas_fp32, Baseline::cublas_tf32}) {
            RunRequest request = request_for(gemm_file);
            request.baseline = baseline;
            bool ran = true;
            BenchRow row{baseline_name(baseline), true, chain.run(request, ran)};
            row.not_run = !ran;
            if (!row.report.ok()) summary.cublas_note = row.report.error;
            baselines.push_back(std::move(row));
        }
    }
    summary.warmup = o.warmup;
    summary.repeat = o.repeat;
    summary.l2_flush = !o.no_flush;
    summary.emulated = emulated;
    if (!baselines.empty() && baselines[0].report.ok()) summary.cublas_fp32_gflops = baselines[0].report.gflops;
    for (auto& row : baselines) summary.rows.push_back(std::move(row));
    for (auto& row : rows) summary.rows.push_back(std::move(row));
    for (const BenchRow& row : summary.rows) {
        if (row.report.ceiling.gbps > 0 && row.report.ceiling.kind == CeilingKind::copy)
            summary.copy_ceiling_gbps = row.report.ceiling.gbps;
        if (row.report.ceiling.gbps > 0 && row.report.ceiling.kind == CeilingKind::read_only)
            summary.read_only_ceiling_gbps = row.report.ceiling.gbps;
        if (row.report.device) summary.device = row.report.device->name;
    }
    if (!emulated) summary.datasheet = datasheet_peaks(summary.device);
    return outcome;
}

BenchColumn bench_group(const BenchGroup& group, const std::vector<BenchWorker>& workers, const BenchSettings& settings) {
    BenchOutcome outcome = run_bench(workers, settings, group.emulated);
    BenchColumn column;
    if (outcome.summary.device.empty()) outcome.summary.device = group.device;  // no row reached the device
    column.group = group.number;
    column.title = group.title;
    column.arch = group.arch;
    column.where = workers.empty() ? "" : workers.front().name;
    column.summary = std::move(outcome.summary);
    column.notes = std::move(outcome.notes);
    column.failure =
        !outcome.device_problem.empty() ? "cannot benchmark: " + outcome.device_problem : std::move(outcome.failure);
    return column;
}

std::string group_arch(const DeviceGroup& group) {
    return group.emulated ? "" : "sm_" + std::to_string(group.cc_major * 10 + group.cc_minor);
}

}  // namespace kplay
