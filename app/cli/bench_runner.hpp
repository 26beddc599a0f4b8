// One bench on one device: every file at its task's bench sizes (or the ones asked for), the bandwidth
// ceilings measured in the same run, and cuBLAS at the first GEMM-like file's sizes; into a BenchSummary.
// The one runner behind `kplay-cli bench`, on one worker or on each device group of a pool.
#pragma once

#include <string>
#include <vector>

#include "client/worker_client.hpp"
#include "values/bench_report.hpp"

namespace kplay::cli {

// What bench's options ask of every device.
struct BenchSettings {
    std::vector<std::string> files;
    std::string image, size;
    std::vector<std::string> inits;
    int warmup = 5, repeat = 50;
    bool no_flush = false, no_cublas = false;
    int ordinal = -1;  // --device N: that GPU of the worker; -1: its first
};

// A worker a bench may run on, with the name notes give it ("local GPU 1", "gpu-box").
struct BenchWorker {
    std::string name;
    WorkerClient* client = nullptr;
};

struct BenchOutcome {
    BenchSummary summary;
    std::vector<std::string> notes;  // a worker that dropped out, and where the rest ran
    std::string failure;             // every worker dropped out: the rows after it say "not run"
    std::string device_problem;      // the device could not be used at all (no GPU for --device N)
};

// Runs on `workers[0]`; when its client gives up (its host dropped out), the row it could not run and
// the rest go to the next. `emulated`: the group is the emulated CPU device (its CPU bench sizes, no cuBLAS).
BenchOutcome run_bench(const std::vector<BenchWorker>& workers, const BenchSettings& settings, bool emulated);

// Where a bench's exit status comes from: 5 when a row failed to run or the group stopped, 6 when a
// check failed, else 0.
int bench_exit_code(const BenchOutcome& outcome);

}  // namespace kplay::cli
