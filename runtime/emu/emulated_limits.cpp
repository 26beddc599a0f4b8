// Identity and limits of the emulated CPU device.
#include "emu/emulated_limits.hpp"

namespace kplay {

DeviceInfo emulated_device_info(int workers) {
    DeviceInfo info;
    info.ordinal = -1;
    info.name = "Emulated CPU (" + std::to_string(workers) + (workers == 1 ? " worker thread)" : " worker threads)");
    info.uuid = "emulated-cpu";
    info.cc_major = 9;  // the prelude defines __CUDA_ARCH__ 900
    info.cc_minor = 0;
    info.sm_count = workers;
    info.max_threads_per_sm = 2048;
    info.max_smem_per_sm = 228 * 1024;
    info.max_regs_per_sm = 65536;
    info.limits.max_smem_per_block_optin = 227 * 1024;
    return info;
}

std::string cooperative_launch_refusal(const kplay_emu_dim& grid, const kplay_emu_dim& block) {
    // Each resident thread has a fiber stack (two mappings: the stack and its guard), and the kernel's
    // mappings must stay well below Linux's 65530 per process; each block is an OS thread.
    constexpr unsigned long long kMaxBlocks = 512, kMaxThreads = 16384;
    const unsigned long long blocks = static_cast<unsigned long long>(grid.x) * grid.y * grid.z;
    const unsigned long long threads = blocks * block.x * block.y * block.z;
    if (blocks <= kMaxBlocks && threads <= kMaxThreads) return {};
    return "A cooperative launch keeps every block of its grid resident at once, and the emulated device holds at most " +
           std::to_string(kMaxThreads) + " threads in at most " + std::to_string(kMaxBlocks) + " blocks together; this grid has " +
           std::to_string(blocks) + " blocks of " + std::to_string(threads / blocks) + " threads (" + std::to_string(threads) +
           "). Launch fewer blocks (a grid-stride loop covers the rest).";
}

}  // namespace kplay
