// The check report's named metrics.
#include "values/check_report.hpp"

namespace kplay {

std::vector<Metric> BufferCheck::metrics() const {
    return {{"max_abs_error", max_abs_error},
            {"max_rel_error", max_rel_error},
            {"rel_frobenius_error", rel_frobenius_error},
            {"over_tolerance", static_cast<double>(over_tolerance)},
            {"unwritten", static_cast<double>(unwritten)},
            {"nan_inf", static_cast<double>(nan_inf)},
            {"nondeterministic", static_cast<double>(nondeterministic)},
            {"elements", static_cast<double>(elements)}};
}

double CheckReport::metric(const std::string& name) const {
    for (const auto& entry : metrics)
        if (entry.name == name) return entry.value;
    return 0;
}

}  // namespace kplay
