// Copy and read bandwidth measured with CUDA events, and their small cache files.
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
#include "cuda/read_kernel.hpp"

namespace kplay {

namespace {

constexpr size_t kBytes = 512ull << 20;

std::filesystem::path cache_file(const DeviceInfo& device, const std::filesystem::path& cache_dir, const char* kind) {
    return cache_dir / "ceilings" / (device.uuid + "-" + std::to_string(driver_status().driver_version) + kind + ".txt");
}

// Times `operation` (which moves `bytes`) and keeps the result in the cache file.
Ceiling measure(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure, const char* kind, const char* name,
                CeilingKind ceiling_kind, double bytes, const std::function<void(const Stream&)>& operation) {
    Ceiling ceiling;
    ceiling.kind = ceiling_kind;
    ceiling.name = name;
    const std::filesystem::path file = cache_file(device, cache_dir, kind);
    std::string text;
    if (!remeasure && !cache_dir.empty() && read_whole_file(file, text) &&
        std::sscanf(text.c_str(), "%lf %lf %lf", &ceiling.gbps, &ceiling.ms, &ceiling.bytes) == 3 && ceiling.gbps > 0) {
        ceiling.cached = true;
        return ceiling;
    }
    Stream stream = Stream::create();
    Event start = Event::create(), stop = Event::create();
    std::vector<double> samples;
    for (int i = 0; i < 12; ++i) {
        start.record(stream);
        operation(stream);
        stop.record(stream);
        stop.synchronize();
        if (i >= 2) samples.push_back(Event::elapsed_ms(start, stop));
    }
    ceiling.ms = summarize_timings(samples).median;
    ceiling.bytes = bytes;
    ceiling.gbps = ceiling.bytes / (ceiling.ms * 1e-3) / 1e9;
    if (!cache_dir.empty()) {
        char line[128];
        std::snprintf(line, sizeof line, "%.3f %.6f %.0f\n", ceiling.gbps, ceiling.ms, ceiling.bytes);
        write_file_atomically(file, line);
    }
    return ceiling;
}

}  // namespace

Ceiling device_copy_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure) {
    DeviceBuffer source(kBytes), target(kBytes);
    {
        Stream stream = Stream::create();
        source.fill_words(0x3F8CCCCDu, stream);  // 1.1f: never time a copy of zeros
        stream.synchronize();
    }
    // The copy-ceiling cache file keeps its old name, so existing measurements stay valid.
    return measure(device, cache_dir, remeasure, "", "copy bandwidth", CeilingKind::copy, 2.0 * kBytes, [&](const Stream& stream) {
        KPLAY_CU(driver_api().cuMemcpyDtoDAsync(target.get(), source.get(), kBytes, stream.get()));
    });
}

Ceiling device_read_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure) {
    const ReadKernel reader(device);
    DeviceBuffer data(kBytes);
    {
        Stream stream = Stream::create();
        data.fill_bytes(0x5A, stream);  // real data to read, never zeros
        stream.synchronize();
    }
    const unsigned blocks = static_cast<unsigned>(device.sm_count * 8);
    return measure(device, cache_dir, remeasure, "-read", "read-only bandwidth", CeilingKind::read_only, kBytes,
                   [&](const Stream& stream) { reader.launch(stream, data, blocks, 512); });
}

}  // namespace kplay
