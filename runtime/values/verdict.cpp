// The rate, its share of the ceiling, and the words for it.
#include "values/verdict.hpp"

#include <cstdio>

namespace kplay {

namespace {

RateUnit unit_of(const RunReport& report) { return report.spec ? report.spec->task.presentation.rate : RateUnit::bytes; }

std::string percent_text(double percent) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f%%", percent);
    return text;
}

// The report against its ceiling, from its rates: percent_of_ceiling and verdict.
void judge(RunReport& report) {
    const Ceiling& ceiling = report.ceiling;
    const double ceiling_rate = ceiling.kind == CeilingKind::cublas ? ceiling.gflops : ceiling.gbps;
    const double rate = ceiling.kind == CeilingKind::cublas ? report.gflops : report.gbps;
    report.percent_of_ceiling = share_of_ceiling(rate, ceiling_rate);
    char text[160];
    if (report.emulated) {
        report.verdict = "emulated on the CPU: times say nothing about GPU speed";
    } else if (ceiling.kind == CeilingKind::none) {
        std::snprintf(text, sizeof text, "no ceiling declared: %.1f %s", report.rate(), rate_unit_text(unit_of(report)));
        report.verdict = text;
    } else if (ceiling.deferred && ceiling_rate <= 0) {
        report.verdict = "measuring " + (ceiling.name.empty() ? std::string("the ceiling") : ceiling.name) + " at this size...";
    } else if (ceiling_rate <= 0) {
        report.verdict = (ceiling.name.empty() ? std::string("the ceiling") : ceiling.name) + " was not measured";
    } else {
        const char* bound = ceiling.kind == CeilingKind::cublas ? "compute-bound" : "memory-bound";
        report.verdict = std::string(bound) + ": " + percent_text(report.percent_of_ceiling) + " of " + ceiling.name;
    }
}

}  // namespace

std::string cublas_ceiling_name(const TaskSpec& task) {
    const ElementType input = task.gemm_types().input;
    return input == ElementType::f32 ? "cuBLAS fp32" : std::string("cuBLAS ") + spec_name(input);
}

const char* rate_unit_text(RateUnit unit) { return unit == RateUnit::flops ? "GFLOP/s" : "GB/s"; }

double RunReport::rate() const { return unit_of(*this) == RateUnit::flops ? gflops : gbps; }

double share_of_ceiling(double rate, double ceiling_rate) { return ceiling_rate > 0 ? 100.0 * rate / ceiling_rate : 0; }

void apply_verdict(RunReport& report) {
    report.gbps = report.gflops = 0;
    if (report.kernel_ms.median > 0) {
        report.gbps = report.bytes / (report.kernel_ms.median * 1e-3) / 1e9;
        report.gflops = report.flops / (report.kernel_ms.median * 1e-3) / 1e9;
    }
    judge(report);
}

void settle_library_ceiling(RunReport& report, double gflops, const std::string& why_not) {
    if (gflops > 0) {
        report.ceiling.gflops = gflops;
        report.ceiling.deferred = false;
    }
    judge(report);
    if (gflops <= 0) report.verdict = "cuBLAS could not run here: " + why_not;
}

}  // namespace kplay
