// Live reload, request assembly and result handling for the window: which helper hears of what.
#include "session/kernel_session.hpp"

#include "base/content_hash.hpp"
#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/task_sizes.hpp"
#include "plan/plan.hpp"
#include "values/codec.hpp"
#include "values/launch_config.hpp"

namespace kplay {

namespace {

std::vector<int64_t> to_vector(const std::array<int64_t, 3>& values) { return {values[0], values[1], values[2]}; }

// The key is the source and every setting, but not known_input: that only says which input is on
// screen, and it changes once the first result is shown, which would make an undo to the first
// version (or back to a hung one) look like something new.
// The request and the content of the headers the file includes (the request names only the file).
std::string run_key(const RunRequest& request, const std::string& headers_hash) {
    RunRequest keyed = request;
    keyed.known_input.clear();
    return hash_hex(nlohmann::json(keyed).dump() + headers_hash);
}

}  // namespace

KernelSession::KernelSession(WorkerOptions options) : workers_(std::move(options)) {}

void KernelSession::open(const std::filesystem::path& file, bool keep_overrides) {
    file_.open(file);
    if (!keep_overrides) overrides = {};
    run_.forget_hung();
    inspector_.clear();
    faults_.clear();
    profiler_.clear();
    lines_.clear();
    load(Clock::now(), true, /*opened=*/true);
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
    if (last() && last()->task == current->name)
        for (const auto& name : current->sizes.names)
            if (last()->values.count(name)) sizes[name] = last()->values.at(name);
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
        notice_ = "the file's task is not known yet (" + spec_error() + ")";
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

void KernelSession::set_include_dirs(std::vector<std::string> dirs) {
    include_dirs_ = dirs;
    file_.set_include_dirs(std::move(dirs));
}

void KernelSession::load(Clock::time_point changed_at, bool force, bool opened) {
    if (file_.load(changed_at, force)) new_text(changed_at, opened);
}

void KernelSession::new_text(Clock::time_point changed_at, bool opened) {
    latency_.edited(changed_at, opened);
    submit(true);
}

std::vector<std::string> KernelSession::launch_problems() const {
    if (!devices_known()) return {};
    if (!overrides.block && !overrides.grid && !overrides.smem) return {};
    const std::optional<RunReport>& ran = last();
    LaunchConfig launch;
    if (ran) launch = ran->launch;
    if (overrides.block) launch.block = {(*overrides.block)[0], (*overrides.block)[1], (*overrides.block)[2]};
    if (overrides.grid) launch.grid = {(*overrides.grid)[0], (*overrides.grid)[1], (*overrides.grid)[2]};
    if (!overrides.grid) launch.grid = {1, 1, 1};  // auto: always in range
    if (overrides.smem) launch.dynamic_smem = *overrides.smem;
    const bool compiled = ran && reached(*ran, Stage::device);
    const FunctionAttributes* function = compiled && ran->function.max_threads_per_block ? &ran->function : nullptr;
    const DeviceQuery& query = devices();
    const DeviceLimits limits = emulating() || query.devices.empty() ? query.emulated.device.limits : query.devices.front().limits;
    return validate_launch(launch, limits, function);
}

RunRequest KernelSession::make_request() const {
    RunRequest request;
    request.kernel_path = file();
    request.source = source();
    request.include_dirs = include_dirs_;
    request.keep_outputs = true;
    request.view_side = view_side;
    request.progressive = true;  // the checked result first, its timing after (show_partial)
    request.defer_library_ceiling = true;  // measured in a request of its own, so no run waits for it
    if (shown() && !shown()->view.input.empty()) request.known_input = shown()->view.input_identity;  // don't ship it again
    request.warmup = inputs.warmup;
    request.repeat = inputs.repeat;
    request.device = std::max(inputs.device, 0);
    request.emulate = inputs.device == kEmulatedDevice;
    request.thread_order = inputs.thread_order;
    request.order_seed = inputs.order_seed;
    request.emulation_track = inputs.track;
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

void KernelSession::submit(bool automatic, bool devices_just_came) {
    if (source().empty()) return;
    if (!launch_problems().empty()) {
        notice_ = "Not launched: the launch settings break a device limit (see Launch).";
        return;
    }
    if (!workers_.ready_for_run(automatic, devices_just_came)) return;  // its answer submits it
    const RunRequest request = make_request();
    const std::string key = run_key(request, file_.headers_hash());
    if (automatic && run_.hung(key)) {
        notice_ = "This version hung last time, so it is not re-run automatically. Press F5 to run it anyway.";
        return;
    }
    notice_.clear();
    // A recent result is kept without an input the worker left out: it can be shown again while that
    // input is the one on screen.
    const RunReport* earlier = automatic ? recent_.find(key) : nullptr;
    cut_short_run_in_flight();
    if (earlier && screen_.can_fill_input(earlier->view)) {
        run_.answered_at_once(request);
        latency_.sent(true);
        accept(*earlier, 0, true);
        return;
    }
    WorkerClient& worker = workers_.for_run(inputs.thorough);
    run_.sent(worker.submit_run(request), request, key, inputs.thorough);  // an older one is now overtaken
    latency_.sent(automatic);
}

// The run in flight is overtaken: what it has left (timed repeats, further sizes, the ceiling) would
// only delay the worker's next run, whose answer is the one shown.
void KernelSession::cut_short_run_in_flight() {
    if (!run_.waiting()) return;
    if (WorkerClient* worker = run_.thorough() ? workers_.thorough() : &workers_.main()) worker->cut_short(run_.in_flight());
}

void KernelSession::recompile() {
    if (file().empty()) return;
    load(Clock::now(), true);
}

void KernelSession::rerun() {
    latency_.untimed();
    submit(false);
}

void KernelSession::apply_settings() {
    latency_.untimed();
    submit(true);
}

bool KernelSession::handle_side_answer(const WorkerResult& result) {
    if (const auto measured = ceiling_.handle(result)) {
        ceiling_measured(*measured);
        return true;
    }
    if (workers_.is_device_list(result)) {
        if (const std::optional<bool> held = workers_.take_device_list(result)) submit(*held, /*devices_just_came=*/true);
        return true;
    }
    if (writers_.handle(result)) {
        map_writers();  // a newer result came while this one was mapped
        return true;
    }
    return inspector_.handle(result) || faults_.handle(result);
}

void KernelSession::ceiling_measured(const LibraryCeiling::Measured& measured) {
    // Runs recorded while it was measured get their share too (the history's export shows it).
    history_.fill_ceiling(measured.task, measured.sizes, measured.gflops);
    // The ceiling arrived: the results on screen say their share of it now.
    const auto apply = [this](RunReport& report) { ceiling_.apply(report); };
    screen_.update_each(apply);
    recent_.update_each(apply);
}

void KernelSession::handle(WorkerResult result, bool from_thorough_worker) {
    // The full resolution of the view on screen, from whichever worker made it.
    if (result.kind == MessageKind::view) {
        if (auto full = full_view_.take(result, from_thorough_worker)) screen_.show_full_view(std::move(*full));
        return;
    }
    // Device lists, cuBLAS baselines, inspect compiles and fault re-runs are asked of the main worker only.
    if (!from_thorough_worker && handle_side_answer(result)) return;
    // The two workers number their requests independently: a run's answer counts only from the worker asked.
    if (!run_.asked(from_thorough_worker)) return;
    // (The worker leaves out an input we already have: the result on screen hands it over when shown.)
    OutputView& view = result.run.view;
    if (!run_.answers(result.id)) return;  // overtaken by a newer save or setting
    if (result.partial) return show_partial(std::move(result.run));
    // The final answer of a run whose checked result is on screen: its arrays came with that one.
    const bool after_partial = run_.take_partial(result.id);
    // (A run that failed after its checked result keeps that picture on screen, marked stale: not moved.)
    const bool same_view = after_partial && result.run.view_sent_before && result.run.ok() && screen_.shown() && screen_.shows_partial();
    if (same_view) screen_.lend_view(view);  // accept() puts it back on screen: one copy, as any result
    run_.finished(result.failure == WorkerFailure::timeout);
    ceiling_.apply(result.run);
    recent_.remember(run_.key(), result.run);
    accept(std::move(result.run), result.elapsed_ms, false, after_partial, same_view);
}

void KernelSession::show_partial(RunReport report) {
    // The main size as checked, before its timed repeats, further sizes and second seed: the picture
    // and its verdict now; the final answer refines the figures in place (RunReport::partial).
    run_.partial_shown();
    shown_thorough_ = run_.thorough();
    ceiling_.apply(report);
    screen_.show_partial(std::move(report), run_.request());
    // The edit->result time is to this answer: it is the one the user sees first.
    latency_.answered();
}

void KernelSession::accept(RunReport report, double worker_ms, bool reused, bool after_partial, bool same_view) {
    if (report.view.drawable()) shown_thorough_ = run_.thorough();
    screen_.show(std::move(report), run_.request(), same_view);
    const RunReport& newest = *last();
    faults_.clear();  // they were of the run before
    if (newest.ok()) history_.record(newest, file_.source_hash(), worker_ms, reused);
    if (const auto ms = latency_.take_partial(); ms && after_partial && newest.ok()) history_.set_newest_latency(*ms);
    if (!reused) ask_for_inspection(newest);
    if (find_fault_automatically && can_find_fault_line()) find_fault_line();
    if (show_writers_) map_writers();
    if (!after_partial) latency_.answered();  // else it was measured at the checked result
    ask_for_library_ceiling(newest);
}

// A GEMM-like task's ceiling: cuBLAS at this size, once, queued behind this result (it never delays one).
void KernelSession::ask_for_library_ceiling(const RunReport& report) {
    if (const auto request = ceiling_.request_for(report, file(), source(), inputs.seed, inputs.device))
        ceiling_.submitted(workers_.main().submit_run(*request));
}

void KernelSession::frame_presented() {
    const bool partial = last() && last()->partial;
    // A checked result's run is not in the history yet: its entry takes the time when it comes (accept).
    if (const auto ms = latency_.presented(partial); ms && last() && last()->ok()) history_.set_newest_latency(*ms);
}

bool KernelSession::update() {
    const LiveFile::Poll read = file_.poll();
    if (read.new_text_at) new_text(*read.new_text_at, false);
    bool changed = read.read;
    while (auto result = workers_.main().poll()) {
        const bool checked_result = result->partial;
        handle(std::move(*result));
        changed = true;
        // A run's checked result is drawn before anything else is taken in: its final answer often
        // follows within milliseconds and would otherwise replace it before it was ever on screen.
        if (checked_result) return true;
    }
    if (poll_background()) changed = true;
    if (WorkerClient* thorough = workers_.thorough())
        while (auto result = thorough->poll()) {
            const bool checked_result = result->partial;
            handle(std::move(*result), true);
            changed = true;
            if (checked_result) break;
        }
    return changed;
}

void KernelSession::look_closely() {
    if (!shown() || shown()->view.step <= 1) return;
    WorkerClient* worker = shown_thorough_ ? workers_.thorough() : &workers_.main();
    if (worker) full_view_.ask(shown()->view, *worker, shown_thorough_);
}

void KernelSession::ask_for_inspection(const RunReport& report) {
    // A file that did not get to a compile (unreadable, a spec error) has nothing to show inside; a
    // worker that failed says nothing of how far it got.
    if ((report.stage != Stage::worker && !reached(report, Stage::compile)) || source().empty()) return;
    const std::optional<KernelSpec>& annotation = spec();
    // The window's defines over the annotation's, as the run's pipeline merges them.
    const auto defines = merge_defines(annotation ? annotation->defines : std::vector<std::pair<std::string, std::string>>{}, overrides.defines);
    // The target the run compiled for: the file's arch= (sm_90a), else the GPU's.
    const std::string arch = annotation && !annotation->arch.empty()       ? annotation->arch
                             : report.device && !report.emulated ? report.device->arch()
                                                                 : std::string();
    auto request = inspector_.request_for(file(), source(), file_.source_hash() + file_.headers_hash(), defines, arch);
    if (!request) return;
    request->include_dirs = include_dirs_;  // the user's header folders, as the run's compile had them
    const int64_t threads = report.launch.block.volume();
    const int run = report.ok() ? history_.size() : 0;
    inspector_.submitted(workers_.main().submit_compile(*request), run, threads > 0 && threads <= 4096 ? static_cast<int>(threads) : 0);
}

void KernelSession::find_fault_line() {
    if (!can_find_fault_line()) return;
    faults_.start(screen_.last_request(), *last(), workers_.main(), workers_.sibling_cli());
}

void KernelSession::check_with(SanitizerTool tool) {
    if (!can_check_with(tool)) return;
    faults_.start_tool(screen_.last_request(), *last(), workers_.sibling_cli(), tool);
}

int KernelSession::fault_line() const {
    if (const std::optional<int> line = faults_.found_line()) return *line;
    return last() && last()->emulated ? last()->error_line : 0;
}

bool KernelSession::can_measure_lines() const {
    const RunInspection* inspection = inspector_.current();
    return last() && inspection && inspection->inspection.sass && lines_.can_start(*last());
}

void KernelSession::measure_lines() {
    if (!can_measure_lines()) return;
    lines_.start(workers_.sibling_cli(), screen_.last_request(), *last(), *inspector_.current()->inspection.sass, history_.newest_run());
}

void KernelSession::profile_last_run() {
    if (!can_profile()) return;
    profiler_.start(workers_.sibling_cli(), screen_.last_request(), *last(), history_.newest_run());
}

std::string KernelSession::writers_refusal() const {
    if (!shown()) return "No output on screen to map.";
    return WriterMapRun::refusal(*shown());
}

void KernelSession::show_writers(bool on) {
    show_writers_ = on;
    if (on) map_writers();
}

void KernelSession::map_writers() {
    if (!show_writers_ || writers_.running() || !writers_refusal().empty() || writer_map()) return;
    if (writers_.problem_version() == screen_.version()) return;  // tried: the problem is on screen
    writers_.start(screen_.shown_request(), *shown(), screen_.version(), workers_.main());
}

std::string KernelSession::writers_problem() const {
    if (const std::string refusal = writers_refusal(); !refusal.empty()) return refusal;
    return writers_.problem_version() == screen_.version() ? writers_.problem() : std::string();
}

bool KernelSession::poll_background() {
    bool changed = false;
    if (inspector_.poll()) {
        history_.fill_resources(inspector_.resources_by_run());
        changed = true;
    }
    if (faults_.poll()) changed = true;
    if (profiler_.poll()) changed = true;
    if (lines_.poll()) changed = true;
    return changed;
}

}  // namespace kplay
