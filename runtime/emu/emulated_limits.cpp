// Identity and limits of the emulated CPU device.
#include "emu/emulated_limits.hpp"

#include <algorithm>

namespace kplay {

namespace {

// The H200 the emulated device's limits mirror.
constexpr unsigned kSms = 132, kBlocksPerSm = 32, kThreadsPerSm = 2048;
constexpr size_t kSharedPerSm = 228 * 1024, kSharedReservedPerBlock = 1024;

}  // namespace

DeviceInfo emulated_device_info(int workers) {
    DeviceInfo info;
    info.ordinal = -1;
    info.name = "Emulated CPU (" + std::to_string(workers) + (workers == 1 ? " worker thread)" : " worker threads)");
    info.uuid = "emulated-cpu";
    info.cc_major = 9;  // the prelude defines __CUDA_ARCH__ 900
    info.cc_minor = 0;
    info.sm_count = workers;
    info.max_threads_per_sm = kThreadsPerSm;
    info.max_smem_per_sm = kSharedPerSm;
    info.max_regs_per_sm = 65536;
    info.limits.max_smem_per_block_optin = kSharedPerSm - kSharedReservedPerBlock;
    return info;
}

std::string cooperative_launch_refusal(const kplay_emu_dim& grid, const kplay_emu_dim& block) {
    // Each block is an OS thread besides its threads' fibers.
    constexpr unsigned long long kMaxBlocks = 512, kMaxThreads = kEmulatedResidentThreads;
    const unsigned long long blocks = static_cast<unsigned long long>(grid.x) * grid.y * grid.z;
    const unsigned long long threads = blocks * block.x * block.y * block.z;
    if (blocks <= kMaxBlocks && threads <= kMaxThreads) return {};
    return "A cooperative launch keeps every block of its grid resident at once, and the emulated device holds at most " +
           std::to_string(kMaxThreads) + " threads in at most " + std::to_string(kMaxBlocks) + " blocks together; this grid has " +
           std::to_string(blocks) + " blocks of " + std::to_string(threads / blocks) + " threads (" + std::to_string(threads) +
           "). Launch fewer blocks (a grid-stride loop covers the rest).";
}

GpuResidency gpu_resident_blocks(unsigned threads, size_t shared_bytes) {
    const unsigned warp_threads = std::max(1u, (threads + 31) / 32) * 32;
    const auto by_threads = static_cast<unsigned>(kThreadsPerSm / warp_threads);
    const auto by_shared = static_cast<unsigned>(kSharedPerSm / (shared_bytes + kSharedReservedPerBlock));
    GpuResidency residency{0, kBlocksPerSm, "32 blocks per SM"};
    if (by_threads < residency.per_sm) residency = {0, by_threads, "2048 threads per SM"};
    if (by_shared < residency.per_sm) residency = {0, by_shared, "228 KiB of shared memory per SM"};
    residency.blocks = static_cast<uint64_t>(residency.per_sm) * kSms;
    return residency;
}

}  // namespace kplay
