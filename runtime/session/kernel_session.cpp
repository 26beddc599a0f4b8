// Live reload, request assembly and result handling for the window.
#include "session/kernel_session.hpp"

#include <ctime>

#include "base/content_hash.hpp"
#include "base/error.hpp"
#include "base/text.hpp"
#include "client/codec.hpp"
#include "client/launch_config.hpp"
#include "client/verdict.hpp"
#include "inspect/cuda_tools.hpp"
#include "launch/plan.hpp"
#include "spec/source_scan.hpp"
#include "spec/task_sizes.hpp"

namespace kplay {

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

std::string library_key(const RunReport& report) { return report.task + "|" + report.sizes; }

}  // namespace

KernelSession::KernelSession(WorkerOptions options) : client_(options), options_(std::move(options)) {
    devices_request_ = client_.submit_devices();
}

std::string KernelSession::device_banner() const {
    if (!devices_known_) return "";
    const std::string problem = devices_.problem();
    if (problem.empty()) return "";
    if (devices_failed_ && client_.remote())
        return "Cannot reach the worker on " + client_.remote_status().label + " (see Results); the next run tries again.";
    // The reason's headline ("No CUDA driver"); the whole text is in the Device menu.
    const std::string reason = problem.substr(0, problem.find(':'));
    return "No CUDA device (" + reason + "): kernels run on the emulated CPU device; its times say nothing about GPU speed.";
}

double KernelSession::busy_seconds() const {
    return in_flight_ ? std::chrono::duration<double>(Clock::now() - in_flight_since_).count() : 0;
}

Phase KernelSession::busy_phase() const { return (in_flight_thorough_ && thorough_client_ ? *thorough_client_ : client_).phase(); }

double KernelSession::busy_fraction() const {
    return (in_flight_thorough_ && thorough_client_ ? *thorough_client_ : client_).phase_fraction();
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
    inspector_.clear();
    fault_locations_.clear();
    profile_.reset();
    if (!watcher_.watch(file)) file_error_ = "Cannot watch " + file.string() + ": its folder does not exist.";
    load_source(Clock::now(), true, /*opened=*/true);
}

void KernelSession::set_image(const std::string& path) {
    inputs.image_path = path;
    apply_settings();
}

NamedValues KernelSession::current_sizes() const {
    const TaskSpec* current = task();
    if (!current) return {};
    NamedValues sizes;
    const bool cpu = emulating();
    const auto& defaults = cpu ? current->sizes.cpu_default : current->sizes.gpu_default;
    for (size_t i = 0; i < current->sizes.names.size() && i < defaults.size(); ++i) sizes[current->sizes.names[i]] = defaults[i];
    if (last_ && last_->task == current->name)
        for (const auto& name : current->sizes.names)
            if (last_->values.count(name)) sizes[name] = last_->values.at(name);
    if (const auto found = inputs.sizes.find(current->name); found != inputs.sizes.end())
        for (const auto& [name, value] : found->second) sizes[name] = value;
    return sizes;
}

void KernelSession::set_size(const std::string& name, int64_t value) {
    if (const TaskSpec* current = task()) inputs.sizes[current->name][name] = std::max<int64_t>(1, value);
}

bool KernelSession::set_size_text(const std::string& text) {
    const TaskSpec* current = task();
    if (!current) {
        notice_ = "the file's task is not known yet (" + spec_error_ + ")";
        return false;
    }
    try {
        const std::vector<int64_t> values = parse_size_values(*current, text);
        for (size_t i = 0; i < values.size(); ++i) inputs.sizes[current->name][current->sizes.names[i]] = values[i];
    } catch (const InputError& error) {
        notice_ = error.what();
        return false;
    }
    apply_settings();
    return true;
}

void KernelSession::reset_sizes() {
    if (const TaskSpec* current = task()) inputs.sizes.erase(current->name);
}

