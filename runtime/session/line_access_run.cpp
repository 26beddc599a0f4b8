// Starting the per-line measurement in the background and collecting it.
#include "session/line_access_run.hpp"

#include "inspect/cuda_tools.hpp"

namespace kplay {

bool LineAccessRun::can_start(const RunReport& ran) const {
    if (!ran.ok() || ran.emulated || running()) return false;
    if (!ncu_found_) ncu_found_ = find_cuda_tool(CudaTool::ncu).found();  // asked every frame
    return *ncu_found_;
}

void LineAccessRun::start(const std::filesystem::path& cli, const RunRequest& request, const RunReport& ran, const Listing& sass, int run) {
    const std::string file = request.kernel_path.string();
    work_.start(run, [cli, request, ran, sass, file] { return profile_lines_with_ncu(cli, request, ran, sass, file); });
}

}  // namespace kplay
