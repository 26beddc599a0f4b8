// What kplay knows about a device, as plain values: identity, size, the limits a launch is validated
// against, why the driver cannot be used, and the emulated CPU device. Made by the worker (cuda/ and
// emu/), read by every program.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kplay {

struct DeviceLimits {
    int max_threads_per_block = 1024;
    std::array<int, 3> max_block_dim{1024, 1024, 64};
    std::array<int64_t, 3> max_grid_dim{2147483647, 65535, 65535};
    int max_smem_per_block = 48 * 1024;        // without opt-in
    int max_smem_per_block_optin = 48 * 1024;  // with cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)
    int max_regs_per_block = 65536;
    int warp_size = 32;
    int max_cluster_size = 0;  // blocks per thread block cluster (portable: 8 from compute capability 9.0); 0: no clusters
};

struct DeviceInfo {
    int ordinal = 0;  // -1: the emulated CPU device
    std::string name;
    std::string uuid;  // hex, identifies the physical GPU across runs (keys the ceiling caches)
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    int64_t total_memory = 0;
    int max_threads_per_sm = 0;
    int max_smem_per_sm = 0;
    int max_regs_per_sm = 0;
    int l2_bytes = 0;
    int memory_bus_bits = 0;
    int memory_clock_khz = 0;
    DeviceLimits limits;

    std::string arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
};

// Why the driver can or cannot be used; a value every program can show as it is.
struct DriverStatus {
    enum class State { ready, no_library, too_old, missing_symbol, init_failed };
    State state = State::no_library;
    std::string message;     // one line for the user, empty when ready
    int driver_version = 0;  // e.g. 13000 for CUDA 13.0; 0 when unknown
    bool ready() const { return state == State::ready; }
};

// The emulated CPU device as the worker sees it: whether a host compiler is there, and its limits.
struct EmulatedDeviceStatus {
    bool available = false;
    std::string host_compiler;  // the compiler's version line, when available
    std::string problem;        // why it is not available
    DeviceInfo device;          // name ("Emulated CPU (16 worker threads)"), CUDA's launch limits
};

struct DeviceQuery {
    DriverStatus driver;
    std::vector<DeviceInfo> devices;
    EmulatedDeviceStatus emulated;
    std::string nvrtc_version;  // "13.0"
    // Why no GPU can run kernels, for the user; empty when at least one device is there.
    std::string problem() const;
};

// "13.0" from 13000.
std::string cuda_version_string(int version);

}  // namespace kplay
