// The deferred cuBLAS ceiling: asked for once per task and sizes, then applied to reports.
#include "session/library_ceiling.hpp"

#include <algorithm>

#include "values/verdict.hpp"

namespace kplay {

std::optional<RunRequest> LibraryCeiling::request_for(const RunReport& report, const std::filesystem::path& file,
                                                      const std::string& source, uint64_t seed, int device) {
    if (!report.ok() || !report.ceiling.deferred || request_id_ != 0 || report.emulated) return std::nullopt;
    const Key key{report.task, report.sizes};
    if (gflops_.count(key)) return std::nullopt;
    RunRequest baseline;
    baseline.kernel_path = file;
    baseline.source = source;
    baseline.baseline = Baseline::cublas_fp32;
    baseline.inputs.size = report.sizes;
    baseline.inputs.seed = seed;
    baseline.device = std::max(device, 0);
    baseline.check_test_sizes = false;
    baseline.warmup = 2;
    baseline.repeat = 10;
    measuring_ = key;
    return baseline;
}

std::optional<LibraryCeiling::Measured> LibraryCeiling::handle(const WorkerResult& result) {
    if (request_id_ == 0 || result.id != request_id_) return std::nullopt;
    request_id_ = 0;
    const RunReport& baseline = result.run;
    const double gflops = baseline.ok() ? baseline.gflops : -1;
    gflops_[measuring_] = gflops;
    note_ = baseline.ok() ? "" : baseline.error;
    return Measured{measuring_.first, measuring_.second, gflops};
}

void LibraryCeiling::apply(RunReport& report) const {
    if (!report.ok() || report.ceiling.kind != CeilingKind::cublas || !report.ceiling.deferred) return;
    const auto found = gflops_.find({report.task, report.sizes});
    if (found == gflops_.end()) return;
    settle_library_ceiling(report, found->second, note_);
}

}  // namespace kplay
