// kplay_emu_prelude.h: CUDA C++ as the host compiler sees it on the emulated device.
//
// Given to g++/clang++ with -include, so the user's line numbers stay theirs. It is freestanding on
// purpose: <cmath> and <atomic> alone cost 400-550 ms of compile time, and the kernel must not reach
// libc anyway (the runtime refuses a shared object with undefined symbols outside a short allowlist).
// Every CUDA thread is a fiber on a worker thread; its identity lives in a thread-local pointer the
// runtime sets before each switch, and everything that needs the other threads (barriers, warp
// collectives) calls back into the runtime through the kplay_emu_host table.
#pragma once
#define KPLAY_EMULATED 1
#define KPLAY_EMU_PRELUDE_VERSION 1

#include "kplay_emu_abi.h"

// ---- keywords ------------------------------------------------------------------------------------
#include "kplay_cuda_keywords.h"
#define __shared__ static thread_local  // one copy per worker thread; a block runs wholly on one worker
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")

typedef unsigned long size_t;
typedef long ptrdiff_t;

namespace kplay_emu {
extern "C" const kplay_emu_host* kplay_emu_host_table;
static thread_local const kplay_emu_thread* current_thread;
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
__attribute__((visibility("default"))) void kplay_emu_set_thread(const kplay_emu_thread* thread) {
    kplay_emu::current_thread = thread;
}
}

// ---- vector types (CUDA's sizes and alignments) and dim3 -------------------------------------------
#include "kplay_vector_types.h"

// ---- thread identity -------------------------------------------------------------------------------
#define threadIdx (*reinterpret_cast<const uint3*>(&::kplay_emu::current_thread->thread_idx))
#define blockIdx (*reinterpret_cast<const uint3*>(&::kplay_emu::current_thread->block->block_idx))
#define blockDim (*reinterpret_cast<const dim3*>(&::kplay_emu::current_thread->block->block_dim))
#define gridDim (*reinterpret_cast<const dim3*>(&::kplay_emu::current_thread->block->grid_dim))
constexpr int warpSize = 32;

// ---- synchronisation -------------------------------------------------------------------------------
#define __syncthreads() ::kplay_emu::host()->sync_threads(__FILE__, __LINE__)
#define __syncwarp(...) ::kplay_emu::warp_sync(__FILE__, __LINE__, ##__VA_ARGS__)
#define __threadfence() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __threadfence_block() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __threadfence_system() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __trap() ::kplay_emu::host()->fail("trap", "__trap() was called", __FILE__, __LINE__)
#define __brkpt() ::kplay_emu::host()->fail("trap", "__brkpt() was called", __FILE__, __LINE__)
#define __nanosleep(ns) ((void)(ns))

namespace kplay_emu {
inline void warp_sync(const char* file, int line, unsigned mask = 0xffffffffu) {
    host()->warp_op(KPLAY_WARP_SYNC, mask, 0, 0, 32, file, line);
}
template <class T>
inline T warp_exchange(int op, unsigned mask, T value, int operand, int width, const char* file, int line) {
    static_assert(sizeof(T) <= 8, "warp shuffles move at most 8 bytes");
    unsigned long long bits = 0;
    __builtin_memcpy(&bits, &value, sizeof(T));
    bits = host()->warp_op(op, mask, bits, operand, width, file, line);
    T result;
    __builtin_memcpy(&result, &bits, sizeof(T));
    return result;
}
}  // namespace kplay_emu

#define __shfl_sync(mask, v, lane, ...) ::kplay_emu::warp_exchange(KPLAY_WARP_SHFL, mask, v, lane, ::kplay_emu::width_or_32(__VA_ARGS__), __FILE__, __LINE__)
#define __shfl_up_sync(mask, v, d, ...) ::kplay_emu::warp_exchange(KPLAY_WARP_SHFL_UP, mask, v, d, ::kplay_emu::width_or_32(__VA_ARGS__), __FILE__, __LINE__)
#define __shfl_down_sync(mask, v, d, ...) ::kplay_emu::warp_exchange(KPLAY_WARP_SHFL_DOWN, mask, v, d, ::kplay_emu::width_or_32(__VA_ARGS__), __FILE__, __LINE__)
#define __shfl_xor_sync(mask, v, m, ...) ::kplay_emu::warp_exchange(KPLAY_WARP_SHFL_XOR, mask, v, m, ::kplay_emu::width_or_32(__VA_ARGS__), __FILE__, __LINE__)
#define __ballot_sync(mask, p) static_cast<unsigned>(::kplay_emu::host()->warp_op(KPLAY_WARP_BALLOT, mask, (p) ? 1 : 0, 0, 32, __FILE__, __LINE__))
#define __any_sync(mask, p) static_cast<int>(::kplay_emu::host()->warp_op(KPLAY_WARP_ANY, mask, (p) ? 1 : 0, 0, 32, __FILE__, __LINE__))
#define __all_sync(mask, p) static_cast<int>(::kplay_emu::host()->warp_op(KPLAY_WARP_ALL, mask, (p) ? 1 : 0, 0, 32, __FILE__, __LINE__))
#define __activemask() static_cast<unsigned>(::kplay_emu::host()->warp_op(KPLAY_WARP_ACTIVE, 0xffffffffu, 0, 0, 32, __FILE__, __LINE__))
namespace kplay_emu {
constexpr int width_or_32() { return 32; }
constexpr int width_or_32(int width) { return width; }
}  // namespace kplay_emu