void KernelSession::load_source(Clock::time_point changed_at, bool force, bool opened) {
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
    latency_start_ = LatencyStart{changed_at, opened};
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
    const bool compiled = last_ && last_->stage != Stage::source && last_->stage != Stage::spec && last_->stage != Stage::compile;
    const FunctionAttributes* function = compiled && last_->function.max_threads_per_block ? &last_->function : nullptr;
    const DeviceLimits limits = emulating() || devices_.devices.empty() ? devices_.emulated.device.limits : devices_.devices.front().limits;
    return validate_launch(launch, limits, function);
}

RunRequest KernelSession::make_request() const {
    RunRequest request;
    request.kernel_path = file_;
    request.source = source_;
    request.keep_outputs = true;
    request.progressive = true;  // the checked result first, its timing after (show_partial)
    request.defer_library_ceiling = true;  // measured in a request of its own, so no run waits for it
    if (shown_ && !shown_->view.input.empty()) request.known_input = shown_->view.input_identity;  // don't ship it again
    request.warmup = inputs.warmup;
    request.repeat = inputs.repeat;
    request.device = std::max(inputs.device, 0);
    request.emulate = inputs.device == kEmulatedDevice;
    request.thread_order = inputs.thread_order;
    request.order_seed = inputs.order_seed;
    if (inputs.thorough) {
        request.emulate = true;
        request.emulation_thorough = true;
    }
    request.inputs.seed = inputs.seed;
    if (const TaskSpec* current = task()) {
        if (current->has_image_input()) request.inputs.image_path = inputs.image_path;
        // Only sizes the user set are sent: the others follow the task's default for the device.
        if (const auto found = inputs.sizes.find(current->name); found != inputs.sizes.end() && !found->second.empty()) {
            const NamedValues sizes = current_sizes();
            std::vector<std::string> parts;
            for (const auto& name : current->sizes.names) parts.push_back(name + "=" + std::to_string(sizes.at(name)));
            request.inputs.size = join(parts, ",");
            request.inputs.image_path.clear();  // sizes given: the built-in image at that size
        }
    }
    if (overrides.block) request.block = to_vector(*overrides.block);
    if (overrides.grid) request.grid = to_vector(*overrides.grid);
    request.smem = overrides.smem;
    request.arg_overrides = overrides.args;
    request.defines = overrides.defines;
    return request;
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
    // The device list could not be had (a remote host out of reach): ask again first, so a run after
    // the host is back goes to its GPU rather than to the emulated device by default.
    if (devices_failed_ && !answering_devices_) {
        devices_failed_ = false;
        devices_known_ = false;
        devices_request_ = client_.submit_devices();
        deferred_submit_ = automatic;
        return;
    }
    const RunRequest request = make_request();
    // The key is the source and every setting, but not known_input: that only says which input is on
    // screen, and it changes once the first result is shown, which would make an undo to the first
    // version (or back to a hung one) look like something new.
    RunRequest keyed = request;
    keyed.known_input.clear();
    const std::string key = hash_hex(nlohmann::json(keyed).dump());
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
            in_flight_request_ = request;
            ++runs_submitted_;
            ++results_received_;
            accept(report, 0, true);
            return;
        }
    }
    if (inputs.thorough && !thorough_client_) {
        WorkerOptions thorough = options_;
        thorough.thorough = true;  // the worker restarts itself with the sanitizer runtimes preloaded
        thorough_client_ = std::make_unique<WorkerClient>(thorough);
    }
    in_flight_thorough_ = inputs.thorough;
    in_flight_ = (inputs.thorough ? *thorough_client_ : client_).submit_run(request);  // an older one is now overtaken
    in_flight_request_ = request;
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

void KernelSession::handle_devices(const WorkerResult& result) {
    devices_ = result.devices;
    devices_known_ = true;
    devices_failed_ = !result.ok();
    if (!result.ok()) devices_.driver.message = result.failure_message;
    if (deferred_submit_) {
        const bool automatic = *deferred_submit_;
        deferred_submit_.reset();
        // Not asked again from here: a host that stays out of reach would be asked in a loop. The run
        // goes now (and says what is wrong); the next one asks again.
        answering_devices_ = true;
        submit(automatic);
        answering_devices_ = false;
    }
}

