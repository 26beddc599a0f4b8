// The state dump's fields mirror the panels: file, launch, last results, errors, counters, frame times.
#include "state_dump.hpp"

#include <GL/gl.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "base/cache_dir.hpp"
#include "values/report_json.hpp"
#include "stb_image_write.h"

namespace kplay::window {

namespace {

// The Inside tab: the newest inspection's figures, what changed, the linked rows, the fault's line.
// The Debug tab: the chosen thread and line, what is in flight, and the last stop with its variables.
nlohmann::json debug_dump(const DebugUiState& debug) {
    nlohmann::json dump = {{"block", debug.block}, {"thread", debug.thread}, {"line", debug.line}, {"working_on", debug.working_on},
                           {"last_action", debug.last_action}, {"gpu_note", debug.gpu_note}};
    if (!debug.stop) return dump;
    const DebugStop& stop = *debug.stop;
    auto variables = [](const std::vector<DebugVariable>& list) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& v : list) out[v.name] = v.value;
        return out;
    };
    dump["stop"] = {{"state", debug_state_name(stop.state)}, {"line", stop.line},        {"block", stop.block},
                    {"thread", stop.thread},                 {"message", stop.message},   {"locals", variables(stop.locals)},
                    {"shared", variables(stop.shared)}};
    return dump;
}

// The Sweep tab: the sweep's phase and points, the winner, and what the plot drew.
nlohmann::json sweep_dump(const AppState& state) {
    const Sweep* sweep = state.sweeps.sweep();
    nlohmann::json dump = {{"problem", state.sweeps.problem()}, {"text", state.sweeps.text}};
    if (!sweep) return dump;
    dump["phase"] = sweep_phase_name(sweep->phase());
    dump["points"] = sweep->results().size();
    dump["pruned"] = sweep->pruned();
    dump["runs_done"] = sweep->runs_done();
    int passed = 0, wrong = 0, failed = 0;
    for (const PointResult& r : sweep->results()) {
        passed += r.state == PointState::passed;
        wrong += r.state == PointState::wrong;
        failed += r.state == PointState::failed;
    }
    dump["passed"] = passed;
    dump["wrong"] = wrong;
    dump["failed"] = failed;
    dump["best"] = sweep->best() ? nlohmann::json(sweep->results()[*sweep->best()].label) : nlohmann::json(nullptr);
    dump["best_state"] = sweep->best() ? point_state_name(sweep->results()[*sweep->best()].state) : "";
    dump["plot"] = {{"kind", state.sweep_ui.plot_kind}, {"rect", state.sweep_ui.plot_rect}, {"plotted", state.sweep_ui.plotted},
                    {"hovered", state.sweep_ui.hovered}};
    dump["on_pool"] = state.sweeps.on_pool();
    nlohmann::json workers = nlohmann::json::array();
    for (const SweepWorkerStatus& w : sweep->workers())
        workers.push_back({{"name", w.name}, {"points_run", w.points_run}, {"confirm_runs", w.confirm_runs}, {"running", w.running},
                           {"restarts", w.restarts}, {"dropped", w.dropped}, {"dropped_reason", w.dropped_reason}});
    dump["workers"] = workers;
    dump["notes"] = sweep->notes();
    return dump;
}

// Device > Pool: the spec, whether it is starting, its groups and failures, the group sweeps run on.
nlohmann::json pool_dump(const AppState& state) {
    const PoolSession& pool = state.pool;
    nlohmann::json dump = {{"spec", pool.spec}, {"started_spec", pool.started_spec}, {"starting", pool.starting()},
                           {"problem", pool.problem()}, {"lent", pool.lent()}};
    const std::optional<size_t> group = pool.sweep_group();
    dump["sweep_group"] = group ? nlohmann::json(*group + 1) : nlohmann::json(nullptr);
    nlohmann::json groups = nlohmann::json::array(), failed = nlohmann::json::array();
    if (const WorkerPool* started = pool.pool()) {
        for (const DeviceGroup& g : started->groups()) {
            nlohmann::json where = nlohmann::json::array();
            for (const size_t w : g.workers) where.push_back(started->workers()[w].where);
            groups.push_back({{"title", group_title(g)}, {"name", g.name}, {"emulated", g.emulated}, {"workers", where}});
        }
        for (const PoolFailure& f : started->failures()) failed.push_back({{"member", f.member}, {"message", f.message}});
    }
    dump["groups"] = groups;
    dump["failed"] = failed;
    return dump;
}

