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
#include "cuda/l2_flush.hpp"
#include "cuda/copy_kernel.hpp"
#include "cuda/read_kernel.hpp"

namespace kplay {

namespace {

constexpr size_t kBytes = 512ull << 20;
// The cache files' names carry the method: a ceiling measured the older way (the driver's copy alone,
// without an L2 flush before each sample) is measured again rather than read.
std::filesystem::path cache_file(const DeviceInfo& device, const std::filesystem::path& cache_dir, const char* kind) {
    return cache_dir / "ceilings" / (device.uuid + "-" + std::to_string(driver_status().driver_version) + kind + "-v3.txt");
}

// The median of 10 samples after 2 warm-ups, each one run of `operation` (which moves `bytes`), timed as
// kplay times a kernel: L2 flushed by reading before each sample, outside the events, and the end event
// recorded while the last writes may still sit in L2. A kernel and its ceiling are then timed alike, so
// the writes a kernel leaves in L2 do not lift it over the ceiling (with a ceiling timed with those
// write-backs included, vector_add/02 measured 105% of it on the H200).
Ceiling time_operation(const L2Flusher& flusher, const char* name, CeilingKind kind, double bytes,
                       const std::function<void(const Stream&)>& operation) {
    Ceiling ceiling;
    ceiling.kind = kind;
    ceiling.name = name;
    Stream stream = Stream::create();
    Event start = Event::create(), stop = Event::create();
    std::vector<double> samples;
    for (int i = 0; i < 12; ++i) {
        flusher.flush(stream);
        start.record(stream);
        operation(stream);
        stop.record(stream);
        stop.synchronize();
        if (i >= 2) samples.push_back(Event::elapsed_ms(start, stop));
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
        const L2Flusher flusher(device);
        std::vector<Ceiling> measured;
        measured.push_back(time_operation(flusher, "copy bandwidth (driver copy)", CeilingKind::copy, 2.0 * kBytes, [&](const Stream& stream) {
            KPLAY_CU(driver_api().cuMemcpyDtoDAsync(target.get(), source.get(), kBytes, stream.get()));
        }));
        // kplay's copy kernel at a few grid sizes (blocks per SM): the best one is the tuned copy. And the
        // read kernel: bytes moved are bytes moved, and reading alone may move them faster.
        const CopyKernel copier(device);
        const ReadKernel reader(device);
        for (const int per_sm : {4, 8, 16}) {
            const unsigned blocks = static_cast<unsigned>(device.sm_count * per_sm);
            measured.push_back(time_operation(flusher, "copy bandwidth (kplay copy kernel)", CeilingKind::copy, 2.0 * kBytes,
                                              [&](const Stream& stream) { copier.launch(stream, source, target, blocks, 512); }));
            measured.push_back(time_operation(flusher, "copy bandwidth (kplay read kernel)", CeilingKind::copy, kBytes,
                                              [&](const Stream& stream) { reader.launch(stream, source, blocks, 512); }));
        }
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
        const L2Flusher flusher(device);
        std::vector<Ceiling> measured;
        for (const int per_sm : {4, 8, 16})
            measured.push_back(time_operation(flusher, "read-only bandwidth", CeilingKind::read_only, kBytes, [&](const Stream& stream) {
                reader.launch(stream, data, static_cast<unsigned>(device.sm_count * per_sm), 512);
            }));
        return measured;
    });
}

}  // namespace kplay
