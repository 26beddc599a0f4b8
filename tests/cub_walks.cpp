// The CUB walks' launches, inputs and emulated runs.
#include "cub_walks.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "emu_harness.hpp"
#include "values/race_report.hpp"
#include "test_support.hpp"

namespace kplay::test {

namespace {

uint32_t mix(uint32_t i) {
    uint32_t x = i * 2654435761u + 12345u;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    return x;
}

}  // namespace

const std::vector<CubWalk>& cub_walks() {
    static const std::vector<CubWalk> walks = {
        {"block_scan_walk", {32, 4, 1}, 3 * 48 * 512, 3 * 2 * 512},
        {"block_reduce_walk", {16, 4, 2}, 64, 16},
        {"block_io_walk", {64, 1, 1}, 96 * 256, 1},
        {"block_radix_sort_walk", {32, 2, 1}, 7 * 13 * 2 * 512, 1},
        {"block_histogram_walk", {32, 2, 1}, 256, 1},
        {"block_discontinuity_walk", {32, 2, 1}, 24 * 256, 1},
        {"warp_walk", {128, 1, 1}, 4 * 48 * 512, 4 * 2 * 128},
    };
    return walks;
}

const CubWalk& cub_walk(const std::string& name) {
    for (const CubWalk& walk : cub_walks())
        if (walk.name == name) return walk;
    throw std::invalid_argument("no CUB walk " + name);
}

std::vector<int> cub_walk_ints() {
    std::vector<int> values(kCubWalkInputs);
    for (size_t i = 0; i < values.size(); ++i) {
        const uint32_t h = mix(static_cast<uint32_t>(i));
        values[i] = (h / 201) % 6 == 0 ? 0 : static_cast<int>(h % 201) - 100;
    }
    return values;
}

std::vector<float> cub_walk_floats() {
    std::vector<float> values(kCubWalkInputs);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(static_cast<int>(mix(static_cast<uint32_t>(i) + 7u) % 2001) - 1000) / 7.0f;
    for (size_t at : {1024 + 3, 1024 + 40, 1024 + 41, 1024 + 200}) values[at] = -0.0f;
    for (size_t at : {1024 + 7, 1024 + 100, 1024 + 255}) values[at] = 0.0f;
    values[1024 + 17] = std::numeric_limits<float>::infinity();
    values[1024 + 18] = -std::numeric_limits<float>::infinity();
    values[1024 + 99] = std::numeric_limits<float>::quiet_NaN();
    return values;
}

float cub_walk_float_poison() {
    const uint32_t bits = 0x7fa5a5a5u;  // a NaN no arithmetic makes
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

std::vector<CubWalkOutputs> run_cub_walk_emulated(const CubWalk& walk, const std::vector<ThreadOrder>& orders, bool track) {
    EmuKernel kernel(read_file(data_dir() / "cub" / (walk.name + ".cu")), walk.name, {(data_dir() / "cub").string()}, track);
    if (!kernel.built()) return {CubWalkOutputs{kernel.diagnostics(), {}, {}}};
    const std::vector<int> ints = cub_walk_ints();
    const std::vector<float> floats = cub_walk_floats();
    int* in = kernel.buffer<int>("in", ints.size());
    float* fin = kernel.buffer<float>("fin", floats.size());
    std::copy(ints.begin(), ints.end(), in);
    std::copy(floats.begin(), floats.end(), fin);
    int* out = kernel.buffer<int>("out", walk.ints);
    float* fout = kernel.buffer<float>("fout", walk.floats);
    std::vector<CubWalkOutputs> runs;
    for (const ThreadOrder order : orders) {
        std::fill(out, out + walk.ints, kCubWalkPoison);
        std::fill(fout, fout + walk.floats, cub_walk_float_poison());
        EmuKernel::Launch launch;
        launch.block = {walk.block[0], walk.block[1], walk.block[2]};
        launch.order = order;
        launch.timeout_s = 120;
        const EmulatedLaunchResult result = kernel.launch({&in, &fin, &out, &fout}, launch);
        CubWalkOutputs outputs;
        if (result.ok) {
            outputs.ints.assign(out, out + walk.ints);
            outputs.floats.assign(fout, fout + walk.floats);
        } else {
            outputs.error = result.error;
        }
        for (const Race& race : result.races) outputs.races.push_back(describe_race(race));
        runs.push_back(std::move(outputs));
    }
    return runs;
}

}  // namespace kplay::test
