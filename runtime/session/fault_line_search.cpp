// Starting the fault finders and collecting what they found.
#include "session/fault_line_search.hpp"

#include "inspect/cuda_tools.hpp"

namespace kplay {

bool FaultLineSearch::can_start(const RunReport& faulted) const {
    return can_find_fault_line(faulted) && !running() && locations_.empty();
}

void FaultLineSearch::start(const RunRequest& request, const RunReport& faulted, WorkerClient& worker,
                            const std::filesystem::path& cli) {
    locations_.clear();
    rerun_id_ = worker.submit_run(emulated_rerun_request(request, faulted));
    if (find_cuda_tool(CudaTool::compute_sanitizer).found() && std::filesystem::exists(cli))
        sanitizer_.start([cli, request, faulted] { return find_fault_with_sanitizer(cli, request, faulted); });
}

bool FaultLineSearch::can_start_tool(const RunReport& ran, SanitizerTool tool) const {
    if (!sanitizer_installed_) sanitizer_installed_ = find_cuda_tool(CudaTool::compute_sanitizer).found();
    return tool != SanitizerTool::memcheck && *sanitizer_installed_ && can_run_sanitizer(ran, tool) && !running();
}

void FaultLineSearch::start_tool(const RunRequest& request, const RunReport& ran, const std::filesystem::path& cli, SanitizerTool tool) {
    locations_.clear();
    sanitizer_.start([cli, request, ran, tool] { return find_fault_with_sanitizer(cli, request, ran, 600, tool); });
}

bool FaultLineSearch::handle(const WorkerResult& result) {
    if (result.id == 0 || result.id != rerun_id_) return false;
    rerun_id_ = 0;
    FaultLocation location = location_from_emulated_run(result.run);
    location.seconds = result.elapsed_ms / 1000;
    if (!result.ok()) location.problem = "The emulated re-run did not finish: " + result.failure_message;
    locations_.insert(locations_.begin(), std::move(location));  // the emulated device's first
    return true;
}

bool FaultLineSearch::poll() {
    auto location = sanitizer_.take();
    if (!location) return false;
    locations_.push_back(std::move(*location));
    return true;
}

std::optional<int> FaultLineSearch::found_line() const {
    for (const auto& location : locations_)
        if (location.found) return location.line;
    return std::nullopt;
}

}  // namespace kplay
