// kplay_emu_intrinsics.h: CUDA's arithmetic, conversion, bit and memory intrinsics on the emulated device
// (part of kplay_emu_prelude.h).
//
// Rounding modes are exact: _rn is the host's own arithmetic (round to nearest even), and _rz, _ru, _rd
// are done by the runtime with the FPU's mode set for that one operation (kplay_emu_host::round_arith).
// Float-to-integer conversions saturate and turn NaN into 0, as a GPU's cvt does. Cache hints (__ldg,
// __ldcs, __stwt, ...) are plain loads and stores: the host has one coherent memory.
#pragma once

namespace kplay_emu {
enum { rn = KPLAY_ROUND_NEAREST, rz = KPLAY_ROUND_ZERO, ru = KPLAY_ROUND_UP, rd = KPLAY_ROUND_DOWN };
inline double integral_in_mode(double x, int mode) {
    switch (mode) {
        case rz: return __builtin_trunc(x);
        case ru: return __builtin_ceil(x);
        case rd: return __builtin_floor(x);
        default: return __builtin_nearbyint(x);  // the host's mode is round to nearest even
    }
}
// x rounded in mode, then clamped to [lo, hi] (hi + 1 is a power of two, so the test is exact); NaN is 0.
template <class I>
inline I convert(double x, int mode, double lo, double hi_plus_one, I lowest, I highest) {
    if (__builtin_isnan(x)) return 0;
    const double r = integral_in_mode(x, mode);
    if (r < lo) return lowest;
    if (r >= hi_plus_one) return highest;
    return static_cast<I>(r);
}
inline int to_int(double x, int mode) { return convert<int>(x, mode, -2147483648.0, 2147483648.0, -2147483647 - 1, 2147483647); }
inline unsigned to_uint(double x, int mode) { return convert<unsigned>(x, mode, 0.0, 4294967296.0, 0u, 4294967295u); }
inline long long to_ll(double x, int mode) {
    return convert<long long>(x, mode, -9223372036854775808.0, 9223372036854775808.0, -9223372036854775807ll - 1, 9223372036854775807ll);
}
inline unsigned long long to_ull(double x, int mode) {
    return convert<unsigned long long>(x, mode, 0.0, 18446744073709551616.0, 0ull, 18446744073709551615ull);
}
inline float f_arith(int op, int mode, float a, float b = 0, float c = 0) {
    return static_cast<float>(host()->round_arith(op, mode, 0, a, b, c));
}
inline double d_arith(int op, int mode, double a, double b = 0, double c = 0) { return host()->round_arith(op, mode, 1, a, b, c); }
inline float int_to_float(unsigned long long bits, bool is_unsigned, int mode) {
    return static_cast<float>(host()->round_integer(mode, 0, is_unsigned, bits));
}
inline double int_to_double(unsigned long long bits, bool is_unsigned, int mode) { return host()->round_integer(mode, 1, is_unsigned, bits); }
}  // namespace kplay_emu

