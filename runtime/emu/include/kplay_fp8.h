// kplay_fp8.h: CUDA's 8-bit floating-point types (cuda_fp8.h) in software: __nv_fp8_e4m3 and
// __nv_fp8_e5m2 with their pairs and quads, the __nv_cvt_* conversions, and the e8m0 scale factors.
// Freestanding; shared by the emulated device and host references, like kplay_half.h.
//
// Conversions into fp8 round to nearest even, once, from the exact value. With __NV_SATFINITE (what the
// classes' constructors use) a value beyond the largest finite number, infinity included, becomes that
// number (448 for e4m3, 57344 for e5m2); with __NV_NOSAT it becomes NaN in e4m3, which has no infinity,
// and infinity in e5m2. A float NaN becomes 0x7f. Conversions out of fp8 are exact. An e8m0 scale is a
// power of two 2^(e-127): a value's magnitude rounds to one (toward zero or up, as asked), clipped to
// [2^-127, 2^127] (beyond it with __NV_NOSAT: NaN, 0xff).
#pragma once

#include "kplay_half.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

namespace kplay_float {
inline const Format& fp8_format(__nv_fp8_interpretation_t kind) { return kind == __NV_E4M3 ? kE4M3 : kE5M2; }
inline __nv_fp8_storage_t to_fp8(double v, __nv_saturation_t saturate, __nv_fp8_interpretation_t kind) {
    return static_cast<__nv_fp8_storage_t>(encode(v, fp8_format(kind), nearest, 0, saturate == __NV_SATFINITE));
}
inline __nv_fp8_storage_t float_to_fp8(float f, __nv_saturation_t saturate, __nv_fp8_interpretation_t kind) {
    return f != f ? 0x7f : to_fp8(f, saturate, kind);  // a float NaN is canonical (positive) first
}
inline double fp8_value(__nv_fp8_storage_t bits, __nv_fp8_interpretation_t kind) { return decode(bits, fp8_format(kind)); }

// The e8m0 scale of |v|: 2^k rounded toward zero or up (cudaRoundZero / cudaRoundPosInf; nearest picks the closer).
inline __nv_fp8_storage_t to_e8m0(double v, __nv_saturation_t saturate, int rounding) {
    if (v != v) return 0xff;
    const double magnitude = v < 0 ? -v : v;
    if (magnitude == __builtin_inf()) return saturate == __NV_SATFINITE ? 254 : 0xff;
    if (magnitude == 0) return 0;
    const unsigned long long b = bits_of(magnitude);
    int k = static_cast<int>(b >> 52) - 1023;
    const bool exact = (b & 0xfffffffffffffull) == 0;
    if (!exact && (rounding == up || (rounding == nearest && magnitude >= 1.5 * power_of_two(k)))) ++k;
    const int e = k + 127;
    if (e < 0) return 0;
    if (e > 254) return saturate == __NV_SATFINITE ? 254 : 0xff;
    return static_cast<__nv_fp8_storage_t>(e);
}
inline unsigned short e8m0_to_bfloat16_bits(__nv_fp8_storage_t e) {
    if (e == 0xff) return kBfloat16.nan;
    return static_cast<unsigned short>(encode(e == 0 ? 0.5 * power_of_two(-126) : power_of_two(e - 127), kBfloat16));
}
}  // namespace kplay_float

// ---- the conversion functions -------------------------------------------------------------------------------
inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t s, const __nv_fp8_interpretation_t k) {
    return kplay_float::to_fp8(x, s, k);
}
inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t s, const __nv_fp8_interpretation_t k) {
    return kplay_float::float_to_fp8(x, s, k);
}
inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t s, const __nv_fp8_interpretation_t k) {
    return kplay_float::float_to_fp8(kplay_float::to_float(x.x, kplay_float::kHalf), s, k);
}
inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x, const __nv_saturation_t s,
                                                      const __nv_fp8_interpretation_t k) {
    return kplay_float::float_to_fp8(kplay_float::to_float(x.x, kplay_float::kBfloat16), s, k);
}
// A pair: the first value in the low byte.
#define KPLAY_FP8_PAIR(name, In, one)                                                                                      \
    inline __nv_fp8x2_storage_t name(const In x, const __nv_saturation_t s, const __nv_fp8_interpretation_t k) {         \
        return static_cast<__nv_fp8x2_storage_t>(one(x.x, s, k) | (one(x.y, s, k) << 8));                                    \
    }
