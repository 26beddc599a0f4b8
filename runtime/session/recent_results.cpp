// The recent results, newest first and few.
#include "session/recent_results.hpp"

namespace kplay {

void RecentResults::remember(const std::string& key, RunReport& report) {
    if (!report.ok()) return;
    // An input with an identity is left out: shown again, the screen's own fills it (can_fill_input). A
    // photo's planes (100 MB for a 7680x4320 one) were copied here after every run, on the UI thread.
    std::vector<unsigned char> input;
    if (!report.view.input_identity.empty()) input = std::move(report.view.input);
    results_.insert(results_.begin(), {key, report});
    report.view.input = std::move(input);
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
