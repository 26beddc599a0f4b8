// kplay_cuda_keywords.h: CUDA's keywords as the host compiler reads them, for both of kplay's host builds
// (the emulated device's kernels and a file's host reference). Each prelude defines __shared__ itself:
// the emulated device keeps one copy per worker thread, a reference has no device memory at all.
#pragma once

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
// Empty, not __attribute__((noinline)): libstdc++ 13 spells its own attributes __attribute__((__noinline__)), which
// that definition would break in any standard header included after this one. Inlining changes no result.
#define __noinline__
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__
#define CUDART_INF_F __builtin_inff()
#define CUDART_NAN_F __builtin_nanf("")
