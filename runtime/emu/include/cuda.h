// cuda.h on the emulated device: its CUDA parts come from kplay_emu_prelude.h (given with -include); a
// kernel that includes it for a type gets the driver's device-side types, laid out as the driver's header
// lays them out. The C library itself is not available to a kernel.
#pragma once
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
typedef unsigned long long CUdeviceptr;
typedef struct CUtensorMap_st {
    alignas(64) unsigned long long opaque[16];
} CUtensorMap;