nlohmann::json inside_dump(const AppState& state) {
    const KernelSession& session = state.session;
    const KernelInspector& inspector = session.inspector();
    nlohmann::json inside = {{"busy", inspector.busy()},
                             {"highlighted_line", state.inside.highlighted_line},
                             {"highlighted_rows", state.inside.highlighted},
                             {"pane_rects", state.inside.pane_rects},
                             {"diff_against", state.inside.diff_against},
                             {"diff", {{"ptx_added", state.inside.ptx_added}, {"ptx_removed", state.inside.ptx_removed},
                                       {"sass_added", state.inside.sass_added}, {"sass_removed", state.inside.sass_removed}}},
                             {"fault_line", session.fault_line()},
                             {"finding_fault_line", session.finding_fault_line()}};
    nlohmann::json locations = nlohmann::json::array();
    for (const auto& location : session.fault_locations())
        locations.push_back({{"finder", std::string(name_of(location.finder))}, {"found", location.found}, {"line", location.line},
                             {"message", location.message}, {"problem", location.problem}});
    inside["fault_locations"] = locations;
    if (const RunInspection* now = inspector.current()) {
        const KernelInspection& k = now->inspection;
        inside.update({{"run", now->run}, {"compiled", k.compiled}, {"problem", k.problem}, {"kernel", k.kernel}, {"arch", k.arch},
                       {"registers", k.resources.registers}, {"spill_store_bytes", k.resources.spill_store_bytes},
                       {"spill_load_bytes", k.resources.spill_load_bytes}, {"static_smem_bytes", k.resources.static_smem_bytes},
                       {"ptx_lines", k.ptx.lines.size()}, {"sass_lines", k.sass ? k.sass->lines.size() : 0}, {"sass_problem", k.sass_problem},
                       {"occupancy", k.occupancy ? k.occupancy->fraction : -1.0},
                       {"changes", describe_changes(inspector.changes())}});
        if (const RunInspection* before = inspector.previous()) inside["previous_run"] = before->run;
    }
    if (const auto& profile = session.profile()) {
        inside["profile"] = {{"ok", profile->summary.has_value()}, {"problem", profile->problem}};
        if (profile->summary) inside["profile"]["dram_throughput_pct"] = profile->summary->dram_throughput_pct;
    }
    return inside;
}

// "Who wrote each pixel": whether it is on, the map's counts and the overlay, and the hover line.
nlohmann::json writers_dump(const AppState& state) {
    const KernelSession& session = state.session;
    const WritersUiState& ui = state.writers;
    const char* modes[] = {"off", "blocks", "edges"};
    nlohmann::json dump = {{"showing", session.showing_writers()}, {"mapping", session.mapping_writers()},
                           {"problem", session.writers_problem()}, {"overlay", modes[static_cast<int>(ui.mode)]},
                           {"hover", ui.hover_line}};
    if (const WriterMap* map = session.writer_map())
        dump["map"] = {{"buffer", map->buffer}, {"kernel", map->kernel}, {"cells", map->cells.size()}, {"blocks", ui.counts.blocks},
                       {"unwritten", ui.counts.unwritten}, {"many", ui.counts.many}, {"grid", {map->grid.x, map->grid.y, map->grid.z}}, {"block", {map->block.x, map->block.y, map->block.z}},
                       {"seconds", session.writers_seconds()}, {"overlay_drawn", ui.drawn_for == session.output_version() && bool(ui.texture)},
                       {"series_bands", ui.series_bands}};
    return dump;
}

