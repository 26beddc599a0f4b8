// Reads device attributes from the driver into DeviceInfo.
#include "cuda/device_query.hpp"

#include <cstdio>

#include "base/error.hpp"
#include "cuda/driver.hpp"

namespace kplay {

std::string pci_bus_id(int ordinal) {
    const DriverApi& api = driver_api();
    CUdevice device = 0;
    KPLAY_CU(api.cuDeviceGet(&device, ordinal));
    char id[32] = {};
    KPLAY_CU(api.cuDeviceGetPCIBusId(id, sizeof id, device));
    return id;
}

DeviceInfo describe_device(int ordinal) {
    const DriverApi& api = driver_api();
    CUdevice device = 0;
    KPLAY_CU(api.cuDeviceGet(&device, ordinal));
    auto attribute = [&](CUdevice_attribute which) {
        int value = 0;
        KPLAY_CU(api.cuDeviceGetAttribute(&value, which, device));
        return value;
    };
    DeviceInfo info;
    info.ordinal = ordinal;
    char name[256] = {};
    KPLAY_CU(api.cuDeviceGetName(name, sizeof name, device));
    info.name = name;
    CUuuid uuid{};
    KPLAY_CU(api.cuDeviceGetUuid(&uuid, device));
    for (unsigned char byte : uuid.bytes) {
        char hex[3];
        std::snprintf(hex, sizeof hex, "%02x", byte);
        info.uuid += hex;
    }
    size_t total = 0;
    KPLAY_CU(api.cuDeviceTotalMem(&total, device));
    info.total_memory = static_cast<int64_t>(total);
    info.cc_major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    info.cc_minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    info.sm_count = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    info.max_threads_per_sm = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    info.max_smem_per_sm = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    info.max_regs_per_sm = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    info.l2_bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    info.memory_bus_bits = attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    info.memory_clock_khz = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    DeviceLimits& limits = info.limits;
    limits.max_threads_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    limits.max_block_dim[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
    limits.max_block_dim[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
    limits.max_block_dim[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
    limits.max_grid_dim[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
    limits.max_grid_dim[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
    limits.max_grid_dim[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
    limits.max_smem_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    limits.max_smem_per_block_optin = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    limits.max_regs_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    limits.warp_size = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    // 8 blocks per cluster is the portable size on every device that has clusters (16 needs an opt-in
    // kplay does not make).
    limits.max_cluster_size = attribute(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH) ? 8 : 0;
    return info;
}

DeviceQuery query_devices() {
    DeviceQuery query;
    query.driver = driver_status();
    if (!query.driver.ready()) return query;
    try {
        int count = 0;
        KPLAY_CU(driver_api().cuDeviceGetCount(&count));
        for (int i = 0; i < count; ++i) query.devices.push_back(describe_device(i));
    } catch (const std::exception& error) {
        query.driver.state = DriverStatus::State::init_failed;
        query.driver.message = std::string("Could not list CUDA devices: ") + error.what();
        query.devices.clear();
    }
    return query;
}

}  // namespace kplay
