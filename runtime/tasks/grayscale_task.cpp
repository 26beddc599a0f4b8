// Grayscale inputs (an image file or the built-in image), the reference and the pixel check.
#include "tasks/grayscale_task.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "base/content_hash.hpp"
#include "base/default_image.hpp"
#include "base/error.hpp"
#include "tasks/reference_cache.hpp"

namespace kplay {

namespace {
constexpr uint32_t kPoisonA = 0x5A5A5A5Au, kPoisonB = 0xA5A5A5A5u;

ReferenceCache<std::vector<uint8_t>>& reference_cache() {
    static ReferenceCache<std::vector<uint8_t>> cache;
    return cache;
}

// "1920x1080" -> (1920, 1080)
std::pair<int, int> parse_image_size(const std::string& size) {
    int w = 0, h = 0;
    char x = 0, extra = 0;
    if (std::sscanf(size.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X'))
        throw InputError("Image size must look like 1920x1080, not '" + size + "'.");
    return {w, h};
}
}  // namespace

std::vector<uint8_t> grayscale_reference(const uint8_t* planes, size_t pixels) {
    std::vector<uint8_t> gray(pixels);
    for (size_t i = 0; i < pixels; ++i) gray[i] = seed_gray(planes[i], planes[i + pixels], planes[i + 2 * pixels]);
    return gray;
}

std::vector<std::string> GrayscaleTask::canonical_args(size_t param_count) const {
    if (param_count == 3) return {"in", "out", "n"};
    if (param_count == 4) return {"in", "out", "w", "h"};
    return {};
}

std::vector<std::string> GrayscaleTask::default_block(int launch_dims) const {
    if (launch_dims == 2) return {"16", "16"};
    return {"256"};
}

TaskData GrayscaleTask::make_inputs(const InputRequest& request) const {
    PlanarImage image;
    std::string description;
    if (!request.image_path.empty()) {
        image = load_image(request.image_path);
        description = request.image_path;
    } else if (!request.size.empty()) {
        const auto [w, h] = parse_image_size(request.size);
        image = make_default_image(w, h);
        description = "built-in image";
    } else {
        image = make_default_image();
        description = "built-in image";
    }
    description += ", " + std::to_string(image.width) + "x" + std::to_string(image.height);
    TaskData data;
    data.task = name();
    const int64_t n = static_cast<int64_t>(image.pixels());
    data.values = {{"w", image.width}, {"h", image.height}, {"n", n}};
    data.identity = "grayscale:" + std::to_string(image.width) + "x" + std::to_string(image.height) + ":" +
                    hash_hex(std::string_view(reinterpret_cast<const char*>(image.planes.data()), image.planes.size()));
    data.description = description;
    HostBuffer in{"in", ElementType::u8, static_cast<size_t>(3 * n), false, std::move(image.planes), {0, 0}};
    HostBuffer out{"out", ElementType::u8, static_cast<size_t>(n), true, {}, {kPoisonA, kPoisonB}};
    data.buffers.push_back(std::move(in));
    data.buffers.push_back(std::move(out));
    return data;
}

std::array<int64_t, 3> GrayscaleTask::extent(const TaskData& data, int launch_dims) const {
    if (launch_dims == 2) return {data.values.at("w"), data.values.at("h"), 1};
    return {data.values.at("n"), 1, 1};
}

double GrayscaleTask::bytes_moved(const TaskData& data) const { return 4.0 * static_cast<double>(data.values.at("n")); }

double GrayscaleTask::flops(const TaskData& data) const { return 5.0 * static_cast<double>(data.values.at("n")); }

CheckReport GrayscaleTask::check(const TaskData& data, const std::vector<HostBuffer>& previous_outputs, double tolerance,
                                 bool keep_map) const {
    CheckReport report;
    report.tolerance = tolerance < 0 ? 1 : tolerance;
    const HostBuffer& in = *data.find("in");
    const HostBuffer& out = *data.find("out");
    const HostBuffer* previous = previous_outputs.empty() ? nullptr : &previous_outputs.front();
    const size_t n = out.count;
    const int w = static_cast<int>(data.values.at("w"));
    auto lookup = reference_cache().get(data.identity, [&] { return grayscale_reference(in.data.data(), n); });
    report.reference_ms = lookup.compute_ms;
    report.reference_cached = lookup.cached;
    const std::vector<uint8_t>& reference = *lookup.reference;

    const uint8_t poison_a = static_cast<uint8_t>(out.poison[0]), poison_b = static_cast<uint8_t>(out.poison[1]);
    int64_t over = 0, unwritten = 0, unstable = 0, max_diff = 0;
    int64_t first = -1;
    if (keep_map) {
        report.map.resize(n);
        report.map_w = w;
        report.map_h = static_cast<int>(data.values.at("h"));
    }
    for (size_t i = 0; i < n; ++i) {
        const uint8_t got = out.data[i];
        const bool not_written = previous && previous->data[i] == poison_a && got == poison_b;
        const int diff = static_cast<int>(got) - static_cast<int>(reference[i]);
        if (not_written) {
            ++unwritten;
        } else {
            max_diff = std::max<int64_t>(max_diff, std::abs(diff));
            if (previous && previous->data[i] != got) ++unstable;
        }
        const bool bad = not_written || std::abs(diff) > report.tolerance;
        if (bad) {
            ++over;
            if (first < 0) first = static_cast<int64_t>(i);
        }
        if (keep_map) report.map[i] = not_written ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(diff);
    }
    report.metrics = {{"max_abs_diff", static_cast<double>(max_diff)},
                      {"over_tolerance", static_cast<double>(over)},
                      {"unwritten", static_cast<double>(unwritten)},
                      {"nondeterministic", static_cast<double>(unstable)},
                      {"pixels", static_cast<double>(n)}};
    if (first >= 0) {
        const int x = static_cast<int>(first % w), y = static_cast<int>(first / w);
        report.first_bad = "pixel (x=" + std::to_string(x) + ", y=" + std::to_string(y) + "): " +
                           (previous && previous->data[first] == poison_a && out.data[first] == poison_b
                                ? std::string("never written")
                                : "got " + std::to_string(out.data[first]) + ", expected " + std::to_string(reference[first]));
    }
    report.passed = over == 0 && unstable == 0;
    char line[256];
    if (report.passed)
        std::snprintf(line, sizeof line, "PASS: all %zu pixels within %.0f of the reference (max diff %lld)", n,
                      report.tolerance, static_cast<long long>(max_diff));
    else
        std::snprintf(line, sizeof line, "FAIL: %lld of %zu pixels off by more than %.0f (%lld never written%s)",
                      static_cast<long long>(over), n, report.tolerance, static_cast<long long>(unwritten),
                      unstable ? (", " + std::to_string(unstable) + " differ between two runs").c_str() : "");
    report.summary = line;
    return report;
}

}  // namespace kplay
