// Live reload, request assembly and result handling for the window.
#include "kernel_session.hpp"

#include <ctime>

#include "base/content_hash.hpp"
#include "emu/emulated_device.hpp"
#include "emu/sanitizer_runtime.hpp"
#include "client/codec.hpp"
#include "base/error.hpp"
#include "client/launch_config.hpp"
#include "spec/source_scan.hpp"

namespace kplay::window {

namespace {

constexpr int kMaxReadRetries = 50;  // an empty or missing file is retried for about a second
constexpr auto kRetryDelay = std::chrono::milliseconds(20);

std::string time_of_day() {
    const std::time_t now = std::time(nullptr);
    char text[16];
    std::strftime(text, sizeof text, "%H:%M:%S", std::localtime(&now));
    return text;
}

std::vector<int64_t> to_vector(const std::array<int64_t, 3>& values) { return {values[0], values[1], values[2]}; }

}  // namespace

KernelSession::KernelSession(WorkerOptions options) : client_(options), options_(std::move(options)) {
    devices_request_ = client_.submit_devices();
}

std::string KernelSession::device_banner() const {
    if (!devices_known_) return "";
    const std::string problem = devices_.problem();
    if (problem.empty()) return "";
    // The reason's headline ("No CUDA driver"); the whole text is in the Device menu.
    const std::string reason = problem.substr(0, problem.find(':'));
    return "No CUDA device (" + reason + "): kernels run on the emulated CPU device; its times say nothing about GPU speed.";
}

double KernelSession::busy_seconds() const {
    return in_flight_ ? std::chrono::duration<double>(Clock::now() - in_flight_since_).count() : 0;
}

void KernelSession::open(const std::filesystem::path& file, bool keep_overrides) {
    watcher_.unwatch_all();
    file_ = file;
    source_.clear();
    source_hash_.clear();
    spec_.reset();
    spec_error_.clear();
    file_error_.clear();
    if (!keep_overrides) overrides = {};
    hung_key_.clear();
    if (!watcher_.watch(file)) file_error_ = "Cannot watch " + file.string() + ": its folder does not exist.";
    load_source(Clock::now(), true);
}

void KernelSession::set_image(const std::string& path) {
    inputs.image_path = path;
    apply_settings();
}

void KernelSession::load_source(Clock::time_point changed_at, bool force) {
    std::string text;
    try {
        text = read_source_file(file_);
        file_error_.clear();
    } catch (const InputError& error) {
        text.clear();
        file_error_ = error.what();
    }
    // An editor may leave the file briefly missing or empty mid-save: retry, never compile emptiness.
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        if (retries_ < kMaxReadRetries) {
            ++retries_;
            retry_at_ = Clock::now() + kRetryDelay;
            retry_change_ = changed_at;
        } else {
            retry_at_.reset();
            if (file_error_.empty()) file_error_ = file_.string() + " is empty.";
        }
        return;
    }
    retries_ = 0;
    retry_at_.reset();
    const std::string hash = hash_hex(text);
    if (!force && hash == source_hash_) return;  // touched but unchanged (or a save we already have)
    ++reloads_;
    source_ = std::move(text);
    source_hash_ = hash;
    try {
        spec_ = resolve_kernel_spec(source_, file_);
        spec_error_.clear();
    } catch (const InputError& error) {
        spec_.reset();
        spec_error_ = error.what();
    }
    latency_start_ = changed_at;
    submit(true);
}

std::vector<std::string> KernelSession::launch_problems() const {
    if (!devices_known_) return {};
    if (!overrides.block && !overrides.grid && !overrides.smem) return {};
    LaunchConfig launch;
    if (last_) launch = last_->launch;
    if (overrides.block) launch.block = {(*overrides.block)[0], (*overrides.block)[1], (*overrides.block)[2]};
    if (overrides.grid) launch.grid = {(*overrides.grid)[0], (*overrides.grid)[1], (*overrides.grid)[2]};
    if (!overrides.grid) launch.grid = {1, 1, 1};  // auto: always in range
    if (overrides.smem) launch.dynamic_smem = *overrides.smem;
    const FunctionAttributes* function = last_ && last_->stage != "compile" && last_->stage != "spec" ? &last_->function : nullptr;
    const DeviceLimits limits = emulating() ? emulated_device_info(1).limits : devices_.devices.front().limits;
    return validate_launch(launch, limits, function && function->max_threads_per_block ? function : nullptr);
}

