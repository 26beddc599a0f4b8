// kplay_emu_prelude.h: CUDA C++ as the host compiler sees it on the emulated device.
//
// Given to g++/clang++ with -include, so the user's line numbers stay theirs. It is freestanding on
// purpose: <cmath> and <atomic> alone cost 400-550 ms of compile time, and the kernel must not reach
// libc anyway (the runtime refuses a shared object with undefined symbols outside a short allowlist).
// Every CUDA thread is a fiber on a worker thread; its identity lives in a thread-local pointer the
// runtime sets before each switch, and everything that needs the other threads (barriers, warp
// collectives, the grid barrier) calls back into the runtime through the kplay_emu_host table. Calls
// that can wait take the caller's file and line as default arguments (__builtin_FILE/LINE), so that a
// deadlock is reported at the user's line even when the call comes from cooperative_groups.h or CUB.
//
// The parts, in order: this file (keywords, identity, barriers, printf, the launch entry), the warp
// collectives, atomics and fences, math (kplay_cuda_math.h, whose min/max overloads a host reference
// shares), the arithmetic, bit, SIMD and memory intrinsics, and the refusals by name. As under CUDA, the
// half, bfloat16 and fp8 types come with their headers (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h), and so do
// cooperative groups and CUB: a kernel pays their compile time only when it includes them.
#pragma once
#define KPLAY_EMULATED 1
#define KPLAY_EMU_PRELUDE_VERSION 2

#include "kplay_emu_abi.h"

// ---- keywords ------------------------------------------------------------------------------------
#include "kplay_cuda_keywords.h"
// One copy per worker thread (a block runs on one worker at a time). thread_local alone, so that CUDA's
// `static __shared__` reads as `static thread_local`; at block scope thread_local is static anyway.
#define __shared__ thread_local
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
#include "kplay_nvcc_names.h"  // uint, u_char, clock_t, M_PI, INFINITY, INT_MAX...: what nvcc's host headers give a kernel
#ifndef NULL
#define NULL __null
#endif

typedef unsigned long size_t;
typedef long ptrdiff_t;

namespace kplay_emu {
extern "C" const kplay_emu_host* kplay_emu_host_table;
static thread_local kplay_emu_thread* current_thread;
inline const kplay_emu_host* host() { return kplay_emu_host_table; }
inline unsigned char* dynamic_smem() { return current_thread->block->dynamic_smem; }
template <class T> struct remove_ref { typedef T type; };
template <class T> struct remove_ref<T&> { typedef T type; };
template <class To, class From> inline To bit_cast(const From& from) {
    static_assert(sizeof(To) == sizeof(From), "bit_cast between types of different sizes");
    To to;
    __builtin_memcpy(&to, &from, sizeof to);
    return to;
}
template <class T> constexpr bool always_false = false;
}  // namespace kplay_emu

extern "C" {
__attribute__((visibility("default"))) const kplay_emu_host* kplay_emu_host_table = nullptr;
__attribute__((visibility("default"))) int kplay_emu_bind(const kplay_emu_host* host) {
    kplay_emu_host_table = host;
    return KPLAY_EMU_ABI_VERSION;
}
__attribute__((visibility("default"))) void kplay_emu_set_thread(kplay_emu_thread* thread) {
    kplay_emu::current_thread = thread;
}
// The C library's memory functions (the compiler emits calls to them anyway: they are on the allowlist).
void* memcpy(void* __restrict to, const void* __restrict from, size_t bytes) noexcept;
void* memmove(void* to, const void* from, size_t bytes) noexcept;
void* memset(void* to, int byte, size_t bytes) noexcept;
int memcmp(const void* a, const void* b, size_t bytes) noexcept;
}

// ---- vector types (CUDA's sizes and alignments) and dim3 -------------------------------------------
#include "kplay_vector_types.h"
#ifdef KPLAY_EMU_TRACK
#include "kplay_emu_track.h"  // a tracked build: every load and store reported (emu/access_tracker.hpp)
#endif

