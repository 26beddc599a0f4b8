// The CUDA driver API as a table of function pointers, loaded from libcuda.so.1 at run time.
//
// kplay never links the driver: a machine without one must still compile kernels and show diagnostics.
// Each function is listed once below with the CUDA version whose ABI we call (the suffix of its PFN_
// typedef in cudaTypedefs.h), and resolved through cuGetProcAddress with exactly that version, so the
// pointer always matches the prototype we call it with.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

#include "values/device_values.hpp"

namespace kplay {

// X(name, abi_version): every driver entry point kplay uses.
#define KPLAY_DRIVER_FUNCTIONS(X)                        \
    X(cuInit, 2000)                                      \
    X(cuDriverGetVersion, 2020)                          \
    X(cuGetErrorName, 6000)                              \
    X(cuGetErrorString, 6000)                            \
    X(cuDeviceGetCount, 2000)                            \
    X(cuDeviceGet, 2000)                                 \
    X(cuDeviceGetName, 2000)                             \
    X(cuDeviceGetAttribute, 2000)                        \
    X(cuDeviceTotalMem, 3020)                            \
    X(cuDeviceGetUuid, 11040)                            \
    X(cuDeviceGetPCIBusId, 4010)                         \
    X(cuDevicePrimaryCtxRetain, 7000)                    \
    X(cuDevicePrimaryCtxRelease, 11000)                  \
    X(cuCtxSetCurrent, 4000)                             \
    X(cuCtxSynchronize, 2000)                            \
    X(cuModuleLoadData, 2000)                            \
    X(cuModuleUnload, 2000)                              \
    X(cuModuleGetFunction, 2000)                         \
    X(cuModuleGetGlobal, 3020)                           \
    X(cuFuncGetAttribute, 2020)                          \
    X(cuFuncSetAttribute, 9000)                          \
    X(cuFuncGetParamInfo, 12040)                         \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050) \
    X(cuMemAlloc, 3020)                                  \
    X(cuMemFree, 3020)                                   \
    X(cuMemGetInfo, 3020)                                \
    X(cuMemcpyHtoD, 3020)                                \
    X(cuMemcpyDtoH, 3020)                                \
    X(cuMemcpyDtoDAsync, 3020)                           \
    X(cuMemsetD8Async, 3020)                             \
    X(cuMemsetD16Async, 3020)                            \
    X(cuMemsetD32Async, 3020)                            \
    X(cuStreamCreate, 2000)                              \
    X(cuStreamDestroy, 4000)                             \
    X(cuStreamSynchronize, 2000)                         \
    X(cuEventCreate, 2000)                               \
    X(cuEventDestroy, 4000)                              \
    X(cuEventRecord, 2000)                               \
    X(cuEventSynchronize, 2000)                          \
    X(cuEventElapsedTime, 12080)                         \
    X(cuLaunchKernel, 4000)                              \
    X(cuLaunchKernelEx, 11060)                           \
    X(cuOccupancyMaxActiveClusters, 11070)               \
    X(cuTensorMapEncodeTiled, 12000)                     \
    X(cuArray3DCreate, 3020)                             \
    X(cuArrayDestroy, 2000)                              \
    X(cuMemcpy3DAsync, 3020)                             \
    X(cuTexObjectCreate, 5000)                           \
    X(cuTexObjectDestroy, 5000)                          \
    X(cuSurfObjectCreate, 5000)                          \
    X(cuSurfObjectDestroy, 5000)

struct DriverApi {
#define KPLAY_DECLARE_DRIVER_POINTER(name, version) PFN_##name##_v##version name = nullptr;
    KPLAY_DRIVER_FUNCTIONS(KPLAY_DECLARE_DRIVER_POINTER)
#undef KPLAY_DECLARE_DRIVER_POINTER
};

// Loads and initialises the driver once per process (thread-safe); later calls return the same status.
// The library path can be overridden with KPLAY_CUDA_DRIVER (tests use it to simulate a missing driver).
const DriverStatus& driver_status();

// The loaded table. Throws InputError with driver_status().message when the driver is not ready.
const DriverApi& driver_api();

// "CUDA_ERROR_ILLEGAL_ADDRESS" and its description; they work without a driver (falling back to the code).
std::string cuda_result_name(int result);
std::string cuda_result_description(int result);

}  // namespace kplay
