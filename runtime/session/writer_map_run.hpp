// "Who wrote each element": the result on screen run once more on the emulated device, tracked, with
// the writer of every element of its shown buffer recorded (RunRequest::writer_map). A GPU result is
// mapped the same way: the launch is the same, only the device differs. The map is kept for the result
// it was asked for; while the user keeps it on, each new result is mapped as it comes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "client/worker_client.hpp"
#include "values/run_report.hpp"
#include "values/run_request.hpp"

namespace kplay {

class WriterMapRun {
public:
    // The largest buffer mapped: the tracked re-run keeps about 70 bytes per element of every buffer.
    static constexpr uint64_t kMaxElements = uint64_t{1} << 24;
    // The most work mapped: the emulated device runs a tracked launch at well under a GFLOP/s.
    static constexpr double kMaxFlops = 2e9;

    // Why `shown` cannot be mapped (an output kind without pixels, a buffer too big), or empty.
    static std::string refusal(const RunReport& shown);
    // The request that maps `shown`, made by `request`: the same file, launch and sizes, on the emulated
    // device, tracked, checked at that size only, timed once.
    static RunRequest mapping_request(const RunRequest& request, const RunReport& shown);

    // Asks the worker to map `shown`, result number `version` of the session's screen.
    void start(const RunRequest& request, const RunReport& shown, int version, WorkerClient& worker);
    // The worker's answer to start's request; false for any other answer.
    bool handle(const WorkerResult& result);
    bool running() const { return id_ != 0; }
    int running_for() const { return asked_version_; }  // the version being mapped (while running)
    void clear();

    // The map of result `version`, when it is the one mapped; null otherwise.
    const WriterMap* map_for(int version) const { return map_ && map_version_ == version ? &*map_ : nullptr; }
    // Why the last mapping gave no map (a failed re-run, an unknown buffer), for result `version`.
    const std::string& problem() const { return problem_; }
    int problem_version() const { return problem_version_; }
    double seconds() const { return seconds_; }  // the last mapping's, from asking to the answer

private:
    uint64_t id_ = 0;
    int asked_version_ = -1;
    std::optional<WriterMap> map_;
    int map_version_ = -1;
    std::string problem_;
    int problem_version_ = -1;
    double seconds_ = 0;
};

}  // namespace kplay
