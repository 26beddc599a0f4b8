// kplay_emu_refused.h: the device functions CUDA declares for sm_90 that the emulated device does not run,
// each refused by name (part of kplay_emu_prelude.h): a kernel that calls one fails to build with
// "NAME is not supported on the emulated CPU device: WHY; run this kernel on a GPU". Every other device
// function of the toolkit's headers runs (tests/emu_device_functions_test.cpp walks them all).
#pragma once

#define KPLAY_EMU_REFUSED(name, why)                                                                                    \
    template <class T = void, class... A> T name(A...) {                                                                 \
        static_assert(::kplay_emu::always_false<T>, #name " is not supported on the emulated CPU device: " why "; run this kernel on a GPU"); \
    }
#define KPLAY_VOTES "the warp votes without a mask were removed for sm_70 and later (use __any_sync, __all_sync, __ballot_sync)"
KPLAY_EMU_REFUSED(__any, KPLAY_VOTES) KPLAY_EMU_REFUSED(__all, KPLAY_VOTES) KPLAY_EMU_REFUSED(__ballot, KPLAY_VOTES)
KPLAY_EMU_REFUSED(any, KPLAY_VOTES) KPLAY_EMU_REFUSED(all, KPLAY_VOTES) KPLAY_EMU_REFUSED(ballot, KPLAY_VOTES)
#undef KPLAY_VOTES
#define KPLAY_CLUSTERS "thread block clusters (sm_90) are not emulated"
KPLAY_EMU_REFUSED(__clusterDim, KPLAY_CLUSTERS) KPLAY_EMU_REFUSED(__clusterIdx, KPLAY_CLUSTERS)
KPLAY_EMU_REFUSED(__clusterDimIsSpecified, KPLAY_CLUSTERS) KPLAY_EMU_REFUSED(__clusterGridDimInClusters, KPLAY_CLUSTERS)
KPLAY_EMU_REFUSED(__clusterRelativeBlockIdx, KPLAY_CLUSTERS) KPLAY_EMU_REFUSED(__clusterRelativeBlockRank, KPLAY_CLUSTERS)
KPLAY_EMU_REFUSED(__clusterSizeInBlocks, KPLAY_CLUSTERS) KPLAY_EMU_REFUSED(__cluster_barrier_arrive, KPLAY_CLUSTERS)
KPLAY_EMU_REFUSED(__cluster_barrier_arrive_relaxed, KPLAY_CLUSTERS) KPLAY_EMU_REFUSED(__cluster_barrier_wait, KPLAY_CLUSTERS)
KPLAY_EMU_REFUSED(__cluster_map_shared_multicast, KPLAY_CLUSTERS) KPLAY_EMU_REFUSED(__cluster_map_shared_rank, KPLAY_CLUSTERS)
KPLAY_EMU_REFUSED(__cluster_query_shared_rank, KPLAY_CLUSTERS) KPLAY_EMU_REFUSED(__threadfence_cluster, KPLAY_CLUSTERS)
KPLAY_EMU_REFUSED(__isClusterShared, KPLAY_CLUSTERS)
#undef KPLAY_CLUSTERS
#define KPLAY_SPACES "the emulated device has one address space, so there is no shared, local or constant window to ask about"
KPLAY_EMU_REFUSED(__isGlobal, KPLAY_SPACES) KPLAY_EMU_REFUSED(__isShared, KPLAY_SPACES) KPLAY_EMU_REFUSED(__isConstant, KPLAY_SPACES)
KPLAY_EMU_REFUSED(__isLocal, KPLAY_SPACES) KPLAY_EMU_REFUSED(__isGridConstant, KPLAY_SPACES) KPLAY_EMU_REFUSED(__isCtaShared, KPLAY_SPACES)
KPLAY_EMU_REFUSED(__cvta_generic_to_shared, KPLAY_SPACES) KPLAY_EMU_REFUSED(__cvta_shared_to_generic, KPLAY_SPACES)
KPLAY_EMU_REFUSED(__cvta_generic_to_global, KPLAY_SPACES) KPLAY_EMU_REFUSED(__cvta_global_to_generic, KPLAY_SPACES)
KPLAY_EMU_REFUSED(__cvta_generic_to_local, KPLAY_SPACES) KPLAY_EMU_REFUSED(__cvta_local_to_generic, KPLAY_SPACES)
KPLAY_EMU_REFUSED(__cvta_generic_to_constant, KPLAY_SPACES) KPLAY_EMU_REFUSED(__cvta_constant_to_generic, KPLAY_SPACES)
KPLAY_EMU_REFUSED(__cvta_generic_to_grid_constant, KPLAY_SPACES) KPLAY_EMU_REFUSED(__cvta_grid_constant_to_generic, KPLAY_SPACES)
#undef KPLAY_SPACES
KPLAY_EMU_REFUSED(__barrier_sync, "named barriers (bar.sync with an id) are not emulated; use __syncthreads()")
KPLAY_EMU_REFUSED(__barrier_sync_count, "named barriers (bar.sync with an id and a count) are not emulated; use __syncthreads()")
#define KPLAY_COUNTERS "the GPU's performance-monitor counters do not exist on the CPU"
KPLAY_EMU_REFUSED(__prof_trigger, KPLAY_COUNTERS) KPLAY_EMU_REFUSED(__pm0, KPLAY_COUNTERS) KPLAY_EMU_REFUSED(__pm1, KPLAY_COUNTERS)
KPLAY_EMU_REFUSED(__pm2, KPLAY_COUNTERS) KPLAY_EMU_REFUSED(__pm3, KPLAY_COUNTERS)
#undef KPLAY_COUNTERS
#define KPLAY_WIDE "128-bit atomics are not emulated"
KPLAY_EMU_REFUSED(__u128AtomicCAS, KPLAY_WIDE) KPLAY_EMU_REFUSED(__u128AtomicCAS_block, KPLAY_WIDE)
KPLAY_EMU_REFUSED(__u128AtomicCAS_system, KPLAY_WIDE) KPLAY_EMU_REFUSED(__u128AtomicExch, KPLAY_WIDE)
KPLAY_EMU_REFUSED(__u128AtomicExch_block, KPLAY_WIDE) KPLAY_EMU_REFUSED(__u128AtomicExch_system, KPLAY_WIDE)
#undef KPLAY_WIDE
KPLAY_EMU_REFUSED(__nv_associate_access_property, "L2 cache access properties do not exist on the CPU")
KPLAY_EMU_REFUSED(__nv_aligned_device_malloc, "allocating memory inside a kernel is not emulated")
KPLAY_EMU_REFUSED(__cudaPushCallConfiguration, "launching a kernel from a kernel (dynamic parallelism) is not emulated")
// Texture and surface objects from kplay-texture and kplay-surface lines (kplay_emu_texture.h); the
// fetches of what those lines cannot declare stay refused.
#include "kplay_emu_texture.h"
#define KPLAY_TEXTURES "kplay declares no mipmapped, gather or cubemap textures (kplay-texture makes plain 1D, 2D, 3D and layered ones)"
KPLAY_EMU_REFUSED(tex1DLod, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(tex1DGrad, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(tex1DLayeredLod, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(tex1DLayeredGrad, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(tex2DLod, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(tex2DGrad, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(tex2DLayeredLod, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(tex2DLayeredGrad, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(tex2Dgather, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(tex3DLod, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(tex3DGrad, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(texCubemap, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(texCubemapLod, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(texCubemapGrad, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(texCubemapLayered, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(texCubemapLayeredLod, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(texCubemapLayeredGrad, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(surfCubemapread, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(surfCubemapwrite, KPLAY_TEXTURES) KPLAY_EMU_REFUSED(surfCubemapLayeredread, KPLAY_TEXTURES)
KPLAY_EMU_REFUSED(surfCubemapLayeredwrite, KPLAY_TEXTURES)
#undef KPLAY_TEXTURES

// The spellings of the counting barriers without underscores (sm_20_intrinsics.h).
inline bool syncthreads_and(bool predicate, KPLAY_EMU_SITE) { return __syncthreads_and(predicate, file, line); }
inline bool syncthreads_or(bool predicate, KPLAY_EMU_SITE) { return __syncthreads_or(predicate, file, line); }
inline int syncthreads_count(bool predicate, KPLAY_EMU_SITE) { return __syncthreads_count(predicate, file, line); }
