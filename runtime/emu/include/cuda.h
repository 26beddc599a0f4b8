// cuda.h for a kernel, on the emulated device and (compiled in, runtime/CMakeLists.txt) under NVRTC: a
// kernel that includes it for a type gets the driver's types, laid out as the driver's header lays them
// out; the CUDA parts come from the device's prelude. The driver's host functions are not a kernel's.
#pragma once
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
typedef unsigned long long CUdeviceptr;
typedef struct CUtensorMap_st {
    alignas(64) unsigned long long opaque[16];
} CUtensorMap;
