// A GEMM-like task's ceiling, cuBLAS fp32 at the run's sizes: measured once per task and sizes in a
// request of its own, queued behind the result that needs it (so it never delays one), then applied to
// every report of those sizes. Runs on the emulated device have no such ceiling.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "client/worker_client.hpp"
#include "values/run_report.hpp"
#include "values/run_request.hpp"

namespace kplay {

class LibraryCeiling {
public:
    // A measurement that came back: cuBLAS's GFLOP/s at task and sizes, <= 0 when it could not run.
    struct Measured {
        std::string task, sizes;
        double gflops = 0;
    };

    // The cuBLAS run for `report`'s task and sizes, when its ceiling was deferred, is not known yet and
    // no other is being measured; the other arguments are the run's own (its file, text, seed, device).
    std::optional<RunRequest> request_for(const RunReport& report, const std::filesystem::path& file,
                                          const std::string& source, uint64_t seed, int device);
    // The request from request_for went out as `id`.
    void submitted(uint64_t id) { request_id_ = id; }
    // A worker answer: the measurement when it was this one's.
    std::optional<Measured> handle(const WorkerResult& result);
    // A deferred ceiling that is known now: the report's share of it, and its verdict, filled in.
    void apply(RunReport& report) const;
    // Why the last measurement failed (empty while fine).
    const std::string& note() const { return note_; }

private:
    using Key = std::pair<std::string, std::string>;  // task, sizes
    std::map<Key, double> gflops_;                    // negative: cuBLAS cannot run here
    uint64_t request_id_ = 0;                         // the measurement in flight (0: none)
    Key measuring_;
    std::string note_;
};

}  // namespace kplay
