// The window's runs, oldest first (the newest kRecent): what ran, how fast, against which ceiling and
// how long the edit took to show. Some figures join an entry after it is recorded: the kernel's
// registers and spills when its inspection arrives, its share of a cuBLAS ceiling that was still being
// measured, and the edit->result time once the frame showing it is on screen.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "inspect/ptxas_report.hpp"
#include "values/run_report.hpp"

namespace kplay {

struct HistoryEntry {
    int run = 0;
    std::string source_hash;
    std::string time_of_day;  // wall clock, HH:MM:SS
    std::string task, kernel, launch, sizes;
    double median_ms = 0, min_ms = 0, max_ms = 0;
    double gbps = 0, gflops = 0, percent_of_ceiling = 0;
    RateUnit unit = RateUnit::bytes;
    double compile_ms = 0;
    bool cache_hit = false;
    bool passed = false;
    bool reused = false;           // the result of an identical earlier run, shown without running again
    bool ceiling_pending = false;  // recorded while its cuBLAS ceiling was still being measured
    double latency_ms = -1;        // edit -> result on screen, when the run came from a save
    double worker_ms = 0;          // request sent -> result back (compile, run, check, transfer)
    int registers = -1;            // ptxas's figures for the kernel, once its inspection arrived (-1: not known)
    int spill_bytes = -1;          // spill stores + loads
    double rate() const { return unit == RateUnit::flops ? gflops : gbps; }
};

class RunHistory {
public:
    static constexpr size_t kRecent = 200;

    // A good run's entry; `source_hash` is the text it ran (its first 8 digits are kept).
    void record(const RunReport& report, const std::string& source_hash, double worker_ms, bool reused);
    // The newest entry's edit->result time (nothing when there is none).
    void set_newest_latency(double ms);
    // ptxas's figures per history run number, as the inspector keeps them.
    void fill_resources(const std::map<int, PtxasResources>& by_run);
    // The cuBLAS ceiling of task and sizes has been measured: the entries recorded while it was get
    // their share of it (`gflops` <= 0: cuBLAS could not run, they stay without one).
    void fill_ceiling(const std::string& task, const std::string& sizes, double gflops);

    const std::vector<HistoryEntry>& entries() const { return entries_; }
    bool empty() const { return entries_.empty(); }
    int size() const { return static_cast<int>(entries_.size()); }
    int newest_run() const { return entries_.empty() ? 0 : entries_.back().run; }

private:
    std::vector<HistoryEntry> entries_;
};

}  // namespace kplay
