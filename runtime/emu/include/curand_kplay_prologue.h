// curand_kplay_prologue.h: what the CUDA toolkit's cuRAND headers need from their surroundings before
// kplay's host compiler builds them, for the emulated device (curand_kernel.h) and for a host reference
// (reference/curand_kernel.h).
//
// Those headers are not copied into kplay: both builds search the toolkit's include folder last
// (emu/host_compiler.cpp), and the stand-in curand_kernel.h includes the toolkit's with #include_next,
// so every generator, skip-ahead table and distribution is cuRAND's own code. Taken as the host compiler
// sees it (nv/target's host branches): the integer generators, the uniforms and the skip-aheads compute
// what the GPU computes, bit for bit; where the device branch calls a hardware approximation
// (__sincosf in the Box-Muller transform, ex2.approx and kin in the Poisson rejection method), the host
// branch calls the exact function, so normals, log-normals and some Poisson draws differ from a GPU's
// in their last bits (README: "Random numbers: a dropout with cuRAND").
#pragma once

// Defined by the toolkit's vector_types.h for nvcc's diagnostics; kplay's vector types have nothing to silence.
#ifndef __NV_SILENCE_DEPRECATION_BEGIN
#define __NV_SILENCE_DEPRECATION_BEGIN
#define __NV_SILENCE_DEPRECATION_END
#endif

// curand.h also declares the host library's functions (a kernel file never calls them): their
// parameters name the runtime's stream type and the toolkit's library property enum.
typedef struct CUstream_st* cudaStream_t;
#include <library_types.h>

// kplay has a real erfcinvf in both builds: the quasi-random generators' normals (the inverse normal
// CDF) then take the device's formula, not the host branch's placeholder 0.
#define HOST_HAVE_ERFCINVF

// The toolkit's, included first as curand_kernel.h does: being found through the include path, it
// (with CURAND_VERSION) is part of the key kplay caches the build under, so a toolkit update rebuilds.
#include <curand.h>