KPLAY_FP8_PAIR(__nv_cvt_double2_to_fp8x2, double2, __nv_cvt_double_to_fp8)
KPLAY_FP8_PAIR(__nv_cvt_float2_to_fp8x2, float2, __nv_cvt_float_to_fp8)
#undef KPLAY_FP8_PAIR
inline __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(const __half2_raw x, const __nv_saturation_t s, const __nv_fp8_interpretation_t k) {
    return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_halfraw_to_fp8(__half_raw{x.x}, s, k) | (__nv_cvt_halfraw_to_fp8(__half_raw{x.y}, s, k) << 8));
}
inline __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(const __nv_bfloat162_raw x, const __nv_saturation_t s,
                                                          const __nv_fp8_interpretation_t k) {
    return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.x}, s, k) |
                                             (__nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.y}, s, k) << 8));
}
inline __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x, const __nv_fp8_interpretation_t k) {
    return __half_raw{kplay_float::from_double(kplay_float::fp8_value(x, k), kplay_float::kHalf)};
}
inline __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x, const __nv_fp8_interpretation_t k) {
    return __half2_raw{__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x & 0xffu), k).x,
                       __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x >> 8), k).x};
}
inline __nv_fp8_storage_t __nv_cvt_double_to_e8m0(const double x, const __nv_saturation_t s, const enum cudaRoundMode r) {
    return kplay_float::to_e8m0(x, s, r);
}
inline __nv_fp8_storage_t __nv_cvt_float_to_e8m0(const float x, const __nv_saturation_t s, const enum cudaRoundMode r) {
    return kplay_float::to_e8m0(x, s, r);
}
inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_e8m0(const __nv_bfloat16_raw x, const __nv_saturation_t s, const enum cudaRoundMode r) {
    return kplay_float::to_e8m0(kplay_float::decode(x.x, kplay_float::kBfloat16), s, r);
}
inline __nv_fp8x2_storage_t __nv_cvt_double2_to_e8m0x2(const double2 x, const __nv_saturation_t s, const enum cudaRoundMode r) {
    return static_cast<__nv_fp8x2_storage_t>(kplay_float::to_e8m0(x.x, s, r) | (kplay_float::to_e8m0(x.y, s, r) << 8));
}
inline __nv_fp8x2_storage_t __nv_cvt_float2_to_e8m0x2(const float2 x, const __nv_saturation_t s, const enum cudaRoundMode r) {
    return static_cast<__nv_fp8x2_storage_t>(kplay_float::to_e8m0(x.x, s, r) | (kplay_float::to_e8m0(x.y, s, r) << 8));
}
inline __nv_fp8x2_storage_t __nv_cvt_bfloat162raw_to_e8m0x2(const __nv_bfloat162_raw x, const __nv_saturation_t s,
                                                           const enum cudaRoundMode r) {
    return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_bfloat16raw_to_e8m0(__nv_bfloat16_raw{x.x}, s, r) |
                                             (__nv_cvt_bfloat16raw_to_e8m0(__nv_bfloat16_raw{x.y}, s, r) << 8));
}
inline __nv_bfloat16_raw __nv_cvt_e8m0_to_bf16raw(const __nv_fp8_storage_t x) { return __nv_bfloat16_raw{kplay_float::e8m0_to_bfloat16_bits(x)}; }
inline __nv_bfloat162_raw __nv_cvt_e8m0x2_to_bf162raw(const __nv_fp8x2_storage_t x) {
    return __nv_bfloat162_raw{kplay_float::e8m0_to_bfloat16_bits(static_cast<__nv_fp8_storage_t>(x & 0xffu)),
                              kplay_float::e8m0_to_bfloat16_bits(static_cast<__nv_fp8_storage_t>(x >> 8))};
}