// The update frames' parts, p50 and p99 of each.
nlohmann::json frame_parts(const AppState::FrameParts& parts) {
    const auto of = [](const FrameStats& stats) { return nlohmann::json{{"p50", stats.percentile(50)}, {"p99", stats.percentile(99)}}; };
    return {{"take_in", of(parts.take_in)}, {"draw", of(parts.draw)}, {"swap", of(parts.swap)}};
}

// Per edit: [handed to the worker, answer read, on screen], ms from the save, and whether the answer on
// screen was the run's checked result (its first part) rather than its final answer.
nlohmann::json edit_stages(const std::vector<EditStages>& stages) {
    nlohmann::json list = nlohmann::json::array();
    for (const EditStages& edit : stages) list.push_back({edit.sent_ms, edit.answered_ms, edit.presented_ms, edit.checked_first});
    return list;
}

}  // namespace

void write_state_dump(const AppState& state, const std::filesystem::path& path) {
    const KernelSession& session = state.session;
    nlohmann::json dump = {{"file", session.file().string()},
                           {"busy", session.busy()},
                           {"device_banner", session.device_banner()},
                           {"notice", session.notice()},
                           {"file_error", session.file_error()},
                           {"image_path", session.inputs.image_path},
                           {"spec_error", session.spec_error()},
                           {"reloads", session.reloads()},
                           {"runs_submitted", session.runs_submitted()},
                           {"results_received", session.results_received()},
                           {"history_size", session.history().size()},
                           {"output_stale", session.shown_is_stale()},
                           {"has_output", session.shown().has_value()},
                           {"shader_error", state.views.shader_error()},
                           {"frames", state.frames.frames()},
                           {"frames_while_busy", state.frames_while_busy},
                           {"text_overflow_px", state.text_overflow_px},
                           {"status_message", state.status_message},
                           {"output_dir", state.output_dir},
                           {"font", state.font},
                           {"frame_ms_p50", state.frames.percentile(50)},
                           {"frame_ms_p99", state.frames.percentile(99)},
                           {"update_frame_ms_p50", state.update_frames.percentile(50)},
                           {"update_frame_ms_p99", state.update_frames.percentile(99)},
                           {"update_frame_parts_ms", frame_parts(state.update_parts)},
                           {"worker_ready_to_taken_in_ms", {{"p50", state.answer_waits.percentile(50)}, {"p99", state.answer_waits.percentile(99)}}},
                           {"loop_trace", state.loop_trace.to_json()},
                           {"slow_frames", state.loop_trace.slow_frames()},
                           {"edit_to_result_ms", session.latencies_ms()},
                           {"edit_stages_ms", edit_stages(session.latency_stages())},
                           {"opened_to_result_ms", session.opened_to_result_ms() ? nlohmann::json(*session.opened_to_result_ms()) : nlohmann::json()},
                           {"showing_opened_result", session.showing_opened_result()},
                           {"launch_to_result_ms", state.launch_to_result_ms ? nlohmann::json(*state.launch_to_result_ms) : nlohmann::json()},
                           {"emulating", session.emulating()},
                           {"sizes", session.current_sizes()}};
    if (session.spec()) {
        const TaskSpec& task = session.spec()->task;
        dump["task"] = task.name;
        dump["view_kind"] = spec_name(task.presentation.output);
    }
    if (const auto& shown = session.shown()) {
        // The view on screen: its texels (an image's may be downsampled, step pixels a side each).
        const OutputView& view = shown->view;
        dump["output_view"] = {{"width", view.width}, {"height", view.height}, {"step", view.step}, {"image_w", view.cols}, {"image_h", view.rows},
                        {"fetching_full", session.fetching_full_view()}, {"full_problem", session.full_view_problem()},
                        {"channels", view.channels}, {"white", state.views.white()}};
    }
    nlohmann::json history = nlohmann::json::array();
    for (const auto& h : session.history())
        history.push_back({{"run", h.run}, {"median_ms", h.median_ms}, {"compile_ms", h.compile_ms}, {"cache_hit", h.cache_hit},
                           {"passed", h.passed}, {"edit_to_result_ms", h.latency_ms}, {"worker_ms", h.worker_ms}, {"reused", h.reused},
                           {"registers", h.registers}, {"spill_bytes", h.spill_bytes}});
    dump["history"] = history;
    dump["history_plot"] = {{"rect", state.history_plot_rect}, {"points", state.history_plot_points},
                            {"hovered_run", state.history_hovered_run}};
    nlohmann::json picker = nlohmann::json::array();  // what the kernel picker offers: folder/file and its summary
    for (const auto& entry : state.kernels)
        picker.push_back({{"file", entry.task + "/" + entry.path.filename().string()}, {"summary", entry.summary}});
    dump["kernel_picker"] = picker;
    dump["view"] = {{"scale", state.view.scale}, {"offset", {state.view.offset_x, state.view.offset_y}}};
    const char* names[] = {"input", "output", "difference", "error_map"};
    for (int i = 0; i < 4; ++i)
        if (state.view_rects[i][2] > 0) dump["view"][names[i]] = state.view_rects[i];
    if (state.series_rect[2] > 0) dump["view"]["series"] = state.series_rect;
    if (state.scalar_rect[2] > 0) dump["view"]["scalar"] = state.scalar_rect;
    if (state.bars_rect[2] > 0) {
        dump["view"]["bars"] = state.bars_rect;
        dump["view"]["bars_hovered"] = state.bars_hovered;
    }
    dump["right_tab"] = state.right_tab == 1 ? "inside" : state.right_tab == 2 ? "sweep" : state.right_tab == 3 ? "debug" : state.right_tab == 4 ? "compare" : "output";
    dump["sweep"] = sweep_dump(state);
    dump["pool"] = pool_dump(state);
    // The Compare tab: the same JSON as kplay-cli bench --pool --json, for the groups finished so far.
    dump["compare"] = {{"running", state.compare.running()},
                       {"problem", state.compare.problem()},
                       {"titles", state.compare.titles()},
                       {"table", bench_columns_json(state.compare.columns(), {})}};
    dump["debug"] = debug_dump(state.debug);
    if (state.session.client().remote()) {
        const RemoteStatus& link = state.session.client().remote_status();
        dump["remote"] = {{"label", link.label},         {"connected", link.connected}, {"connections", link.connections},
                          {"connect_ms", link.connect_ms}, {"link_ms", link.link_ms},   {"bytes_sent", link.bytes_sent},
                          {"bytes_received", link.bytes_received}};
    }
    dump["inside"] = inside_dump(state);
    dump["writers"] = writers_dump(state);
    if (session.last()) dump["last"] = to_json(*session.last());
    if (session.shown()) {
        const RunReport& shown = *session.shown();
        dump["shown"] = {{"stage", stage_name(shown.stage)}, {"passed", shown.check.passed}, {"kind", spec_name(shown.view.kind)},
                         {"buffer", shown.view.buffer}, {"width", shown.view.width}, {"height", shown.view.height},
                         {"input_w", shown.view.input_w}, {"input_h", shown.view.input_h},
                         {"series_count", shown.view.series.count}, {"series_entries", shown.view.series.entries()}};
        // The worker's own timeline of the run on screen (ms from its start): where an edit's time went.
        const RunTimes& t = shown.times;
        dump["shown"]["times"] = {{"compiled_at_ms", t.compiled_at_ms}, {"loaded_at_ms", t.loaded_at_ms}, {"launched_at_ms", t.launched_at_ms},
                                  {"checked_at_ms", t.checked_at_ms}, {"partial_at_ms", t.partial_at_ms}, {"run_ms", t.run_ms}};
    }
    write_file_atomically(path, dump.dump(2));
}

bool write_screenshot(const std::filesystem::path& path, int width, int height) {
    std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    // OpenGL's rows run bottom-up; PNG's top-down.
    stbi_flip_vertically_on_write(1);
    const int ok = stbi_write_png(path.c_str(), width, height, 3, pixels.data(), width * 3);
    stbi_flip_vertically_on_write(0);
    return ok != 0;
}

}  // namespace kplay::window
