// The window's controller, free of GUI code: which file is open, its live reload, the launch and input
// settings the user edited, the requests in flight to kplay-worker, and the results and history they
// produce. It lives in the client library so it is tested below the GUI, against a fake worker.
//
// Everything here runs on the UI thread and never blocks: saves arrive from FileWatcher, results from
// WorkerClient::poll(). A result that a newer save has overtaken is dropped.
#pragma once

#include <array>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/file_watcher.hpp"
#include "client/run_report.hpp"
#include "client/run_request.hpp"
#include "client/worker_client.hpp"
#include "inspect/fault_finder.hpp"
#include "inspect/profiler.hpp"
#include "session/background.hpp"
#include "session/kernel_inspector.hpp"
#include "spec/kernel_spec.hpp"

namespace kplay {

using Clock = std::chrono::steady_clock;

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
    int warmup = 3;
    int repeat = 20;
};

struct HistoryEntry {
    int run = 0;
    std::string source_hash;
    std::string time_of_day;  // wall clock, HH:MM:SS
    std::string task, kernel, launch, sizes;
    double median_ms = 0, min_ms = 0, max_ms = 0;
    double gbps = 0, gflops = 0, percent_of_ceiling = 0;
    RateUnit unit = RateUnit::bytes;
    double compile_ms = 0;
    bool cache_hit = false;
    bool passed = false;
    bool reused = false;     // the result of an identical earlier run, shown without running again
    bool ceiling_pending = false;  // recorded while its cuBLAS ceiling was still being measured
    double latency_ms = -1;  // edit -> result on screen, when the run came from a save
    double worker_ms = 0;    // request sent -> result back (compile, run, check, transfer)
    int registers = -1;      // ptxas's figures for the kernel, once its inspection arrived (-1: not known)
    int spill_bytes = -1;    // spill stores + loads
    double rate() const { return unit == RateUnit::flops ? gflops : gbps; }
};

class KernelSession {
public:
    explicit KernelSession(WorkerOptions options);

    // Opens a kernel file; its launch overrides are cleared unless `keep_overrides` (restored settings).
    void open(const std::filesystem::path& file, bool keep_overrides = false);
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

    const std::filesystem::path& file() const { return file_; }
    const std::string& source() const { return source_; }
    const std::optional<KernelSpec>& spec() const { return spec_; }
    // The task of the open file (from its spec), or null while the spec does not resolve.
    const TaskSpec* task() const { return spec_ ? &spec_->task : nullptr; }
    // The current task's sizes: the user's, else those of the last run, else the task's defaults.
    NamedValues current_sizes() const;
    const std::string& spec_error() const { return spec_error_; }
    const std::string& file_error() const { return file_error_; }
    bool busy() const { return in_flight_ != 0 || deferred_submit_.has_value(); }
    double busy_seconds() const;
    // The phase of the run in flight and how far it has got (-1: unknown), e.g. a long CPU reference.
    Phase busy_phase() const;
    double busy_fraction() const;
    const std::optional<RunReport>& last() const { return last_; }    // the newest result, good or bad
    const std::optional<RunReport>& shown() const { return shown_; }  // the newest result with outputs
    bool shown_is_stale() const { return shown_stale_; }
    const std::vector<HistoryEntry>& history() const { return history_; }
    const DeviceQuery& devices() const { return devices_; }
    bool devices_known() const { return devices_known_; }
    std::string device_banner() const;
    // Runs go to the emulated CPU device: chosen in the menu, or because there is no GPU.
    bool emulating() const { return inputs.device == kEmulatedDevice || (devices_known_ && devices_.devices.empty()); }
    const std::string& notice() const { return notice_; }
    int reloads() const { return reloads_; }
    int runs_submitted() const { return runs_submitted_; }
    int results_received() const { return results_received_; }
    int output_version() const { return output_version_; }  // changes whenever shown() changes
    const std::vector<double>& latencies_ms() const { return latencies_ms_; }  // edits only
    // Opening the file to its first result on screen (the worker's start included), once there is one;
    // whether the result on screen is that one rather than an edit's.
    std::optional<double> opened_to_result_ms() const { return opened_to_result_ms_; }
    bool showing_opened_result() const { return last_latency_opened_; }
    // Why the deferred cuBLAS ceiling of the last run could not be measured (empty while fine).
    const std::string& baseline_note() const { return baseline_note_; }
    WorkerClient& client() { return client_; }

    // Inside the kernel: each run's file compiled for inspection (PTX, SASS, resources), kept per run.
    const KernelInspector& inspector() const { return inspector_; }

    // After a sticky GPU fault: the same launch again on the emulated device, and under compute-sanitizer
    // where it is installed (in the background), each naming the line it finds.
    bool can_find_fault_line() const;  // a GPU fault whose line is not being or been looked for
    void find_fault_line();
    bool finding_fault_line() const { return fault_rerun_ != 0 || sanitizer_work_.running(); }
    const std::vector<FaultLocation>& fault_locations() const { return fault_locations_; }
    // The line to mark in the source: the first finder's that found one (0: none).
    int fault_line() const;
    bool find_fault_automatically = false;  // a setting: look as soon as a fault comes

