// Starting ncu in the background and collecting its summary.
#include "session/run_profiler.hpp"

#include "inspect/cuda_tools.hpp"

namespace kplay {

bool RunProfiler::can_profile(const RunReport& ran) const {
    if (!ran.ok() || ran.emulated || running()) return false;
    // Asked every frame (the Profile button): the search of PATH and the toolkit folders is done once.
    if (!ncu_found_) ncu_found_ = find_cuda_tool(CudaTool::ncu).found();
    return *ncu_found_;
}

void RunProfiler::start(const std::filesystem::path& cli, const RunRequest& request, const RunReport& ran, int run) {
    work_.start(run, [cli, request, ran] { return profile_with_ncu(cli, request, ran); });
}

}  // namespace kplay
