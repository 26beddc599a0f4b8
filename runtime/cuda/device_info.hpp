// What kplay knows about each CUDA device: identity, size and the limits a launch is validated against.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda/driver.hpp"

namespace kplay {

struct DeviceLimits {
    int max_threads_per_block = 1024;
    std::array<int, 3> max_block_dim{1024, 1024, 64};
    std::array<int64_t, 3> max_grid_dim{2147483647, 65535, 65535};
    int max_smem_per_block = 48 * 1024;        // without opt-in
    int max_smem_per_block_optin = 48 * 1024;  // with cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)
    int max_regs_per_block = 65536;
    int warp_size = 32;
};

struct DeviceInfo {
    int ordinal = 0;
    std::string name;
    std::string uuid;  // hex, identifies the physical GPU across runs (keys the copy-ceiling cache)
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

struct DeviceQuery {
    DriverStatus driver;
    std::vector<DeviceInfo> devices;
    // Why nothing can run, for the user; empty when at least one device is there.
    std::string problem() const;
};

// Lists the devices the driver sees. Never throws: a missing driver is a status in the result.
DeviceQuery query_devices();

// One device's details; throws ApiError/InputError if the ordinal is invalid.
DeviceInfo describe_device(int ordinal);

}  // namespace kplay
