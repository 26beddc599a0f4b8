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

}  // namespace kplay
