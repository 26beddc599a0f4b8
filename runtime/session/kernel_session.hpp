// The window's controller, free of GUI code: which file is open, its live reload, the launch and input
// settings the user edited, the requests in flight to kplay-worker, and the results and history they
// produce. It lives in the client library so it is tested below the GUI, against a fake worker.
//
// It coordinates: each part's state lives with its behaviour in a helper beside it (the live file, the
// workers and device list, the run in flight, the results on screen, the history, the edit->result
// clock, the recent results, the cuBLAS ceiling, and the follow-ups: inspection, fault finding and
// profiling); what is left here is which helper hears of what, and when.
//
// Everything here runs on the UI thread and never blocks: saves arrive from FileWatcher, results from
// WorkerClient::poll(). A result that a newer save has overtaken is dropped.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "client/worker_client.hpp"
#include "inspect/fault_finder.hpp"
#include "inspect/profiler.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "session/full_view_fetch.hpp"
#include "session/clock.hpp"
#include "session/fault_line_search.hpp"
#include "session/kernel_inspector.hpp"
#include "session/latency_clock.hpp"
#include "session/library_ceiling.hpp"
#include "session/live_file.hpp"
#include "session/recent_results.hpp"
#include "session/results_on_screen.hpp"
#include "session/run_history.hpp"
#include "session/line_access_run.hpp"
#include "session/run_profiler.hpp"
#include "session/run_tracker.hpp"
#include "session/worker_pair.hpp"
#include "session/writer_map_run.hpp"
#include "values/run_report.hpp"
#include "values/run_request.hpp"

namespace kplay {

// What the user changed in the window; unset fields follow the file's annotation.
struct LaunchOverrides {
    std::optional<std::array<int64_t, 3>> block;
    std::optional<std::array<int64_t, 3>> grid;  // unset: auto
    std::optional<int64_t> smem;
    std::map<std::string, std::string> args;                   // literal arguments, e.g. tw
    std::vector<std::pair<std::string, std::string>> defines;  // -D, added to the annotation's
};

// The device menu's entry for the emulated CPU device.
constexpr int kEmulatedDevice = -1;

struct InputSettings {
    std::string image_path;  // tasks with an image input; empty: built-in image
    // Sizes the user set, per task name: a task's sizes follow its defaults until the user edits them.
    std::map<std::string, NamedValues> sizes;
    uint64_t seed = 1;
    int device = 0;  // a GPU ordinal, or kEmulatedDevice
    ThreadOrder thread_order = ThreadOrder::forward;  // the emulated device's
    uint64_t order_seed = 1;
    bool thorough = false;  // the emulated device with AddressSanitizer and UBSan (its own worker)
    // The emulated device's loads and stores tracked for races (RunRequest::emulation_track). Off in the
    // window until the Device menu turns it on: a tracked run pays a second host build, which the live
    // loop's first result would wait for.
    bool track = false;
    int warmup = 3;
    int repeat = 20;
};

class KernelSession {
public:
    explicit KernelSession(WorkerOptions options);

    // Opens a kernel file; its launch overrides are cleared unless `keep_overrides` (restored settings).
    void open(const std::filesystem::path& file, bool keep_overrides = false);
    // The user's header folders (KPLAY_INCLUDE_PATH): searched by every run's compile after the file's
    // include=, and watched with the file (a header's save there runs the file again).
    void set_include_dirs(std::vector<std::string> dirs);
    void set_image(const std::string& path);
    void set_size(const std::string& name, int64_t value);  // one of the current task's sizes
    void reset_sizes();                                     // back to the task's defaults
    // All of the current task's sizes from text ("1000x999x1001", "R=3,C=1000"), then a run with
    // them; false (the reason in notice()) when the text does not fit the task.
    bool set_size_text(const std::string& text);
    void recompile();  // Ctrl+R: compile and run again even if the file did not change
    void rerun();      // F5: run again (allowed after a hang too: the user asked)
    void apply_settings();  // launch or input settings changed: run with them
    // Per frame: saves, retries of unreadable files, results. Returns true when something changed.
    bool update();
    // Call once the frame that shows a new result is on screen: closes the edit->result latency.
    void frame_presented();