void KernelSession::submit(bool automatic) {
    if (source_.empty()) return;
    if (!launch_problems().empty()) {
        notice_ = "Not launched: the launch settings break a device limit (see Launch).";
        return;
    }
    // The first run waits for the device list, without blocking the window: without a GPU the run goes
    // to the emulated device, at sizes made for a CPU. The device list's answer submits it.
    if (!devices_known_) {
        deferred_submit_ = automatic;
        return;
    }
    RunRequest request;
    request.kernel_path = file_;
    request.source = source_;
    request.keep_outputs = true;
    if (shown_ && !shown_->input.empty()) request.known_input = shown_->input_identity;  // don't ship it again
    request.warmup = inputs.warmup;
    request.device = std::max(inputs.device, 0);
    request.emulate = inputs.device == kEmulatedDevice;
    request.thread_order = inputs.thread_order;
    request.order_seed = inputs.order_seed;
    if (inputs.thorough) {
        request.emulate = true;
        request.emulation_thorough = true;
    }
    request.repeat = inputs.repeat;
    const bool matmul = spec_ && spec_->task == "matmul";
    if (matmul) {
        request.inputs.size = std::to_string(inputs.m) + "x" + std::to_string(inputs.n) + "x" + std::to_string(inputs.k);
        request.inputs.seed = inputs.seed;
    } else {
        request.inputs.image_path = inputs.image_path;
    }
    if (overrides.block) request.block = to_vector(*overrides.block);
    if (overrides.grid) request.grid = to_vector(*overrides.grid);
    request.smem = overrides.smem;
    request.arg_overrides = overrides.args;
    request.defines = overrides.defines;
    const std::string key = hash_hex(nlohmann::json(request).dump());  // the source and every setting
    if (automatic && key == hung_key_) {
        notice_ = "This version hung last time, so it is not re-run automatically. Press F5 to run it anyway.";
        return;
    }
    notice_.clear();
    if (automatic) {
        for (const auto& [recent_key, report] : recent_results_) {
            if (recent_key != key) continue;
            in_flight_ = 0;  // anything still in flight is overtaken by this answer
            in_flight_change_ = latency_start_;
            ++runs_submitted_;
            ++results_received_;
            accept(report, 0, true);
            return;
        }
    }
    if (inputs.thorough && !thorough_client_) {
        try {
            WorkerOptions thorough = options_;
            thorough.extra_environment = sanitizer_worker_environment();
            thorough_client_ = std::make_unique<WorkerClient>(thorough);
        } catch (const InputError& error) {
            notice_ = error.what();
            inputs.thorough = false;
            return;
        }
    }
    in_flight_thorough_ = inputs.thorough;
    in_flight_ = (inputs.thorough ? *thorough_client_ : client_).submit_run(request);  // an older one is now overtaken
    in_flight_since_ = Clock::now();
    in_flight_key_ = key;
    in_flight_change_ = automatic ? latency_start_ : std::nullopt;
    ++runs_submitted_;
}

void KernelSession::recompile() {
    if (file_.empty()) return;
    load_source(Clock::now(), true);
}

void KernelSession::rerun() {
    latency_start_.reset();
    submit(false);
}

void KernelSession::apply_settings() {
    latency_start_.reset();
    submit(true);
}

double KernelSession::cublas_gflops() const {
    if (!shown_ || shown_->task != "matmul") return 0;
    const std::string size = std::to_string(inputs.m) + "x" + std::to_string(inputs.n) + "x" + std::to_string(inputs.k);
    const auto found = cublas_gflops_.find(size);
    return found == cublas_gflops_.end() ? 0 : found->second;
}

void KernelSession::handle(WorkerResult result, bool from_thorough_worker) {
    // Device lists and cuBLAS baselines are asked of the main worker only.
    if (!from_thorough_worker && result.id == baseline_request_) {
        baseline_request_ = 0;
        const RunReport& baseline = result.run;
        cublas_gflops_[baseline_size_] = baseline.ok() ? baseline.gflops : -1;
        if (!baseline.ok()) baseline_note_ = baseline.error;
        return;
    }
    if (!from_thorough_worker && result.id == devices_request_) {
        devices_ = result.devices;
        devices_known_ = result.ok();
        if (!result.ok()) {
            devices_.driver.message = result.failure_message;
            devices_known_ = true;
        }
        // Without a GPU the matrices shrink from the GPU default to what a CPU runs in about a second.
        if (devices_.devices.empty() && inputs.m == 1024 && inputs.n == 1024 && inputs.k == 1024)
            inputs.m = inputs.n = inputs.k = kEmulatedMatmulSize;
        if (deferred_submit_) {
            const bool automatic = *deferred_submit_;
            deferred_submit_.reset();
            submit(automatic);
        }
        return;
    }
    // The two workers number their requests independently: a run's answer counts only from the worker asked.
    if (from_thorough_worker != in_flight_thorough_) return;
    // The worker leaves out an input we already have: take it from the result on screen.
    if (shown_ && result.run.input.empty() && !result.run.input_identity.empty() &&
        result.run.input_identity == shown_->input_identity)
        result.run.input = shown_->input;
    if (result.id != in_flight_) return;  // overtaken by a newer save or setting
    in_flight_ = 0;
    ++results_received_;
    if (result.failure == WorkerFailure::timeout) hung_key_ = in_flight_key_;
    if (result.run.ok()) {
        recent_results_.insert(recent_results_.begin(), {in_flight_key_, result.run});
        if (recent_results_.size() > 8) recent_results_.pop_back();
    }
    accept(std::move(result.run), result.elapsed_ms, false);
}

