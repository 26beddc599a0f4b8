// Recording a run and filling in its later figures.
#include "session/run_history.hpp"

#include "values/verdict.hpp"

#include <ctime>

namespace kplay {

namespace {

std::string time_of_day() {
    const std::time_t now = std::time(nullptr);
    char text[16];
    std::strftime(text, sizeof text, "%H:%M:%S", std::localtime(&now));
    return text;
}

}  // namespace

void RunHistory::record(const RunReport& report, const std::string& source_hash, double worker_ms, bool reused) {
    HistoryEntry entry;
    entry.run = static_cast<int>(entries_.size()) + 1;
    entry.source_hash = source_hash.substr(0, 8);
    entry.time_of_day = time_of_day();
    entry.task = report.task;
    entry.kernel = report.kernel;
    entry.sizes = report.sizes;
    entry.worker_ms = worker_ms;
    entry.reused = reused;
    entry.launch = "grid " + report.launch.grid.text() + " block " + report.launch.block.text();
    entry.median_ms = report.kernel_ms.median;
    entry.min_ms = report.kernel_ms.min;
    entry.max_ms = report.kernel_ms.max;
    entry.gbps = report.gbps;
    entry.gflops = report.gflops;
    entry.unit = report.spec ? report.spec->task.presentation.rate : RateUnit::bytes;
    entry.percent_of_ceiling = report.percent_of_ceiling;
    entry.ceiling_pending = report.ceiling.kind == CeilingKind::cublas && report.ceiling.deferred && !report.emulated;
    entry.compile_ms = report.compile.cache_hit ? report.compile.lookup_ms : report.compile.compile_ms;
    entry.cache_hit = report.compile.cache_hit;
    entry.passed = report.check.passed;
    entries_.push_back(entry);
    if (entries_.size() > kRecent) entries_.erase(entries_.begin());
}

void RunHistory::set_newest_latency(double ms) {
    if (!entries_.empty()) entries_.back().latency_ms = ms;
}

void RunHistory::fill_resources(const std::map<int, PtxasResources>& by_run) {
    for (const auto& [run, resources] : by_run) {
        if (run < 1 || run > size()) continue;
        entries_[run - 1].registers = resources.registers;
        entries_[run - 1].spill_bytes = resources.spill_store_bytes + resources.spill_load_bytes;
    }
}

void RunHistory::fill_ceiling(const std::string& task, const std::string& sizes, double gflops) {
    for (auto& entry : entries_) {
        if (!entry.ceiling_pending || entry.task != task || entry.sizes != sizes) continue;
        entry.ceiling_pending = false;
        if (gflops > 0) entry.percent_of_ceiling = share_of_ceiling(entry.gflops, gflops);
    }
}

}  // namespace kplay
