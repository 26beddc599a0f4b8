// Asking for a result's writer map and keeping what came back.
#include "session/writer_map_run.hpp"

#include <algorithm>

#include "inspect/fault_finder.hpp"

namespace kplay {

namespace {

uint64_t elements_of(const OutputView& view) {
    if (view.kind == OutputKind::image)
        return static_cast<uint64_t>(view.width) * static_cast<uint64_t>(view.height) * static_cast<uint64_t>(std::max(1, view.channels));
    if (view.kind == OutputKind::matrix) return static_cast<uint64_t>(view.rows) * static_cast<uint64_t>(view.cols);
    if (view.kind == OutputKind::series) return static_cast<uint64_t>(std::max<int64_t>(0, view.series.count));
    return 0;
}

}  // namespace

std::string WriterMapRun::refusal(const RunReport& shown) {
    const OutputView& view = shown.view;
    if (view.kind == OutputKind::bars)
        return "Who wrote each element is shown over an image, a matrix or a series; this task's output is drawn as bars (bins "
               "that many threads add to).";
    if (view.kind != OutputKind::image && view.kind != OutputKind::matrix && view.kind != OutputKind::series)
        return "Who wrote each element is shown over an image, a matrix or a series; this task's output is a single value.";
    if (view.buffer.empty() || elements_of(view) == 0) return "This result has no output to map.";
    if (elements_of(view) > kMaxElements)
        return "'" + view.buffer + "' has " + std::to_string(elements_of(view)) + " elements; the map follows at most " +
               std::to_string(kMaxElements) + ": choose a smaller size to see who wrote them.";
    if (shown.flops > kMaxFlops)
        return "This launch does " + std::to_string(static_cast<long long>(shown.flops / 1e9)) +
               " GFLOP; mapping it runs it on the emulated device, which would take minutes: choose a smaller size (" + shown.sizes + " now).";
    return {};
}

RunRequest WriterMapRun::mapping_request(const RunRequest& request, const RunReport& shown) {
    // The fault finder's emulated re-run (same launch, the size on screen, once, unchecked elsewhere), tracked.
    RunRequest map = emulated_rerun_request(request, shown);
    map.emulation_track = true;
    map.emulation_thorough = false;
    map.emulation_debug = false;
    map.writer_map = shown.view.buffer;
    // Asked for, once: a tracked launch is several times slower than the live loop's, so it gets longer.
    map.emulation_timeout_s = std::max(request.emulation_timeout_s, 60.0);
    map.bench_sizes = false;
    map.progressive = false;
    return map;
}

void WriterMapRun::start(const RunRequest& request, const RunReport& shown, int version, WorkerClient& worker) {
    asked_version_ = version;
    id_ = worker.submit_run(mapping_request(request, shown));
}

bool WriterMapRun::handle(const WorkerResult& result) {
    if (id_ == 0 || result.id != id_) return false;
    if (result.partial) return true;  // never asked for, but not the user's run either
    id_ = 0;
    seconds_ = result.elapsed_ms / 1000;
    const RunReport& run = result.run;
    if (!run.writer_map.empty()) {
        map_ = run.writer_map;
        map_version_ = asked_version_;
        problem_.clear();
        return true;
    }
    problem_version_ = asked_version_;
    if (!result.ok()) problem_ = "The emulated re-run that maps the writers did not finish: " + result.failure_message;
    else if (!run.ok()) problem_ = "The emulated device could not run this launch to map its writers: " + run.error;
    else if (!run.warnings.empty()) problem_ = run.warnings.front();
    else problem_ = "The emulated re-run recorded no writers of '" + run.view.buffer + "'.";
    return true;
}

void WriterMapRun::clear() {
    map_.reset();
    map_version_ = -1;
    problem_.clear();
    problem_version_ = -1;
}

}  // namespace kplay