    // Launch settings validated before they are sent; empty when fine.
    std::vector<std::string> launch_problems() const;

    const std::filesystem::path& file() const { return file_.path(); }
    const std::string& source() const { return file_.source(); }
    const std::optional<KernelSpec>& spec() const { return file_.spec(); }
    // The task of the open file (from its spec), or null while the spec does not resolve.
    const TaskSpec* task() const { return spec() ? &spec()->task : nullptr; }
    // The current task's sizes: the user's, else those of the last run, else the task's defaults.
    NamedValues current_sizes() const;
    const std::string& spec_error() const { return file_.spec_error(); }
    const std::string& file_error() const { return file_.error(); }
    bool busy() const { return run_.waiting() || workers_.holds_run(); }
    double busy_seconds() const { return run_.busy_seconds(); }
    // The phase of the run in flight and how far it has got (-1: unknown), e.g. a long CPU reference.
    Phase busy_phase() const { return workers_.answering(run_.thorough()).phase(); }
    double busy_fraction() const { return workers_.answering(run_.thorough()).phase_fraction(); }
    const std::optional<RunReport>& last() const { return screen_.last(); }    // the newest result, good or bad
    const std::optional<RunReport>& shown() const { return screen_.shown(); }  // the newest result with outputs
    bool shown_is_stale() const { return screen_.stale(); }
    const std::vector<HistoryEntry>& history() const { return history_.entries(); }
    const DeviceQuery& devices() const { return workers_.devices(); }
    bool devices_known() const { return workers_.devices_known(); }
    std::string device_banner() const { return workers_.device_banner(); }
    // Runs go to the emulated CPU device: chosen in the menu, or because there is no GPU.
    bool emulating() const { return inputs.device == kEmulatedDevice || (devices_known() && devices().devices.empty()); }
    const std::string& notice() const { return notice_; }
    int reloads() const { return file_.reloads(); }
    int runs_submitted() const { return run_.submitted(); }
    int results_received() const { return run_.received(); }
    int output_version() const { return screen_.version(); }  // changes whenever shown() changes
    const std::vector<double>& latencies_ms() const { return latency_.edits_ms(); }  // edits only
    const std::vector<EditStages>& latency_stages() const { return latency_.edit_stages(); }
    // Opening the file to its first result on screen (the worker's start included), once there is one;
    // whether the result on screen is that one rather than an edit's.
    std::optional<double> opened_to_result_ms() const { return latency_.opened_to_result_ms(); }
    bool showing_opened_result() const { return latency_.showing_opened_result(); }
    // Why the deferred cuBLAS ceiling of the last run could not be measured (empty while fine).
    const std::string& baseline_note() const { return ceiling_.note(); }
    WorkerClient& client() { return workers_.main(); }
    // Where the answer of the run in flight arrives: the main worker's, or the thorough one's.
    int answer_fd() const { return workers_.answering(run_.thorough()).wait_fd(); }

    // Inside the kernel: each run's file compiled for inspection (PTX, SASS, resources), kept per run.
    const KernelInspector& inspector() const { return inspector_; }

    // After a sticky GPU fault: the same launch again on the emulated device, and under compute-sanitizer
    // where it is installed (in the background), each naming the line it finds.
    bool can_find_fault_line() const { return last() && faults_.can_start(*last()); }
    void find_fault_line();
    // racecheck, synccheck or initcheck on the last GPU run, passing or not (a race often passes).
    bool can_check_with(SanitizerTool tool) const { return last() && faults_.can_start_tool(*last(), tool); }
    void check_with(SanitizerTool tool);
    bool finding_fault_line() const { return faults_.running(); }
    const std::vector<FaultLocation>& fault_locations() const { return faults_.locations(); }
    // The line to mark in the source: the first finder's that found one (0: none).
    int fault_line() const;
    bool find_fault_automatically = false;  // a setting: look as soon as a fault comes

