// The window's sweep, free of GUI code: the space as the user types it, starting and cancelling a
// sweep of the open file on a worker of its own, and "apply best": to the window's launch settings, or
// (on request, after a preview) into the file's annotation. Tested below the GUI, on the emulated device.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "client/worker_client.hpp"
#include "session/kernel_session.hpp"
#include "sweep/annotation_edit.hpp"
#include "sweep/sweep.hpp"

namespace kplay {

// What a sweep of the open file starts from, taken from the window's session.
struct SweepStart {
    std::filesystem::path file;
    std::string source;
    DeviceQuery devices;
    bool emulate = false;
    int ordinal = 0;
    int warmup = 3, repeat = 20;
    uint64_t seed = 1;
    std::string size_text;  // empty: the task's bench size
};
SweepStart sweep_start_from(const KernelSession& session, bool at_current_sizes);

// The launch settings that reproduce a point in the window: its block, literals and defines, and the
// sizes it swept.
struct LaunchChange {
    std::optional<std::array<int64_t, 3>> block;
    std::map<std::string, std::string> args;
    std::vector<std::pair<std::string, std::string>> defines;
    std::map<std::string, int64_t> sizes;
};
LaunchChange launch_change(const SweepTarget& target, const SweepPoint& point);

class SweepSession {
public:
    explicit SweepSession(WorkerOptions options = {});

    // The editor's text from the file's kplay-sweep lines, else a starting point: the block's first
    // axis over powers of two, and each literal argument over half, once and twice its value.
    void suggest(const std::string& source, const std::optional<KernelSpec>& spec);
    // False (the reason in problem()) when the text, the file or the device does not allow a sweep.
    bool start(const SweepStart& start);
    // The same on a pool's group: `workers` lent by PoolSession, which `start.devices` came from.
    bool start(const SweepStart& start, std::vector<SweepWorker> workers);
    // A pool sweep's workers, once it is over (empty before, and for a sweep on the window's own worker).
    std::vector<std::unique_ptr<WorkerClient>> take_back_pool_workers();
    bool on_pool() const { return on_pool_; }
    bool update();  // per frame; true when something changed
    void cancel();
    bool running() const { return sweep_ && !sweep_->finished(); }
    const Sweep* sweep() const { return sweep_.get(); }
    const std::string& problem() const { return problem_; }
    const std::string& notice() const { return notice_; }

    // The winner into the window's launch settings (then a run with them); false when there is none.
    bool apply_to_launch(KernelSession& session);
    // The winner into the file: the edit to preview (nullopt with problem() set when it cannot be made),
    // then the write, which keeps FILE.orig once. The write refuses a file that changed since the preview.
    std::optional<AnnotationEdit> preview_file_edit();
    const std::optional<AnnotationEdit>& preview() const { return preview_; }  // the last one made, until written
    bool write_file_edit(KernelSession& session);

    std::string text;  // the space, one item or more per line (NAME=VALUES; restrict EXPR)
    SweepStrategy strategy = SweepStrategy::exhaustive;
    std::string budget;  // points (40) or seconds (90s); empty: none
    int confirm_top = 3;

private:
    bool start_on(const SweepStart& start, std::vector<SweepWorker> pool_workers);

    WorkerOptions options_;
    std::unique_ptr<Sweep> sweep_;
    bool on_pool_ = false;  // the sweep runs on a pool's workers, not on a worker of its own
    std::vector<std::unique_ptr<WorkerClient>> unused_pool_clients_;  // lent for a sweep that did not start
    std::string problem_, notice_;
    std::string previewed_bytes_;  // the file as the preview read it
    std::optional<AnnotationEdit> preview_;
};

}  // namespace kplay