// ---- atomics (real ones: blocks run in parallel on the worker threads) ----------------------------
namespace kplay_emu {
template <class T, class F>
inline T atomic_update(T* address, F update) {
    T old = __atomic_load_n(address, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(address, &old, update(old), true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    return old;
}
template <class T, class Bits, class F>
inline T atomic_update_float(T* address, F update) {
    Bits* bits = reinterpret_cast<Bits*>(address);
    Bits old = __atomic_load_n(bits, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(bits, &old, bit_cast<Bits>(update(bit_cast<T>(old))), true, __ATOMIC_SEQ_CST,
                                        __ATOMIC_RELAXED)) {
    }
    return bit_cast<T>(old);
}
}  // namespace kplay_emu
#define KPLAY_EMU_INT_ATOMICS(T)                                                                              \
    inline T atomicAdd(T* a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); }                        \
    inline T atomicSub(T* a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); }                        \
    inline T atomicAnd(T* a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); }                        \
    inline T atomicOr(T* a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }                          \
    inline T atomicXor(T* a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); }                        \
    inline T atomicExch(T* a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); }                      \
    inline T atomicMax(T* a, T v) { return kplay_emu::atomic_update(a, [v](T o) { return o > v ? o : v; }); }  \
    inline T atomicMin(T* a, T v) { return kplay_emu::atomic_update(a, [v](T o) { return o < v ? o : v; }); }  \
    inline T atomicCAS(T* a, T compare, T v) {                                                                \
        __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                \
        return compare;                                                                                       \
    }
