// Copy-bandwidth measurement with CUDA events, and its small cache file.
#include "cuda/copy_ceiling.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "base/cache_dir.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/driver.hpp"
#include "base/error.hpp"
#include "base/timing_stats.hpp"

namespace kplay {

CopyCeiling device_copy_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure) {
    CopyCeiling ceiling;
    const std::filesystem::path file = cache_dir / "ceilings" /
                                       (device.uuid + "-" + std::to_string(driver_status().driver_version) + ".txt");
    std::string text;
    if (!remeasure && !cache_dir.empty() && read_whole_file(file, text) &&
        std::sscanf(text.c_str(), "%lf %lf %lf", &ceiling.gbps, &ceiling.copy_ms, &ceiling.bytes) == 3 && ceiling.gbps > 0) {
        ceiling.cached = true;
        return ceiling;
    }
    const size_t bytes = 512ull << 20;
    DeviceBuffer source(bytes), target(bytes);
    Stream stream = Stream::create();
    source.fill_words(0x3F8CCCCDu, stream);  // 1.1f: never time a copy of zeros
    Event start = Event::create(), stop = Event::create();
    std::vector<double> samples;
    for (int i = 0; i < 12; ++i) {
        start.record(stream);
        KPLAY_CU(driver_api().cuMemcpyDtoDAsync(target.get(), source.get(), bytes, stream.get()));
        stop.record(stream);
        stop.synchronize();
        if (i >= 2) samples.push_back(Event::elapsed_ms(start, stop));
    }
    const TimingStats stats = summarize_timings(samples);
    ceiling.copy_ms = stats.median;
    ceiling.bytes = 2.0 * bytes;
    ceiling.gbps = ceiling.bytes / (stats.median * 1e-3) / 1e9;
    if (!cache_dir.empty()) {
        char line[128];
        std::snprintf(line, sizeof line, "%.3f %.6f %.0f\n", ceiling.gbps, ceiling.copy_ms, ceiling.bytes);
        write_file_atomically(file, line);
    }
    return ceiling;
}

}  // namespace kplay