void KernelSession::accept(RunReport report, double worker_ms, bool reused) {
    const bool has_outputs = report.ok() && (!report.output.empty() || !report.check.map.empty());
    const bool input_only = !report.ok() && report.stage == "device" && !report.input.empty();  // no GPU: show the input
    if (has_outputs || input_only) {
        shown_ = report;
        shown_stale_ = false;
        ++output_version_;
    } else if (shown_) {
        shown_stale_ = true;  // keep the last good output visible, marked stale
    }
    // last_ is read for numbers and diagnostics only: the images live in shown_, not copied twice.
    last_ = std::move(report);
    last_->input = {};
    last_->output = {};
    last_->check.map = {};
    const RunReport& report_ref = *last_;
    if (report_ref.ok()) {
        HistoryEntry entry;
        entry.run = static_cast<int>(history_.size()) + 1;
        entry.source_hash = source_hash_.substr(0, 8);
        entry.time_of_day = time_of_day();
        entry.task = report_ref.task;
        entry.kernel = report_ref.kernel;
        entry.worker_ms = worker_ms;
        entry.reused = reused;
        entry.launch = "grid " + report_ref.launch.grid.text() + " block " + report_ref.launch.block.text();
        entry.median_ms = report_ref.kernel_ms.median;
        entry.min_ms = report_ref.kernel_ms.min;
        entry.max_ms = report_ref.kernel_ms.max;
        entry.gbps = report_ref.gbps;
        entry.percent_of_ceiling = report_ref.percent_of_ceiling;
        entry.gflops = report_ref.gflops;
        entry.compile_ms = report_ref.compile.cache_hit ? report_ref.compile.lookup_ms : report_ref.compile.compile_ms;
        entry.cache_hit = report_ref.compile.cache_hit;
        entry.passed = report_ref.check.passed;
        history_.push_back(entry);
        if (history_.size() > 200) history_.erase(history_.begin());
    }
    latency_pending_ = in_flight_change_.has_value();
    if (latency_pending_) latency_start_ = in_flight_change_;

    // The matmul ceiling: cuBLAS at this size, once, queued behind this result (it never delays one).
    if (report_ref.ok() && report_ref.task == "matmul" && baseline_request_ == 0) {
        const std::string size = std::to_string(inputs.m) + "x" + std::to_string(inputs.n) + "x" + std::to_string(inputs.k);
        if (report_ref.emulated) {
            // No cuBLAS on the CPU, and a ratio against emulated time would mean nothing.
        } else if (!cublas_gflops_.count(size)) {
            RunRequest baseline;
            baseline.baseline = "cublas-fp32";
            baseline.inputs.size = size;
            baseline.inputs.seed = inputs.seed;
            baseline.device = inputs.device;
            baseline.warmup = 2;
            baseline.repeat = 10;
            baseline_size_ = size;
            baseline_request_ = client_.submit_run(baseline);
        }
    }
}

void KernelSession::frame_presented() {
    if (!latency_pending_ || !latency_start_) return;
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - *latency_start_).count();
    latencies_ms_.push_back(ms);
    if (!history_.empty() && last_ && last_->ok()) history_.back().latency_ms = ms;
    latency_pending_ = false;
    latency_start_.reset();
}

bool KernelSession::update() {
    bool changed = false;
    for (const FileChange& change : watcher_.poll()) {
        if (change.path.filename() == file_.filename()) {
            load_source(change.when, false);
            changed = true;
        }
    }
    if (retry_at_ && Clock::now() >= *retry_at_) {
        load_source(retry_change_, false);
        changed = true;
    }
    while (auto result = client_.poll()) {
        handle(std::move(*result));
        changed = true;
    }
    if (thorough_client_)
        while (auto result = thorough_client_->poll()) {
            handle(std::move(*result), true);
            changed = true;
        }
    return changed;
}

}  // namespace kplay::window
