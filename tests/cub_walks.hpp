// The CUB walks (tests/data/cub/*_walk.cu, walk.cuh says what they are): how each is launched, the inputs
// both devices give it, and a run of one on the emulated device, for tests/emu_cub_test.cpp (which checks
// the results against the host) and tests/gpu_cub_test.cpp (which checks a GPU's against them).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "values/run_request.hpp"

namespace kplay::test {

struct CubWalk {
    std::string name;  // the kernel, in tests/data/cub/NAME.cu
    std::array<unsigned, 3> block;
    size_t ints = 0, floats = 0;  // the lengths of `out` and `fout`
};
const std::vector<CubWalk>& cub_walks();
const CubWalk& cub_walk(const std::string& name);

// `in` and `fin`: ints in [-100, 100], a sixth of them 0; floats k/7 for k in [-1000, 1000], from
// fin[1024] on (the radix sort's float keys) with -0.0, +0.0, infinities and a NaN among them.
constexpr size_t kCubWalkInputs = 4096;
std::vector<int> cub_walk_ints();
std::vector<float> cub_walk_floats();
// What `out` and `fout` hold before a launch, on both devices: an element still holding it was not written.
constexpr int kCubWalkPoison = 0x5a5a5a5a;
float cub_walk_float_poison();

struct CubWalkOutputs {
    std::string error;  // why it did not build or run; empty when it did
    std::vector<int> ints;
    std::vector<float> floats;
    std::vector<std::string> races;  // a tracked run's, described
};
// Built once and launched at each order, the outputs poisoned before each launch; `track`: with every
// access tracked, so that races between threads are found.
std::vector<CubWalkOutputs> run_cub_walk_emulated(const CubWalk& walk, const std::vector<ThreadOrder>& orders, bool track = false);

}  // namespace kplay::test
