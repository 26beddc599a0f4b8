// Launch configurations: the auto grid, validation against device and kernel limits, and coverage.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "values/device_values.hpp"
#include "values/kernel_resources.hpp"
#include "kernel_file/task_spec.hpp"

namespace kplay {

struct Dim3 {
    int64_t x = 1, y = 1, z = 1;
    int64_t volume() const { return x * y * z; }
    std::string text() const;  // "16,16,1"
};

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    int64_t dynamic_smem = 0;
    bool auto_grid = true;
    Dim3 cluster;  // blocks per thread block cluster; 1,1,1: launched without one
    // Every block resident at once (cuLaunchKernelEx's cooperative attribute), so this_grid().sync() works;
    // a grid larger than the device holds at once is refused before it launches.
    bool cooperative = false;
    bool clustered() const { return cluster.x != 1 || cluster.y != 1 || cluster.z != 1; }
};

// grid = cdiv(extent, block) per dimension.
Dim3 auto_grid(const std::array<int64_t, 3>& extent, const Dim3& block);

// Every limit the configuration breaks, each a sentence naming the limit and by how much; empty = valid.
// `function` may be null (before the kernel is loaded): then only the device's limits are checked.
std::vector<std::string> validate_launch(const LaunchConfig& launch, const DeviceLimits& limits,
                                         const FunctionAttributes* function);

// Threads launched against elements to cover, judged by the task's notion of coverage: where one
// thread per element is the plan, elements without a thread are worth a warning; where threads own
// several elements (register blocking, grid-stride loops, reductions), they are the design.
struct Coverage {
    int64_t threads = 0;
    int64_t elements = 0;
    int64_t idle_threads = 0;      // threads with no element (they should return early)
    int64_t uncovered = 0;         // elements no thread maps to one-to-one
    CoverageKind kind = CoverageKind::per_element;
    std::string note() const;
};
Coverage compute_coverage(const LaunchConfig& launch, const std::array<int64_t, 3>& extent, int launch_dims,
                          CoverageKind kind = CoverageKind::per_element);

}  // namespace kplay
