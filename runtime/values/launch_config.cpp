// Launch validation with messages that say which limit is broken and by how much.
#include "values/launch_config.hpp"

#include <cstdio>

namespace kplay {

namespace {

std::string times_over(double value, double limit) {
    char text[64];
    std::snprintf(text, sizeof text, "%.2gx the limit", value / limit);
    return text;
}

}  // namespace

std::string Dim3::text() const { return std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z); }

Dim3 auto_grid(const std::array<int64_t, 3>& extent, const Dim3& block) {
    auto cdiv = [](int64_t a, int64_t b) { return b <= 0 ? 1 : std::max<int64_t>(1, (a + b - 1) / b); };
    return {cdiv(extent[0], block.x), cdiv(extent[1], block.y), cdiv(extent[2], block.z)};
}

std::vector<std::string> validate_launch(const LaunchConfig& launch, const DeviceLimits& limits,
                                         const FunctionAttributes* function) {
    std::vector<std::string> problems;
    const char axis[3] = {'x', 'y', 'z'};
    const int64_t block[3] = {launch.block.x, launch.block.y, launch.block.z};
    const int64_t grid[3] = {launch.grid.x, launch.grid.y, launch.grid.z};
    for (int d = 0; d < 3; ++d) {
        if (block[d] < 1) problems.push_back(std::string("block.") + axis[d] + " is " + std::to_string(block[d]) + "; it must be at least 1.");
        else if (block[d] > limits.max_block_dim[d])
            problems.push_back(std::string("block.") + axis[d] + " is " + std::to_string(block[d]) + "; the device allows at most " +
                               std::to_string(limits.max_block_dim[d]) + " (over by " + std::to_string(block[d] - limits.max_block_dim[d]) + ").");
        if (grid[d] < 1) problems.push_back(std::string("grid.") + axis[d] + " is " + std::to_string(grid[d]) + "; it must be at least 1.");
        else if (grid[d] > limits.max_grid_dim[d])
            problems.push_back(std::string("grid.") + axis[d] + " is " + std::to_string(grid[d]) + "; the device allows at most " +
                               std::to_string(limits.max_grid_dim[d]) + " (" + times_over(grid[d], limits.max_grid_dim[d]) + ").");
    }
    if (launch.clustered()) {
        const int64_t cluster[3] = {launch.cluster.x, launch.cluster.y, launch.cluster.z};
        if (limits.max_cluster_size <= 0)
            problems.push_back("cluster=" + launch.cluster.text() + ": thread block clusters need compute capability 9.0 or newer; this device has none.");
        for (int d = 0; d < 3; ++d) {
            if (cluster[d] < 1) problems.push_back(std::string("cluster.") + axis[d] + " is " + std::to_string(cluster[d]) + "; it must be at least 1.");
            else if (grid[d] >= 1 && grid[d] % cluster[d] != 0)
                problems.push_back(std::string("grid.") + axis[d] + " is " + std::to_string(grid[d]) + ", not a multiple of cluster." + axis[d] +
                                   " (" + std::to_string(cluster[d]) + "): every cluster must be whole.");
        }
        if (limits.max_cluster_size > 0 && launch.cluster.volume() > limits.max_cluster_size)
            problems.push_back("The cluster has " + std::to_string(launch.cluster.volume()) + " blocks (" + launch.cluster.text() + "); at most " +
                               std::to_string(limits.max_cluster_size) + " per cluster are portable.");
    }
    const int64_t threads = launch.block.volume();
    if (threads > limits.max_threads_per_block)
        problems.push_back("The block has " + std::to_string(threads) + " threads (" + launch.block.text() +
                           "); the device allows at most " + std::to_string(limits.max_threads_per_block) + " per block (" +
                           times_over(threads, limits.max_threads_per_block) + ").");
    if (launch.dynamic_smem < 0) problems.push_back("Dynamic shared memory is negative (" + std::to_string(launch.dynamic_smem) + " bytes).");
    const int64_t static_smem = function ? function->static_smem_bytes : 0;
    const int64_t total_smem = static_smem + launch.dynamic_smem;
    if (total_smem > limits.max_smem_per_block_optin)
        problems.push_back("Shared memory per block is " + std::to_string(total_smem) + " bytes (" + std::to_string(static_smem) +
                           " static + " + std::to_string(launch.dynamic_smem) + " dynamic); the device allows at most " +
                           std::to_string(limits.max_smem_per_block_optin) + " (over by " +
                           std::to_string(total_smem - limits.max_smem_per_block_optin) + " bytes).");
    if (function && function->max_threads_per_block > 0 && threads > function->max_threads_per_block &&
        threads <= limits.max_threads_per_block)
        problems.push_back("The block has " + std::to_string(threads) + " threads, but this kernel uses " +
                           std::to_string(function->registers_per_thread) + " registers per thread, so at most " +
                           std::to_string(function->max_threads_per_block) + " threads per block fit (over by " +
                           std::to_string(threads - function->max_threads_per_block) + ").");
    return problems;
}

std::string Coverage::note() const {
    if (kind == CoverageKind::per_thread_work && threads > 0 && elements > threads) {
        char text[160];
        std::snprintf(text, sizeof text, "each thread owns %.1f elements on average", static_cast<double>(elements) / threads);
        return text;
    }
    if (uncovered > 0)
        return std::to_string(uncovered) + " of " + std::to_string(elements) +
               " elements have no thread of their own (fine only if each thread loops over several)";
    if (idle_threads > 0)
        return std::to_string(idle_threads) + " idle threads (" +
               std::to_string(threads ? (100 * idle_threads + threads / 2) / threads : 0) + "% of " + std::to_string(threads) +
               ") must skip their work with a bounds check";
    return "every thread has exactly one element";
}

Coverage compute_coverage(const LaunchConfig& launch, const std::array<int64_t, 3>& extent, int launch_dims, CoverageKind kind) {
    Coverage coverage;
    coverage.kind = kind;
    const int64_t span[3] = {launch.grid.x * launch.block.x, launch.grid.y * launch.block.y, launch.grid.z * launch.block.z};
    coverage.threads = span[0] * span[1] * span[2];
    coverage.elements = extent[0] * extent[1] * extent[2];
    // Elements inside the launched thread box, dimension by dimension (1D tasks use x only).
    int64_t covered = 1;
    for (int d = 0; d < 3; ++d) covered *= std::min(span[d], d < launch_dims || d == 0 ? extent[d] : 1);
    if (launch_dims == 1) covered = std::min(span[0] * span[1] * span[2], extent[0]);
    coverage.uncovered = coverage.elements - covered;
    coverage.idle_threads = coverage.threads - covered;
    return coverage;
}

}  // namespace kplay
