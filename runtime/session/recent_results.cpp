// The recent results, newest first and few.
#include "session/recent_results.hpp"

namespace kplay {

void RecentResults::remember(const std::string& key, const RunReport& report) {
    if (!report.ok()) return;
    results_.insert(results_.begin(), {key, report});
    if (results_.size() > kRecent) results_.pop_back();
}

const RunReport* RecentResults::find(const std::string& key) const {
    for (const auto& [recent_key, report] : results_)
        if (recent_key == key) return &report;
    return nullptr;
}

void RecentResults::update_each(const std::function<void(RunReport&)>& change) {
    for (auto& [key, report] : results_) change(report);
}

}  // namespace kplay
