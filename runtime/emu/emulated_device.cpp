// Identity and limits of the emulated CPU device, and where its prelude lives.
#include "emu/emulated_device.hpp"

#include <cstdlib>

namespace kplay {

namespace fs = std::filesystem;

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

fs::path emulated_include_dir() {
    if (const char* env = std::getenv("KPLAY_EMU_INCLUDE"); env && *env) return env;
    std::error_code error;
#ifdef KPLAY_SOURCE_EMU_INCLUDE_DIR
    if (fs::is_regular_file(fs::path(KPLAY_SOURCE_EMU_INCLUDE_DIR) / "kplay_emu_prelude.h", error)) return KPLAY_SOURCE_EMU_INCLUDE_DIR;
#endif
    fs::path dir = fs::read_symlink("/proc/self/exe", error).parent_path();
    for (int depth = 0; depth < 6 && !dir.empty(); ++depth) {
        if (fs::is_regular_file(dir / "runtime/emu/include/kplay_emu_prelude.h", error)) return dir / "runtime/emu/include";
        if (dir == dir.parent_path()) break;
        dir = dir.parent_path();
    }
    return {};
}

}  // namespace kplay