void KernelSession::handle_baseline(const WorkerResult& result) {
    baseline_request_ = 0;
    const RunReport& baseline = result.run;
    library_gflops_[baseline_key_] = baseline.ok() ? baseline.gflops : -1;
    baseline_note_ = baseline.ok() ? "" : baseline.error;
    // Runs recorded while it was measured get their share too (the history's export shows it).
    for (auto& entry : history_) {
        if (!entry.ceiling_pending || entry.task + "|" + entry.sizes != baseline_key_) continue;
        entry.ceiling_pending = false;
        if (baseline.ok() && baseline.gflops > 0) entry.percent_of_ceiling = 100 * entry.gflops / baseline.gflops;
    }
    // The ceiling arrived: the results on screen say their share of it now.
    for (auto* report : {&last_, &shown_})
        if (*report) apply_library_ceiling(**report);
    for (auto& [key, report] : recent_results_) apply_library_ceiling(report);
}

void KernelSession::handle(WorkerResult result, bool from_thorough_worker) {
    // Device lists and cuBLAS baselines are asked of the main worker only.
    if (!from_thorough_worker && result.id == baseline_request_) return handle_baseline(result);
    if (!from_thorough_worker && result.id == devices_request_) return handle_devices(result);
    if (!from_thorough_worker && inspector_.handle(result)) return;
    if (!from_thorough_worker && result.id != 0 && result.id == fault_rerun_) return handle_fault_rerun(result);
    // The two workers number their requests independently: a run's answer counts only from the worker asked.
    if (from_thorough_worker != in_flight_thorough_) return;
    // The worker leaves out an input we already have: take it from the result on screen.
    OutputView& view = result.run.view;
    if (shown_ && view.input.empty() && !view.input_identity.empty() && view.input_identity == shown_->view.input_identity)
        view.input = shown_->view.input;
    if (result.id != in_flight_) return;  // overtaken by a newer save or setting
    if (result.partial) return show_partial(std::move(result.run));
    // The final answer of a run whose checked result is on screen: its arrays came with that one.
    const bool after_partial = partial_of_ == result.id;
    partial_of_ = 0;
    // (A run that failed after its checked result keeps that picture on screen, marked stale: not moved.)
    const bool same_view = after_partial && result.run.view_sent_before && result.run.ok() && shown_ && shown_partial_;
    if (same_view) view = std::move(shown_->view);  // accept() puts it back in shown_: one copy, as any result
    in_flight_ = 0;
    ++results_received_;
    if (result.failure == WorkerFailure::timeout) hung_key_ = in_flight_key_;
    apply_library_ceiling(result.run);
    if (result.run.ok()) {
        recent_results_.insert(recent_results_.begin(), {in_flight_key_, result.run});
        if (recent_results_.size() > 8) recent_results_.pop_back();
    }
    accept(std::move(result.run), result.elapsed_ms, false, after_partial, same_view);
}

void KernelSession::show_partial(RunReport report) {
    // The main size as checked, before its timed repeats, further sizes and second seed: the picture
    // and its verdict now; the final answer refines the figures in place (RunReport::partial).
    partial_of_ = in_flight_;
    apply_library_ceiling(report);
    shown_partial_ = false;
    if (report.ok() && report.view.drawable()) {
        shown_ = report;
        shown_stale_ = false;
        shown_partial_ = true;
        ++output_version_;
    }
    last_ = std::move(report);
    last_->view = OutputView{last_->view.kind, last_->view.buffer};
    // The edit->result time is to this answer: it is the one the user sees first.
    latency_pending_ = in_flight_change_.has_value();
    if (latency_pending_) latency_start_ = in_flight_change_;
}

void KernelSession::apply_library_ceiling(RunReport& report) const {
    if (!report.ok() || report.ceiling.kind != CeilingKind::cublas || !report.ceiling.deferred) return;
    const auto found = library_gflops_.find(library_key(report));
    if (found == library_gflops_.end()) return;
    if (found->second > 0) {
        report.ceiling.gflops = found->second;
        report.ceiling.deferred = false;
    }
    apply_verdict(report);
    if (found->second <= 0) report.verdict = "cuBLAS could not run here: " + baseline_note_;
}

