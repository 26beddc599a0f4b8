// The Inside panel's data: after each run, its file compiled for inspection in the worker and
// disassembled off the UI thread; the inspections of recent runs kept, so that each save shows what
// changed (registers 40 -> 72, spills 0 -> 16 B) and the listings can be diffed against any of them.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "values/run_request.hpp"
#include "client/worker_client.hpp"
#include "inspect/kernel_inspection.hpp"
#include "inspect/resource_delta.hpp"
#include "session/background.hpp"

namespace kplay {

struct RunInspection {
    int run = 0;              // the history's run number it belongs to
    std::string text_key;     // the file, text hash, arch and defines compiled: the same key, the same inspection
    KernelInspection inspection;
};

class KernelInspector {
public:
    // The compile request for this run's text; nothing when that text (with these defines, for this arch)
    // was inspected last already.
    std::optional<CompileFileRequest> request_for(const std::filesystem::path& file, const std::string& source, const std::string& source_hash,
                                                  const std::vector<std::pair<std::string, std::string>>& defines, const std::string& arch);
    // The request from request_for went out as `id`, for history run `run` (0: a failed run).
    void submitted(uint64_t id, int run, int block_threads);
    // A worker answer: true when it was this inspector's (the disassembly then starts in the background).
    bool handle(const WorkerResult& result);
    // Collects a finished disassembly; true when the newest inspection changed.
    bool poll();
    bool busy() const { return pending_id_ != 0 || work_.running(); }
    void clear();  // another file was opened

    // The newest inspection, and the last one before it of another text (for the deltas and the diff).
    const RunInspection* current() const { return recent_.empty() ? nullptr : &recent_.front(); }
    const RunInspection* previous() const;
    const RunInspection* of_run(int run) const;  // nullptr once it has left the recent ones
    const std::deque<RunInspection>& recent() const { return recent_; }
    // What changed from previous() to current(); empty when nothing did or either is missing.
    std::vector<ResourceChange> changes() const;
    // Each run's resources as ptxas reported them, for the history (kept for every run).
    const std::map<int, PtxasResources>& resources_by_run() const { return by_run_; }

    static constexpr size_t kRecent = 12;  // a listing of a large kernel is a few hundred KB

private:
    uint64_t pending_id_ = 0;           // the inspect compile in the worker
    int pending_run_ = 0, pending_block_ = 0;
    std::string pending_key_, requested_key_;
    std::string requested_file_;        // the kernel file as the compiler names it
    Background<KernelInspection> work_;  // its disassembly
    int working_run_ = 0;
    std::string working_key_;
    std::deque<RunInspection> recent_;
    std::map<int, PtxasResources> by_run_;
};

}  // namespace kplay