// ---- thread identity -------------------------------------------------------------------------------
#define threadIdx (*reinterpret_cast<const uint3*>(&::kplay_emu::current_thread->thread_idx))
#define blockIdx (*reinterpret_cast<const uint3*>(&::kplay_emu::current_thread->block->block_idx))
#define blockDim (*reinterpret_cast<const dim3*>(&::kplay_emu::current_thread->block->block_dim))
#define gridDim (*reinterpret_cast<const dim3*>(&::kplay_emu::current_thread->block->grid_dim))
constexpr int warpSize = 32;

// ---- barriers --------------------------------------------------------------------------------------
inline void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::kplay_emu::host()->sync_threads(KPLAY_BARRIER_SYNC, 0, file, line);
}
inline int __syncthreads_count(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return ::kplay_emu::host()->sync_threads(KPLAY_BARRIER_COUNT, predicate != 0, file, line);
}
inline int __syncthreads_and(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return ::kplay_emu::host()->sync_threads(KPLAY_BARRIER_AND, predicate != 0, file, line);
}
inline int __syncthreads_or(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return ::kplay_emu::host()->sync_threads(KPLAY_BARRIER_OR, predicate != 0, file, line);
}
inline void __trap(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::kplay_emu::host()->fail("trap", "__trap() was called", file, line);
}
inline void __brkpt(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::kplay_emu::host()->fail("trap", "__brkpt() was called", file, line);
}
namespace kplay_emu {
inline void grid_sync(const char* file, int line) { host()->grid_sync(file, line); }
inline bool grid_is_cooperative() { return current_thread->block->cooperative != 0; }
// `what` is a whole sentence: "X is not supported on the emulated CPU device ...".
inline void fail_unsupported(const char* what, const char* file, int line) { host()->fail("unsupported", what, file, line); }
}  // namespace kplay_emu

#include "kplay_emu_warp.h"
#include "kplay_emu_atomics.h"
#include "kplay_cuda_math.h"
#include "kplay_small_float.h"
#include "kplay_emu_intrinsics.h"
#include "kplay_emu_refused.h"

// ---- printf and assert -----------------------------------------------------------------------------
// printf is buffered by the runtime, capped, and each line is tagged with its block and thread.
inline int printf(const char* format, ...) {
    __builtin_va_list args;
    __builtin_va_start(args, format);
    const int written = ::kplay_emu::host()->vprintf(format, args);
    __builtin_va_end(args);
    return written;
}
#define assert(e) ((e) ? (void)0 : ::kplay_emu::host()->fail("assert", #e, __FILE__, __LINE__))

// ---- the launch entry ------------------------------------------------------------------------------
// kplay appends, per kernel, an extern "C" entry that takes cuLaunchKernel's void** args and calls
// the kernel with them, and one that reports the parameter sizes for the argument binding.
namespace kplay_emu {
template <unsigned... I> struct indices {};
template <unsigned N, unsigned... I> struct make_indices : make_indices<N - 1, N - 1, I...> {};
template <unsigned... I> struct make_indices<0, I...> { typedef indices<I...> type; };
template <class... P, unsigned... I>
inline void invoke_with(void (*kernel)(P...), void** args, indices<I...>) {
    kernel(*static_cast<typename remove_ref<P>::type*>(args[I])...);
}
template <class... P>
inline void invoke(void (*kernel)(P...), void** args) {
    invoke_with(kernel, args, typename make_indices<sizeof...(P)>::type());
}
template <class... P>
inline int param_sizes(void (*)(P...), unsigned long* sizes, int max) {
    const unsigned long all[] = {sizeof(P)..., 0};
    for (int i = 0; i < static_cast<int>(sizeof...(P)) && i < max; ++i) sizes[i] = all[i];
    return static_cast<int>(sizeof...(P));
}
}  // namespace kplay_emu