// ---- float and double arithmetic in each rounding mode ------------------------------------------------------
#define KPLAY_EMU_ROUNDED(mode)                                                                                                \
    inline float __fadd_##mode(float a, float b) { return ::kplay_emu::f_arith(KPLAY_ROUND_ADD, ::kplay_emu::mode, a, b); }  \
    inline float __fsub_##mode(float a, float b) { return ::kplay_emu::f_arith(KPLAY_ROUND_ADD, ::kplay_emu::mode, a, -b); } \
    inline float __fmul_##mode(float a, float b) { return ::kplay_emu::f_arith(KPLAY_ROUND_MUL, ::kplay_emu::mode, a, b); }  \
    inline float __fdiv_##mode(float a, float b) { return ::kplay_emu::f_arith(KPLAY_ROUND_DIV, ::kplay_emu::mode, a, b); }  \
    inline float __frcp_##mode(float a) { return ::kplay_emu::f_arith(KPLAY_ROUND_DIV, ::kplay_emu::mode, 1.0f, a); }        \
    inline float __fsqrt_##mode(float a) { return ::kplay_emu::f_arith(KPLAY_ROUND_SQRT, ::kplay_emu::mode, a); }            \
    inline float __fmaf_##mode(float a, float b, float c) {                                                                  \
        return ::kplay_emu::f_arith(KPLAY_ROUND_FMA, ::kplay_emu::mode, a, b, c);                                            \
    }                                                                                                                        \
    inline float __fmaf_ieee_##mode(float a, float b, float c) { return __fmaf_##mode(a, b, c); }                            \
    inline double __dadd_##mode(double a, double b) { return ::kplay_emu::d_arith(KPLAY_ROUND_ADD, ::kplay_emu::mode, a, b); } \
    inline double __dsub_##mode(double a, double b) { return ::kplay_emu::d_arith(KPLAY_ROUND_ADD, ::kplay_emu::mode, a, -b); } \
    inline double __dmul_##mode(double a, double b) { return ::kplay_emu::d_arith(KPLAY_ROUND_MUL, ::kplay_emu::mode, a, b); } \
    inline double __ddiv_##mode(double a, double b) { return ::kplay_emu::d_arith(KPLAY_ROUND_DIV, ::kplay_emu::mode, a, b); } \
    inline double __drcp_##mode(double a) { return ::kplay_emu::d_arith(KPLAY_ROUND_DIV, ::kplay_emu::mode, 1.0, a); }         \
    inline double __dsqrt_##mode(double a) { return ::kplay_emu::d_arith(KPLAY_ROUND_SQRT, ::kplay_emu::mode, a); }           \
    inline double __fma_##mode(double a, double b, double c) {                                                               \
        return ::kplay_emu::d_arith(KPLAY_ROUND_FMA, ::kplay_emu::mode, a, b, c);                                            \
    }