// ---- the classes: one value, a pair and a quad of each kind --------------------------------------------------
#define KPLAY_FP8_CLASSES(E, K)                                                                                               \
    struct __attribute__((aligned(1))) __nv_fp8_##E {                                                                         \
        __nv_fp8_storage_t __x;                                                                                               \
        __nv_fp8_##E() = default;                                                                                             \
        explicit __nv_fp8_##E(const __half f) : __x(__nv_cvt_halfraw_to_fp8(f, __NV_SATFINITE, K)) {}                        \
        explicit __nv_fp8_##E(const __nv_bfloat16 f) : __x(__nv_cvt_bfloat16raw_to_fp8(f, __NV_SATFINITE, K)) {}            \
        explicit __nv_fp8_##E(const float f) : __x(__nv_cvt_float_to_fp8(f, __NV_SATFINITE, K)) {}                           \
        explicit __nv_fp8_##E(const double f) : __x(__nv_cvt_double_to_fp8(f, __NV_SATFINITE, K)) {}                         \
        explicit __nv_fp8_##E(const unsigned short v) : __x(from_integer(v)) {}                                              \
        explicit __nv_fp8_##E(const unsigned int v) : __x(from_integer(v)) {}                                                \
        explicit __nv_fp8_##E(const unsigned long v) : __x(from_integer(static_cast<long long>(v > 1ul << 20 ? 1ul << 20 : v))) {} \
        explicit __nv_fp8_##E(const unsigned long long v) : __x(from_integer(static_cast<long long>(v > 1ull << 20 ? 1ull << 20 : v))) {} \
        explicit __nv_fp8_##E(const short v) : __x(from_integer(v)) {}                                                       \
        explicit __nv_fp8_##E(const int v) : __x(from_integer(v)) {}                                                         \
        explicit __nv_fp8_##E(const long v) : __x(from_integer(v)) {}                                                        \
        explicit __nv_fp8_##E(const long long v) : __x(from_integer(v)) {}                                                   \
        explicit operator float() const { return static_cast<float>(::kplay_float::fp8_value(__x, K)); }                     \
        explicit operator double() const { return ::kplay_float::fp8_value(__x, K); }                                        \
        explicit operator __half() const { return __half(__nv_cvt_fp8_to_halfraw(__x, K)); }                                 \
        explicit operator __nv_bfloat16() const { return __nv_bfloat16(static_cast<float>(*this)); }                         \
        explicit operator unsigned char() const { return as<unsigned char>(0, 255); }                                         \
        explicit operator unsigned short() const { return as<unsigned short>(0, 65535); }                                     \
        explicit operator unsigned int() const { return as<unsigned int>(0u, 4294967295u); }                                  \
        explicit operator unsigned long() const { return as<unsigned long>(0ul, 18446744073709551615ul); }                    \
        explicit operator unsigned long long() const { return as<unsigned long long>(0ull, 18446744073709551615ull); }        \
        explicit operator signed char() const { return as<signed char>(-128, 127); }                                          \
        explicit operator char() const { return as<char>(static_cast<char>(-128), 127); }                                     \
        explicit operator short() const { return as<short>(-32768, 32767); }                                                  \
        explicit operator int() const { return as<int>(-2147483647 - 1, 2147483647); }                                       \
        explicit operator long() const { return as<long>(-9223372036854775807l - 1, 9223372036854775807l); }                  \
        explicit operator long long() const { return as<long long>(-9223372036854775807ll - 1, 9223372036854775807ll); }      \
        explicit operator bool() const { return (__x & 0x7fu) != 0; }                                                         \
                                                                                                                              \
    private:                                                                                                                  \
        static __nv_fp8_storage_t from_integer(long long v) { /* past 2^20 every integer saturates alike */          \
            const long long limit = 1ll << 20;                                                                                \
            return ::kplay_float::to_fp8(static_cast<double>(v > limit ? limit : v < -limit ? -limit : v), __NV_SATFINITE, K); \
        }                                                                                                                     \
        template <class I> I as(I lowest, I highest) const {                                                                  \
            return ::kplay_float::to_integer<I>(::kplay_float::fp8_value(__x, K), ::kplay_float::toward_zero, lowest, highest); \
        }                                                                                                                     \
    };                                                                                                                        \
    struct __attribute__((aligned(2))) __nv_fp8x2_##E {                                                                       \
        __nv_fp8x2_storage_t __x;                                                                                             \
        __nv_fp8x2_##E() = default;                                                                                           \
        explicit __nv_fp8x2_##E(const __half2 f) : __x(__nv_cvt_halfraw2_to_fp8x2(f, __NV_SATFINITE, K)) {}                  \
        explicit __nv_fp8x2_##E(const __nv_bfloat162 f) : __x(__nv_cvt_bfloat16raw2_to_fp8x2(f, __NV_SATFINITE, K)) {}      \
        explicit __nv_fp8x2_##E(const float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, K)) {}                    \
        explicit __nv_fp8x2_##E(const double2 f) : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, K)) {}                  \
        explicit operator __half2() const { return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, K)); }                            \
        explicit operator float2() const {                                                                                    \
            return make_float2(static_cast<float>(::kplay_float::fp8_value(static_cast<__nv_fp8_storage_t>(__x & 0xffu), K)), \
                               static_cast<float>(::kplay_float::fp8_value(static_cast<__nv_fp8_storage_t>(__x >> 8), K)));   \
        }                                                                                                                     \
    };                                                                                                                        \
    struct __attribute__((aligned(4))) __nv_fp8x4_##E {                                                                       \
        __nv_fp8x4_storage_t __x;                                                                                             \
        __nv_fp8x4_##E() = default;                                                                                           \
        explicit __nv_fp8x4_##E(const __half2 lo, const __half2 hi)                                                           \
            : __x(__nv_cvt_halfraw2_to_fp8x2(lo, __NV_SATFINITE, K) |                                                        \
                  (static_cast<unsigned>(__nv_cvt_halfraw2_to_fp8x2(hi, __NV_SATFINITE, K)) << 16)) {}                       \
        explicit __nv_fp8x4_##E(const __nv_bfloat162 lo, const __nv_bfloat162 hi)                                             \
            : __x(__nv_cvt_bfloat16raw2_to_fp8x2(lo, __NV_SATFINITE, K) |                                                    \
                  (static_cast<unsigned>(__nv_cvt_bfloat16raw2_to_fp8x2(hi, __NV_SATFINITE, K)) << 16)) {}                   \
        explicit __nv_fp8x4_##E(const float4 f)                                                                               \
            : __x(__nv_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __NV_SATFINITE, K) |                                       \
                  (static_cast<unsigned>(__nv_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __NV_SATFINITE, K)) << 16)) {}      \
        explicit operator float4() const {                                                                                    \
            float v[4];                                                                                                       \
            for (int i = 0; i < 4; ++i)                                                                                       \
                v[i] = static_cast<float>(::kplay_float::fp8_value(static_cast<__nv_fp8_storage_t>(__x >> (8 * i)), K));      \
            return make_float4(v[0], v[1], v[2], v[3]);                                                                       \
        }                                                                                                                     \
    };
