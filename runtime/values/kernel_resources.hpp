// What a compiled kernel uses and takes: its parameter layout, registers and memory, and the
// occupancy that follows at a block size. Read from the loaded function (GPU) or the emulated
// kernel's parameter table (CPU).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kplay {

// One parameter of the kernel's real layout (cuFuncGetParamInfo, or sizeof on the emulated device).
struct ParamLayout {
    size_t offset = 0;
    size_t size = 0;
};

// Resources the compiled kernel uses; they bound how it may be launched.
struct FunctionAttributes {
    int registers_per_thread = 0;
    int static_smem_bytes = 0;
    int local_bytes_per_thread = 0;  // spills and local arrays
    int const_bytes = 0;
    int max_threads_per_block = 0;  // given its registers, on this device
    int ptx_version = 0;
    int binary_version = 0;
    std::vector<ParamLayout> params;
    // The instance's parameter types as the compiler has them ("float const*"), read from its mangled
    // name (kernel_file/kernel_types.hpp); empty where the name holds none (extern "C").
    std::vector<std::string> param_types;
};

// Theoretical occupancy: resident warps per SM over the SM's maximum, from the driver's occupancy query.
struct Occupancy {
    int blocks_per_sm = 0;
    double fraction = 0;
};

}  // namespace kplay