KPLAY_EMU_ROUNDED(rz) KPLAY_EMU_ROUNDED(ru) KPLAY_EMU_ROUNDED(rd)
#undef KPLAY_EMU_ROUNDED
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return __builtin_sqrtf(a); }
inline float __frsqrt_rn(float a) { return static_cast<float>(1.0 / __builtin_sqrt(static_cast<double>(a))); }
inline float __fmaf_rn(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline float __fmaf_ieee_rn(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __drcp_rn(double a) { return 1.0 / a; }
inline double __dsqrt_rn(double a) { return __builtin_sqrt(a); }
inline double __fma_rn(double a, double b, double c) { return __builtin_fma(a, b, c); }

// ---- conversions -------------------------------------------------------------------------------------------
#define KPLAY_EMU_CONVERSIONS(mode)                                                                                     \
    inline int __float2int_##mode(float x) { return ::kplay_emu::to_int(x, ::kplay_emu::mode); }                      \
    inline unsigned __float2uint_##mode(float x) { return ::kplay_emu::to_uint(x, ::kplay_emu::mode); }               \
    inline long long __float2ll_##mode(float x) { return ::kplay_emu::to_ll(x, ::kplay_emu::mode); }                  \
    inline unsigned long long __float2ull_##mode(float x) { return ::kplay_emu::to_ull(x, ::kplay_emu::mode); }       \
    inline int __double2int_##mode(double x) { return ::kplay_emu::to_int(x, ::kplay_emu::mode); }                    \
    inline unsigned __double2uint_##mode(double x) { return ::kplay_emu::to_uint(x, ::kplay_emu::mode); }             \
    inline long long __double2ll_##mode(double x) { return ::kplay_emu::to_ll(x, ::kplay_emu::mode); }                \
    inline unsigned long long __double2ull_##mode(double x) { return ::kplay_emu::to_ull(x, ::kplay_emu::mode); }     \
    inline float __double2float_##mode(double x) {                                                                      \
        return static_cast<float>(::kplay_emu::host()->round_arith(KPLAY_ROUND_CONVERT, ::kplay_emu::mode, 0, x, 0, 0)); \
    }                                                                                                                   \
    inline float __int2float_##mode(int x) { return ::kplay_emu::int_to_float(static_cast<long long>(x), false, ::kplay_emu::mode); } \
    inline float __uint2float_##mode(unsigned x) { return ::kplay_emu::int_to_float(x, true, ::kplay_emu::mode); }   \
    inline float __ll2float_##mode(long long x) { return ::kplay_emu::int_to_float(x, false, ::kplay_emu::mode); }   \
    inline float __ull2float_##mode(unsigned long long x) { return ::kplay_emu::int_to_float(x, true, ::kplay_emu::mode); } \
    inline double __ll2double_##mode(long long x) { return ::kplay_emu::int_to_double(x, false, ::kplay_emu::mode); }  \
    inline double __ull2double_##mode(unsigned long long x) { return ::kplay_emu::int_to_double(x, true, ::kplay_emu::mode); }
KPLAY_EMU_CONVERSIONS(rz) KPLAY_EMU_CONVERSIONS(ru) KPLAY_EMU_CONVERSIONS(rd)
#undef KPLAY_EMU_CONVERSIONS
inline int __float2int_rn(float x) { return ::kplay_emu::to_int(x, ::kplay_emu::rn); }
inline unsigned __float2uint_rn(float x) { return ::kplay_emu::to_uint(x, ::kplay_emu::rn); }
inline long long __float2ll_rn(float x) { return ::kplay_emu::to_ll(x, ::kplay_emu::rn); }
inline unsigned long long __float2ull_rn(float x) { return ::kplay_emu::to_ull(x, ::kplay_emu::rn); }
inline int __double2int_rn(double x) { return ::kplay_emu::to_int(x, ::kplay_emu::rn); }
inline unsigned __double2uint_rn(double x) { return ::kplay_emu::to_uint(x, ::kplay_emu::rn); }
inline long long __double2ll_rn(double x) { return ::kplay_emu::to_ll(x, ::kplay_emu::rn); }
inline unsigned long long __double2ull_rn(double x) { return ::kplay_emu::to_ull(x, ::kplay_emu::rn); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline float __ull2float_rn(unsigned long long x) { return static_cast<float>(x); }
inline double __ll2double_rn(long long x) { return static_cast<double>(x); }
inline double __ull2double_rn(unsigned long long x) { return static_cast<double>(x); }
inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned x) { return x; }

inline float __int_as_float(int x) { return ::kplay_emu::bit_cast<float>(x); }
inline int __float_as_int(float x) { return ::kplay_emu::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return ::kplay_emu::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return ::kplay_emu::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return ::kplay_emu::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return ::kplay_emu::bit_cast<long long>(x); }
inline int __double2hiint(double x) { return static_cast<int>(::kplay_emu::bit_cast<unsigned long long>(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(::kplay_emu::bit_cast<unsigned long long>(x)); }
inline double __hiloint2double(int hi, int lo) {
    return ::kplay_emu::bit_cast<double>((static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) | static_cast<unsigned>(lo));
}

// The older spellings with a cudaRoundMode argument (device_double_functions.h).
inline double dadd(double a, double b, cudaRoundMode m = cudaRoundNearest) { return ::kplay_emu::d_arith(KPLAY_ROUND_ADD, m, a, b); }
inline double dsub(double a, double b, cudaRoundMode m = cudaRoundNearest) { return ::kplay_emu::d_arith(KPLAY_ROUND_ADD, m, a, -b); }
inline double dmul(double a, double b, cudaRoundMode m = cudaRoundNearest) { return ::kplay_emu::d_arith(KPLAY_ROUND_MUL, m, a, b); }
inline double fma(double a, double b, double c, cudaRoundMode m) { return ::kplay_emu::d_arith(KPLAY_ROUND_FMA, m, a, b, c); }
inline int double2int(double a, cudaRoundMode m = cudaRoundZero) { return ::kplay_emu::to_int(a, m); }
inline unsigned double2uint(double a, cudaRoundMode m = cudaRoundZero) { return ::kplay_emu::to_uint(a, m); }
inline long long double2ll(double a, cudaRoundMode m = cudaRoundZero) { return ::kplay_emu::to_ll(a, m); }
inline unsigned long long double2ull(double a, cudaRoundMode m = cudaRoundZero) { return ::kplay_emu::to_ull(a, m); }
inline double ll2double(long long a, cudaRoundMode m = cudaRoundNearest) { return ::kplay_emu::int_to_double(a, false, m); }
inline double ull2double(unsigned long long a, cudaRoundMode m = cudaRoundNearest) { return ::kplay_emu::int_to_double(a, true, m); }
inline double int2double(int a, cudaRoundMode = cudaRoundNearest) { return a; }
inline double uint2double(unsigned a, cudaRoundMode = cudaRoundNearest) { return a; }
inline double float2double(float a, cudaRoundMode = cudaRoundNearest) { return a; }

// ---- integer and bit intrinsics ------------------------------------------------------------------------------
// Counted with shifts and masks: __builtin_popcount without the popcnt instruction calls libgcc, which
// an emulated kernel does not link.
inline int __popcll(unsigned long long x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return static_cast<int>((x * 0x0101010101010101ull) >> 56);
}
inline int __popc(unsigned x) { return __popcll(x); }
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
inline unsigned long long __brevll(unsigned long long x) {
    return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) | __brev(static_cast<unsigned>(x >> 32));
}
// Byte n of the result is byte (selector >> 4n) & 7 of the eight bytes y:x (x's are 0-3).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned selector) {
    const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
    unsigned result = 0;
    for (int n = 0; n < 4; ++n) result |= static_cast<unsigned>((bytes >> (8 * ((selector >> (4 * n)) & 7))) & 0xff) << (8 * n);
    return result;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
    return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
    return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) << (shift < 32 ? shift : 32)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
    return static_cast<unsigned>(((static_cast<unsigned long long>(hi) << 32) | lo) >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
    return static_cast<unsigned>(((static_cast<unsigned long long>(hi) << 32) | lo) >> (shift < 32 ? shift : 32));
}
inline int __hadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b) >> 1); }
inline int __rhadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b + 1) >> 1); }
inline unsigned __uhadd(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b) >> 1); }
inline unsigned __urhadd(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b + 1) >> 1); }
inline int __mul24(int a, int b) {  // the low 24 bits of each, as signed numbers
    const int a24 = static_cast<int>(static_cast<unsigned>(a) << 8) >> 8, b24 = static_cast<int>(static_cast<unsigned>(b) << 8) >> 8;
    return static_cast<int>(static_cast<unsigned>(a24) * static_cast<unsigned>(b24));
}
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return static_cast<long long>((static_cast<__int128>(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline unsigned __sad(int x, int y, unsigned z) { return (x > y ? static_cast<unsigned>(x) - y : static_cast<unsigned>(y) - x) + z; }
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
inline unsigned short __nv_bswap16(unsigned short x) { return __builtin_bswap16(x); }
inline unsigned __nv_bswap32(unsigned x) { return __builtin_bswap32(x); }
inline unsigned long long __nv_bswap64(unsigned long long x) { return __builtin_bswap64(x); }

// Dot products of 8-bit (and 16- by 8-bit) lanes, accumulated in 32 bits.
namespace kplay_emu {
template <bool is_signed> inline int lane8(unsigned v, int n) {
    const unsigned byte = (v >> (8 * n)) & 0xffu;
    return is_signed ? static_cast<int>(static_cast<signed char>(byte)) : static_cast<int>(byte);
}
template <bool is_signed> inline int lane16(unsigned v, int n) {
    const unsigned half = (v >> (16 * n)) & 0xffffu;
    return is_signed ? static_cast<int>(static_cast<short>(half)) : static_cast<int>(half);
}
template <bool is_signed> inline unsigned dp4a(unsigned a, unsigned b, unsigned c) {
    unsigned sum = c;
    for (int n = 0; n < 4; ++n) sum += static_cast<unsigned>(lane8<is_signed>(a, n) * lane8<is_signed>(b, n));
    return sum;
}
template <bool is_signed> inline unsigned dp2a(unsigned a, unsigned b, unsigned c, int high) {
    return c + static_cast<unsigned>(lane16<is_signed>(a, 0) * lane8<is_signed>(b, 2 * high) +
                                     lane16<is_signed>(a, 1) * lane8<is_signed>(b, 2 * high + 1));
}
}  // namespace kplay_emu
inline int __dp4a(int a, int b, int c) { return static_cast<int>(::kplay_emu::dp4a<true>(a, b, c)); }
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) { return ::kplay_emu::dp4a<false>(a, b, c); }
inline int __dp4a(char4 a, char4 b, int c) { return __dp4a(::kplay_emu::bit_cast<int>(a), ::kplay_emu::bit_cast<int>(b), c); }
inline unsigned __dp4a(uchar4 a, uchar4 b, unsigned c) {
    return __dp4a(::kplay_emu::bit_cast<unsigned>(a), ::kplay_emu::bit_cast<unsigned>(b), c);
}
#define KPLAY_EMU_DP2A(name, high)                                                                                      \
    inline int name(int a, int b, int c) { return static_cast<int>(::kplay_emu::dp2a<true>(a, b, c, high)); }          \
    inline unsigned name(unsigned a, unsigned b, unsigned c) { return ::kplay_emu::dp2a<false>(a, b, c, high); }       \
    inline int name(short2 a, char4 b, int c) { return name(::kplay_emu::bit_cast<int>(a), ::kplay_emu::bit_cast<int>(b), c); } \
    inline unsigned name(ushort2 a, uchar4 b, unsigned c) {                                                             \
        return name(::kplay_emu::bit_cast<unsigned>(a), ::kplay_emu::bit_cast<unsigned>(b), c);                         \
    }
KPLAY_EMU_DP2A(__dp2a_lo, 0) KPLAY_EMU_DP2A(__dp2a_hi, 1)
#undef KPLAY_EMU_DP2A

// ---- loads and stores with cache hints, and asynchronous copies done at once ------------------------------
#define KPLAY_EMU_LOAD(name) template <class T> inline T name(const T* p) { return *p; }
#define KPLAY_EMU_STORE(name) template <class T> inline void name(T* p, T value) { *p = value; }
KPLAY_EMU_LOAD(__ldg) KPLAY_EMU_LOAD(__ldca) KPLAY_EMU_LOAD(__ldcg) KPLAY_EMU_LOAD(__ldcs) KPLAY_EMU_LOAD(__ldlu) KPLAY_EMU_LOAD(__ldcv)
KPLAY_EMU_STORE(__stwb) KPLAY_EMU_STORE(__stcg) KPLAY_EMU_STORE(__stcs) KPLAY_EMU_STORE(__stwt)
#undef KPLAY_EMU_LOAD
#undef KPLAY_EMU_STORE
// cp.async's building blocks: the copy is complete when the call returns, which any later wait allows.
inline void __nv_memcpy_async_shared_global_4(void* dst, const void* src, unsigned) { __builtin_memcpy(dst, src, 4); }
inline void __nv_memcpy_async_shared_global_8(void* dst, const void* src, unsigned) { __builtin_memcpy(dst, src, 8); }
inline void __nv_memcpy_async_shared_global_16(void* dst, const void* src, unsigned) { __builtin_memcpy(dst, src, 16); }

#include "kplay_emu_simd.h"