void KernelSession::accept(RunReport report, double worker_ms, bool reused, bool after_partial, bool same_view) {
    if (report.ok() && report.view.drawable()) {
        shown_ = report;
        shown_stale_ = false;
        shown_partial_ = false;
        if (!same_view) ++output_version_;  // the same arrays: nothing to upload again
    } else if (shown_) {
        shown_stale_ = true;  // keep the last good output visible, marked stale
    }
    // last_ is read for numbers and diagnostics only: the arrays live in shown_, not copied twice.
    last_ = std::move(report);
    last_->view = OutputView{last_->view.kind, last_->view.buffer};
    last_request_ = in_flight_request_;
    fault_locations_.clear();  // they were of the run before
    if (last_->ok()) record_history(*last_, worker_ms, reused);
    if (after_partial && partial_latency_ms_ && last_->ok() && !history_.empty()) history_.back().latency_ms = *partial_latency_ms_;
    partial_latency_ms_.reset();
    if (!reused) ask_for_inspection(*last_);
    if (find_fault_automatically && can_find_fault_line()) find_fault_line();
    if (!after_partial) {  // else it was measured at the checked result
        latency_pending_ = in_flight_change_.has_value();
        if (latency_pending_) latency_start_ = in_flight_change_;
    }
    ask_for_library_ceiling(*last_);
}

void KernelSession::record_history(const RunReport& report, double worker_ms, bool reused) {
    HistoryEntry entry;
    entry.run = static_cast<int>(history_.size()) + 1;
    entry.source_hash = source_hash_.substr(0, 8);
    entry.time_of_day = time_of_day();
    entry.task = report.task;
    entry.kernel = report.kernel;
    entry.sizes = report.sizes;
    entry.worker_ms = worker_ms;
    entry.reused = reused;
    entry.launch = "grid " + report.launch.grid.text() + " block " + report.launch.block.text();
    entry.median_ms = report.kernel_ms.median;
    entry.min_ms = report.kernel_ms.min;
    entry.max_ms = report.kernel_ms.max;
    entry.gbps = report.gbps;
    entry.gflops = report.gflops;
    entry.unit = report.spec ? report.spec->task.presentation.rate : RateUnit::bytes;
    entry.percent_of_ceiling = report.percent_of_ceiling;
    entry.ceiling_pending = report.ceiling.kind == CeilingKind::cublas && report.ceiling.deferred && !report.emulated;
    entry.compile_ms = report.compile.cache_hit ? report.compile.lookup_ms : report.compile.compile_ms;
    entry.cache_hit = report.compile.cache_hit;
    entry.passed = report.check.passed;
    history_.push_back(entry);
    if (history_.size() > 200) history_.erase(history_.begin());
}

// A GEMM-like task's ceiling: cuBLAS at this size, once, queued behind this result (it never delays one).
void KernelSession::ask_for_library_ceiling(const RunReport& report) {
    if (!report.ok() || !report.ceiling.deferred || baseline_request_ != 0 || report.emulated) return;
    const std::string key = library_key(report);
    if (library_gflops_.count(key)) return;
    RunRequest baseline;
    baseline.kernel_path = file_;
    baseline.source = source_;
    baseline.baseline = Baseline::cublas_fp32;
    baseline.inputs.size = report.sizes;
    baseline.inputs.seed = inputs.seed;
    baseline.device = std::max(inputs.device, 0);
    baseline.check_test_sizes = false;
    baseline.warmup = 2;
    baseline.repeat = 10;
    baseline_key_ = key;
    baseline_request_ = client_.submit_run(baseline);
}

void KernelSession::frame_presented() {
    if (!latency_pending_ || !latency_start_) return;
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - latency_start_->at).count();
    last_latency_opened_ = latency_start_->opened;
    if (latency_start_->opened) {
        opened_to_result_ms_ = ms;
    } else {
        latencies_ms_.push_back(ms);
        // A checked result's run is not in the history yet: its entry takes the time when it comes.
        if (last_ && last_->partial) partial_latency_ms_ = ms;
        else if (!history_.empty() && last_ && last_->ok()) history_.back().latency_ms = ms;
    }
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
    if (poll_background()) changed = true;
    if (thorough_client_)
        while (auto result = thorough_client_->poll()) {
            handle(std::move(*result), true);
            changed = true;
        }
    return changed;
}

