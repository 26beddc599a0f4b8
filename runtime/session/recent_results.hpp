// Good results of recent (source, settings) keys, newest first: a save that brings back earlier content
// (an undo, a revert) shows the result it had at once, without asking the worker. F5 always runs for real.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "values/run_report.hpp"

namespace kplay {

class RecentResults {
public:
    static constexpr size_t kRecent = 8;

    // Kept when it is good (a failure is run again), without an input image the screen can fill in:
    // `report` is handed back as it came.
    void remember(const std::string& key, RunReport& report);
    const RunReport* find(const std::string& key) const;
    // Each kept result changed in place (a ceiling that arrived).
    void update_each(const std::function<void(RunReport&)>& change);

private:
    std::vector<std::pair<std::string, RunReport>> results_;
};

}  // namespace kplay