    // Nsight Compute on the last good run, in its own process in the background.
    bool can_profile() const;
    void profile_last_run();
    bool profiling() const { return profile_work_.running(); }
    const std::optional<ProfileOutcome>& profile() const { return profile_; }
    int profile_run() const { return profile_run_; }  // the history's run it belongs to
    int watcher_descriptor() const { return watcher_.descriptor(); }

    LaunchOverrides overrides;
    InputSettings inputs;

private:
    void load_source(Clock::time_point changed_at, bool force, bool opened = false);
    void submit(bool automatic);
    RunRequest make_request() const;
    void handle(WorkerResult result, bool from_thorough_worker = false);
    void handle_devices(const WorkerResult& result);
    void handle_baseline(const WorkerResult& result);
    // `after_partial`: its checked result was shown already (show_partial); `same_view`: with the same arrays.
    void accept(RunReport report, double worker_ms, bool reused, bool after_partial = false, bool same_view = false);
    void show_partial(RunReport report);
    void record_history(const RunReport& report, double worker_ms, bool reused);
    void ask_for_library_ceiling(const RunReport& report);
    void apply_library_ceiling(RunReport& report) const;
    void ask_for_inspection(const RunReport& report);
    void handle_fault_rerun(const WorkerResult& result);
    bool poll_background();
    std::filesystem::path sibling_cli() const;

    WorkerClient client_;
    KernelInspector inspector_;
    RunRequest in_flight_request_, last_request_;  // the request of the run in flight, and of last_
    uint64_t fault_rerun_ = 0;
    std::vector<FaultLocation> fault_locations_;
    Background<FaultLocation> sanitizer_work_;
    Background<ProfileOutcome> profile_work_;
    std::optional<ProfileOutcome> profile_;
    int profile_run_ = 0, profiling_run_ = 0;
    mutable std::optional<bool> ncu_found_;  // whether ncu is installed, looked up once
    // Thorough runs need a worker with the sanitizer runtimes preloaded: a second one, made when first asked for.
    std::unique_ptr<WorkerClient> thorough_client_;
    WorkerOptions options_;
    bool in_flight_thorough_ = false;  // the run in flight went to the thorough worker
    FileWatcher watcher_;
    std::filesystem::path file_;
    std::string source_, source_hash_;
    std::optional<KernelSpec> spec_;
    std::string spec_error_, file_error_, notice_;
    std::optional<RunReport> last_, shown_;
    bool shown_stale_ = false;
    std::vector<HistoryEntry> history_;
    DeviceQuery devices_;
    bool devices_known_ = false;
    uint64_t devices_request_ = 0;
    bool devices_failed_ = false;  // the last device query got no answer (the worker or its host out of reach)
    bool answering_devices_ = false;  // submit() called with the device query's answer
    uint64_t in_flight_ = 0;  // the run request whose result we wait for (0: none)
    Clock::time_point in_flight_since_{};
    // What started a run's clock: a save (edit -> result), or opening the file (the first result, the
    // worker's start included: not an edit, and kept out of the latency figures).
    struct LatencyStart {
        Clock::time_point at;
        bool opened = false;
    };
    std::optional<LatencyStart> in_flight_change_;  // the save (or the opening) that caused it
    std::optional<bool> deferred_submit_;  // a run asked for before the device list came (automatic or not)
    std::string hung_key_;                 // source+settings that hung: not re-run automatically
    std::string in_flight_key_;
    std::optional<Clock::time_point> retry_at_;
    Clock::time_point retry_change_{};
    int retries_ = 0;
    std::optional<LatencyStart> latency_start_;
    bool latency_pending_ = false;
    uint64_t partial_of_ = 0;     // the run in flight whose checked result is on screen (0: none)
    std::optional<double> partial_latency_ms_;  // its edit->result time, for its history entry
    bool shown_partial_ = false;  // shown_ holds that result's arrays
    std::optional<double> opened_to_result_ms_;
    bool last_latency_opened_ = false;
    int reloads_ = 0, runs_submitted_ = 0, results_received_ = 0, output_version_ = 0;
    std::vector<double> latencies_ms_;
    // Results of recent (source, settings) keys: a save that brings back earlier content (an undo, a
    // revert) shows the result it had at once, without asking the worker. F5 always runs for real.
    std::vector<std::pair<std::string, RunReport>> recent_results_;
    // cuBLAS fp32 GFLOP/s per task and sizes ("matmul|1024x1024x1024"), measured once each in the
    // background; negative when cuBLAS cannot run here.
    std::map<std::string, double> library_gflops_;
    uint64_t baseline_request_ = 0;
    std::string baseline_key_, baseline_note_;
};

}  // namespace kplay