    // Nsight Compute on the last good run, in its own process in the background.
    // ncu's memory counters per source line of the last GPU run (the Inside tab's gutter).
    bool can_measure_lines() const;
    void measure_lines();
    bool measuring_lines() const { return lines_.running(); }
    const std::optional<LineProfileOutcome>& line_access() const { return lines_.outcome(); }
    int line_access_run() const { return lines_.run(); }  // the history's run it belongs to
    bool can_profile() const { return last() && profiler_.can_profile(*last()); }
    void profile_last_run();
    bool profiling() const { return profiler_.running(); }
    const std::optional<ProfileOutcome>& profile() const { return profiler_.outcome(); }
    int profile_run() const { return profiler_.run(); }  // the history's run it belongs to
    int watcher_descriptor() const { return file_.descriptor(); }

    // Who wrote each element of the output on screen: the shown result run again on the emulated device,
    // tracked (WriterMapRun). While on, every new result is mapped as it comes.
    std::string writers_refusal() const;  // why the shown result cannot be mapped; empty when it can
    void show_writers(bool on);
    bool showing_writers() const { return show_writers_; }
    bool mapping_writers() const { return writers_.running(); }
    const WriterMap* writer_map() const { return writers_.map_for(screen_.version()); }
    // Why the shown result has no map (its re-run failed, or recorded nothing); empty otherwise.
    std::string writers_problem() const;
    double writers_seconds() const { return writers_.seconds(); }

    // An image output comes viewed at most this many pixels a side (RunRequest::view_side; 0: whole);
    // its full resolution when the user looks closely: a zoom past the view's pixels, a Save.
    static constexpr int kScreenViewSide = 1024;
    void look_closely();
    // While the full resolution of the view on screen is on its way; why it could not come.
    bool fetching_full_view() const { return shown() && full_view_.waiting_for(shown()->view); }
    const std::string& full_view_problem() const { return full_view_.problem(); }

    LaunchOverrides overrides;
    InputSettings inputs;
    int view_side = kScreenViewSide;

private:
    void load(Clock::time_point changed_at, bool force, bool opened = false);
    void new_text(Clock::time_point changed_at, bool opened);
    // `devices_just_came`: the run held for the device list, submitted by its answer.
    void submit(bool automatic, bool devices_just_came = false);
    void cut_short_run_in_flight();
    RunRequest make_request() const;
    void handle(WorkerResult result, bool from_thorough_worker = false);
    bool handle_side_answer(const WorkerResult& result);  // the main worker's answers that are not the user's run
    void ceiling_measured(const LibraryCeiling::Measured& measured);
    // `after_partial`: its checked result was shown already (show_partial); `same_view`: with the same arrays.
    void accept(RunReport report, double worker_ms, bool reused, bool after_partial = false, bool same_view = false);
    void show_partial(RunReport report);
    void ask_for_library_ceiling(const RunReport& report);
    void ask_for_inspection(const RunReport& report);
    bool poll_background();
    void map_writers();  // of the shown result, unless mapped or being mapped

    WorkerPair workers_;
    LiveFile file_;
    std::vector<std::string> include_dirs_;
    RunTracker run_;
    ResultsOnScreen screen_;
    RunHistory history_;
    LatencyClock latency_;
    RecentResults recent_;
    LibraryCeiling ceiling_;
    KernelInspector inspector_;
    FaultLineSearch faults_;
    RunProfiler profiler_;
    LineAccessRun lines_;
    WriterMapRun writers_;
    FullViewFetch full_view_;
    bool shown_thorough_ = false;  // the result on screen came from the thorough worker
    bool show_writers_ = false;
    std::string notice_;
};

}  // namespace kplay
