// One bench on one device: every file at its task's bench sizes (or the ones asked for), the bandwidth
// ceilings measured in the same run, and cuBLAS at the first GEMM-like file's sizes; into a BenchSummary.
// The one runner behind `kplay-cli bench`, on one worker or on each device group of a pool, and behind
// the window's compare across a pool's groups.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/device_groups.hpp"
#include "client/worker_client.hpp"
#include "values/bench_report.hpp"

namespace kplay {

// What bench's options ask of every device.
struct BenchSettings {
    std::vector<std::string> files;
    std::string image, size;
    std::map<std::string, std::string> init_overrides;  // an input's init, e.g. pixels=randint(0,255)
    int warmup = 5, repeat = 50;
    bool no_flush = false, no_cublas = false;
    int ordinal = -1;  // --device N: that GPU of the worker; -1: its first
    // Set by another thread (the window's compare cancelled or closing): the rows not yet begun are not run.
    std::shared_ptr<const std::atomic<bool>> cancel;
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

// A device group to bench: its number in the pool (1-based), its column's title ("H200 sm_90"), its
// arch, whether it is the emulated CPU device, and the device's name for a column no row reached.
struct BenchGroup {
    int number = 0;
    std::string title, arch;
    bool emulated = false;
    std::string device;
};

// One group benched on its workers (run_bench) as its column of the table over groups: a device that
// could not be used at all is the column's failure, said in the column while the other groups' stand.
BenchColumn bench_group(const BenchGroup& group, const std::vector<BenchWorker>& workers, const BenchSettings& settings);

// "sm_90" for a GPU group; empty for the emulated device, which has no architecture of its own.
std::string group_arch(const DeviceGroup& group);

}  // namespace kplay
