// Copy and read bandwidth measured with CUDA events (the best of several ways), and their small cache files.
#include "cuda/bandwidth_ceiling.hpp"

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "base/cache_dir.hpp"
#include "base/error.hpp"
#include "base/timing_stats.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/driver.hpp"
#include "cuda/copy_kernel.hpp"
#include "cuda/read_kernel.hpp"

namespace kplay {

namespace {

constexpr size_t kBytes = 512ull << 20;
// Each timed sample is this many operations back to back: the dirty lines one copy leaves in L2 are
// written back during the next, so all but the last's are inside the timing. The ceiling then holds
// against a kernel that times its own writes while they still sit in L2.
constexpr int kOperationsPerSample = 4;

// The cache files' names carry the method: a ceiling measured the older way (one operation per sample,
// the driver's copy alone) is measured again rather than read.
std::filesystem::path cache_file(const DeviceInfo& device, const std::filesystem::path& cache_dir, const char* kind) {
    return cache_dir / "ceilings" / (device.uuid + "-" + std::to_string(driver_status().driver_version) + kind + "-v2.txt");
}

// The median of 10 samples after 2 warm-ups, each kOperationsPerSample runs of `operation` (which moves
// `bytes` each).
Ceiling time_operation(const char* name, CeilingKind kind, double bytes, const std::function<void(const Stream&)>& operation) {
    Ceiling ceiling;
    ceiling.kind = kind;
    ceiling.name = name;
    Stream stream = Stream::create();
    Event start = Event::create(), stop = Event::create();
    std::vector<double> samples;
    for (int i = 0; i < 12; ++i) {
        start.record(stream);
        for (int k = 0; k < kOperationsPerSample; ++k) operation(stream);
        stop.record(stream);
        stop.synchronize();
        if (i >= 2) samples.push_back(Event::elapsed_ms(start, stop) / kOperationsPerSample);
    }
    ceiling.ms = summarize_timings(samples).median;
    ceiling.bytes = bytes;
    ceiling.gbps = ceiling.bytes / (ceiling.ms * 1e-3) / 1e9;
    return ceiling;
}

// The cached ceiling, or the best of `candidates` measured now (and kept in the cache file). The name
// says which operation set it.
Ceiling best_of(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure, const char* kind, CeilingKind ceiling_kind,
                const std::function<std::vector<Ceiling>()>& candidates) {
    const std::filesystem::path file = cache_file(device, cache_dir, kind);
    std::string text;
    Ceiling ceiling;
    ceiling.kind = ceiling_kind;
    if (!remeasure && !cache_dir.empty() && read_whole_file(file, text)) {
        char name[96] = {};
        if (std::sscanf(text.c_str(), "%lf %lf %lf %95[^\n]", &ceiling.gbps, &ceiling.ms, &ceiling.bytes, name) == 4 && ceiling.gbps > 0) {
            ceiling.name = name;
            ceiling.cached = true;
            return ceiling;
        }
    }
    for (const Ceiling& candidate : candidates())
        if (candidate.gbps > ceiling.gbps) ceiling = candidate;
    if (!cache_dir.empty()) {
        char line[160];
        std::snprintf(line, sizeof line, "%.3f %.6f %.0f %s\n", ceiling.gbps, ceiling.ms, ceiling.bytes, ceiling.name.c_str());
        write_file_atomically(file, line);
    }
    return ceiling;
}

}  // namespace

Ceiling device_copy_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure) {
    return best_of(device, cache_dir, remeasure, "-copy", CeilingKind::copy, [&] {
        DeviceBuffer source(kBytes), target(kBytes);
        {
            Stream stream = Stream::create();
            source.fill_words(0x3F8CCCCDu, stream);  // 1.1f: never time a copy of zeros
            stream.synchronize();
        }
        std::vector<Ceiling> measured;
        measured.push_back(time_operation("copy bandwidth (driver copy)", CeilingKind::copy, 2.0 * kBytes, [&](const Stream& stream) {
            KPLAY_CU(driver_api().cuMemcpyDtoDAsync(target.get(), source.get(), kBytes, stream.get()));
        }));
        // kplay's copy kernel at a few grid sizes (blocks per SM): the best one is the tuned copy.
        const CopyKernel copier(device);
        for (const int per_sm : {4, 8, 16})
            measured.push_back(time_operation("copy bandwidth (kplay copy kernel)", CeilingKind::copy, 2.0 * kBytes, [&](const Stream& stream) {
                copier.launch(stream, source, target, static_cast<unsigned>(device.sm_count * per_sm), 512);
            }));
        return measured;
    });
}

Ceiling device_read_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure) {
    return best_of(device, cache_dir, remeasure, "-read", CeilingKind::read_only, [&] {
        const ReadKernel reader(device);
        DeviceBuffer data(kBytes);
        {
            Stream stream = Stream::create();
            data.fill_bytes(0x5A, stream);  // real data to read, never zeros
            stream.synchronize();
        }
        std::vector<Ceiling> measured;
        for (const int per_sm : {4, 8, 16})
            measured.push_back(time_operation("read-only bandwidth", CeilingKind::read_only, kBytes, [&](const Stream& stream) {
                reader.launch(stream, data, static_cast<unsigned>(device.sm_count * per_sm), 512);
            }));
        return measured;
    });
}

}  // namespace kplay