void KernelSession::ask_for_inspection(const RunReport& report) {
    // A file that did not get to a compile (unreadable, a spec error) has nothing to show inside.
    if (report.stage == Stage::source || report.stage == Stage::spec || source_.empty()) return;
    // The window's defines over the annotation's, as the run's pipeline merges them.
    const auto defines = merge_defines(spec_ ? spec_->defines : std::vector<std::pair<std::string, std::string>>{}, overrides.defines);
    // The target the run compiled for: the file's arch= (sm_90a), else the GPU's.
    const std::string arch = spec_ && !spec_->arch.empty()                 ? spec_->arch
                             : report.device && !report.emulated ? report.device->arch()
                                                                 : std::string();
    const auto request = inspector_.request_for(file_, source_, source_hash_, defines, arch);
    if (!request) return;
    const int64_t threads = report.launch.block.volume();
    const int run = report.ok() ? static_cast<int>(history_.size()) : 0;
    inspector_.submitted(client_.submit_compile(*request), run, threads > 0 && threads <= 4096 ? static_cast<int>(threads) : 0);
}

// kplay-cli beside the worker: the finders and the profiler run it again in a process of their own.
std::filesystem::path KernelSession::sibling_cli() const {
    return (options_.worker_path.empty() ? default_worker_path() : options_.worker_path).parent_path() / "kplay-cli";
}

bool KernelSession::can_find_fault_line() const {
    return last_ && kplay::can_find_fault_line(*last_) && !finding_fault_line() && fault_locations_.empty();
}

void KernelSession::find_fault_line() {
    if (!can_find_fault_line()) return;
    fault_locations_.clear();
    fault_rerun_ = client_.submit_run(emulated_rerun_request(last_request_, *last_));
    const std::filesystem::path cli = sibling_cli();
    if (find_cuda_tool(CudaTool::compute_sanitizer).found() && std::filesystem::exists(cli))
        sanitizer_work_.start([cli, request = last_request_, report = *last_] { return find_fault_with_sanitizer(cli, request, report); });
}

void KernelSession::handle_fault_rerun(const WorkerResult& result) {
    fault_rerun_ = 0;
    FaultLocation location = location_from_emulated_run(result.run);
    location.seconds = result.elapsed_ms / 1000;
    if (!result.ok()) location.problem = "The emulated re-run did not finish: " + result.failure_message;
    fault_locations_.insert(fault_locations_.begin(), std::move(location));  // the emulated device's first
}

int KernelSession::fault_line() const {
    for (const auto& location : fault_locations_)
        if (location.found) return location.line;
    return last_ && last_->emulated ? last_->error_line : 0;
}

bool KernelSession::can_profile() const {
    if (!last_ || !last_->ok() || last_->emulated || profiling()) return false;
    // Asked every frame (the Profile button): the search of PATH and the toolkit folders is done once.
    if (!ncu_found_) ncu_found_ = find_cuda_tool(CudaTool::ncu).found();
    return *ncu_found_;
}

void KernelSession::profile_last_run() {
    if (!can_profile()) return;
    const std::filesystem::path cli = sibling_cli();
    profiling_run_ = history_.empty() ? 0 : history_.back().run;
    profile_work_.start([cli, request = last_request_, report = *last_] { return profile_with_ncu(cli, request, report); });
}

bool KernelSession::poll_background() {
    bool changed = false;
    if (inspector_.poll()) {
        for (const auto& [run, resources] : inspector_.resources_by_run())
            if (run >= 1 && run <= static_cast<int>(history_.size())) {
                history_[run - 1].registers = resources.registers;
                history_[run - 1].spill_bytes = resources.spill_store_bytes + resources.spill_load_bytes;
            }
        changed = true;
    }
    if (auto location = sanitizer_work_.take()) {
        fault_locations_.push_back(std::move(*location));
        changed = true;
    }
    if (auto outcome = profile_work_.take()) {
        profile_ = std::move(*outcome);
        profile_run_ = profiling_run_;
        changed = true;
    }
    return changed;
}

}  // namespace kplay