KPLAY_EMU_INT_ATOMICS(int)
KPLAY_EMU_INT_ATOMICS(unsigned int)
KPLAY_EMU_INT_ATOMICS(unsigned long long)
KPLAY_EMU_INT_ATOMICS(long long)
inline float atomicAdd(float* a, float v) { return kplay_emu::atomic_update_float<float, unsigned>(a, [v](float o) { return o + v; }); }
inline double atomicAdd(double* a, double v) {
    return kplay_emu::atomic_update_float<double, unsigned long long>(a, [v](double o) { return o + v; });
}
inline float atomicExch(float* a, float v) { return kplay_emu::bit_cast<float>(atomicExch(reinterpret_cast<unsigned*>(a), kplay_emu::bit_cast<unsigned>(v))); }
inline unsigned atomicInc(unsigned* a, unsigned limit) {
    return kplay_emu::atomic_update(a, [limit](unsigned o) { return o >= limit ? 0u : o + 1; });
}
inline unsigned atomicDec(unsigned* a, unsigned limit) {
    return kplay_emu::atomic_update(a, [limit](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd

// ---- math ------------------------------------------------------------------------------------------
// Builtins: sqrt and fabs become instructions (-fno-math-errno); the rest call libm's pure functions,
// which are on the runtime's allowlist.
#define KPLAY_EMU_MATH1(name) \
    inline float name##f(float x) { return __builtin_##name##f(x); } \
    inline double name(double x) { return __builtin_##name(x); }
#define KPLAY_EMU_MATH2(name) \
    inline float name##f(float x, float y) { return __builtin_##name##f(x, y); } \
    inline double name(double x, double y) { return __builtin_##name(x, y); }
KPLAY_EMU_MATH1(sqrt) KPLAY_EMU_MATH1(cbrt) KPLAY_EMU_MATH1(exp) KPLAY_EMU_MATH1(exp2) KPLAY_EMU_MATH1(expm1)
KPLAY_EMU_MATH1(log) KPLAY_EMU_MATH1(log2) KPLAY_EMU_MATH1(log10) KPLAY_EMU_MATH1(log1p)
KPLAY_EMU_MATH1(sin) KPLAY_EMU_MATH1(cos) KPLAY_EMU_MATH1(tan) KPLAY_EMU_MATH1(asin) KPLAY_EMU_MATH1(acos)
KPLAY_EMU_MATH1(atan) KPLAY_EMU_MATH1(sinh) KPLAY_EMU_MATH1(cosh) KPLAY_EMU_MATH1(tanh) KPLAY_EMU_MATH1(erf)
KPLAY_EMU_MATH1(fabs) KPLAY_EMU_MATH1(floor) KPLAY_EMU_MATH1(ceil) KPLAY_EMU_MATH1(round) KPLAY_EMU_MATH1(trunc)
KPLAY_EMU_MATH1(rint)
KPLAY_EMU_MATH2(pow) KPLAY_EMU_MATH2(atan2) KPLAY_EMU_MATH2(fmod) KPLAY_EMU_MATH2(fmin) KPLAY_EMU_MATH2(fmax)
KPLAY_EMU_MATH2(hypot) KPLAY_EMU_MATH2(copysign)
inline float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
inline float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
inline void sincosf(float x, float* s, float* c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }
inline float __expf(float x) { return __builtin_expf(x); }
inline float __logf(float x) { return __builtin_logf(x); }
inline float __sinf(float x) { return __builtin_sinf(x); }
inline float __cosf(float x) { return __builtin_cosf(x); }
inline float __powf(float x, float y) { return __builtin_powf(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmaf_rn(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline bool isnan(float x) { return __builtin_isnan(x); }
inline bool isnan(double x) { return __builtin_isnan(x); }
inline bool isinf(float x) { return __builtin_isinf(x); }
inline bool isinf(double x) { return __builtin_isinf(x); }
inline bool isfinite(float x) { return __builtin_isfinite(x); }
inline bool isfinite(double x) { return __builtin_isfinite(x); }
inline int abs(int x) { return x < 0 ? -x : x; }
inline long long llabs(long long x) { return x < 0 ? -x : x; }
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float min(float a, float b) { return __builtin_fminf(a, b); }
inline float max(float a, float b) { return __builtin_fmaxf(a, b); }
inline double min(double a, double b) { return __builtin_fmin(a, b); }
inline double max(double a, double b) { return __builtin_fmax(a, b); }
inline float __int_as_float(int x) { return kplay_emu::bit_cast<float>(x); }
inline int __float_as_int(float x) { return kplay_emu::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return kplay_emu::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return kplay_emu::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return kplay_emu::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return kplay_emu::bit_cast<long long>(x); }
inline int __float2int_rn(float x) { return static_cast<int>(__builtin_rintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline unsigned __float2uint_rn(float x) { return static_cast<unsigned>(__builtin_rintf(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
inline int __mul24(int a, int b) { return a * b; }
inline unsigned __umul24(unsigned a, unsigned b) { return a * b; }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32); }
template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline T __ldcs(const T* p) { return *p; }
template <class T> inline void __stcs(T* p, T v) { *p = v; }
inline long long clock64() { return static_cast<long long>(__builtin_ia32_rdtsc()); }
inline int clock() { return static_cast<int>(__builtin_ia32_rdtsc()); }

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

// ---- what the emulated device does not do ----------------------------------------------------------
// Named so that the compiler's message says what is missing (inline PTX and kernel launches from a
// kernel are refused before compiling, by kplay's source scan).
#define KPLAY_EMU_UNSUPPORTED(name, what)                                                     \
    template <class T = void, class... A> T name(A...) {                                      \
        static_assert(::kplay_emu::always_false<T>, #name ": " what " are not supported on the emulated CPU device"); \
    }
KPLAY_EMU_UNSUPPORTED(tex1Dfetch, "textures") KPLAY_EMU_UNSUPPORTED(tex1D, "textures")
KPLAY_EMU_UNSUPPORTED(tex2D, "textures") KPLAY_EMU_UNSUPPORTED(tex3D, "textures")
KPLAY_EMU_UNSUPPORTED(surf2Dread, "surfaces") KPLAY_EMU_UNSUPPORTED(surf2Dwrite, "surfaces")
KPLAY_EMU_UNSUPPORTED(__syncthreads_count, "barrier reductions") KPLAY_EMU_UNSUPPORTED(__syncthreads_and, "barrier reductions")
KPLAY_EMU_UNSUPPORTED(__syncthreads_or, "barrier reductions") KPLAY_EMU_UNSUPPORTED(__match_any_sync, "warp match operations")
KPLAY_EMU_UNSUPPORTED(__cvta_generic_to_shared, "shared-memory address spaces (cp.async)")
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

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