KPLAY_FP8_CLASSES(e4m3, __NV_E4M3)
KPLAY_FP8_CLASSES(e5m2, __NV_E5M2)
#undef KPLAY_FP8_CLASSES
typedef __nv_fp8_e4m3 nv_fp8_e4m3;
typedef __nv_fp8_e5m2 nv_fp8_e5m2;

// An e8m0 scale: made from a value with __NV_SATFINITE and rounding up, read back as a power of two.
struct __attribute__((aligned(1))) __nv_fp8_e8m0 {
    __nv_fp8_storage_t __x;
    __nv_fp8_e8m0() = default;
    explicit __nv_fp8_e8m0(const float f) : __x(kplay_float::to_e8m0(f, __NV_SATFINITE, kplay_float::up)) {}
    explicit __nv_fp8_e8m0(const double f) : __x(kplay_float::to_e8m0(f, __NV_SATFINITE, kplay_float::up)) {}
    explicit __nv_fp8_e8m0(const __half f) : __x(kplay_float::to_e8m0(static_cast<float>(f), __NV_SATFINITE, kplay_float::up)) {}
    explicit __nv_fp8_e8m0(const __nv_bfloat16 f) : __x(kplay_float::to_e8m0(static_cast<float>(f), __NV_SATFINITE, kplay_float::up)) {}
    explicit operator __nv_bfloat16() const { return __nv_bfloat16(__nv_cvt_e8m0_to_bf16raw(__x)); }
    explicit operator float() const { return kplay_float::to_float(kplay_float::e8m0_to_bfloat16_bits(__x), kplay_float::kBfloat16); }
    explicit operator double() const { return static_cast<float>(*this); }
};
