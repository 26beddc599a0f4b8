// kplay_half_math.h: the intrinsics and operators of __half, __half2, __nv_bfloat16 and __nv_bfloat162
// (included by kplay_half.h). One generic implementation serves both types; the names CUDA gives both
// (__hadd, __hmax2, hexp, ...) are overloads for each, and each type's conversions keep their own names.
//
// Arithmetic is done in float and rounded once into the narrow type, which gives the correctly rounded
// result for +, -, *, / and sqrt of 11- and 8-bit significands (float has more than twice their
// precision plus two bits); fma is done exactly (kplay_float::fma). Math functions (hexp, hsin, ...)
// are computed in double and rounded once: at least as exact as a GPU's approximations. NaN results are
// the canonical NaN; _sat clamps to [0, 1] with NaN to +0; _relu clamps below at 0 and keeps NaN.
#pragma once

namespace kplay_float {
template <class H> struct half_traits;
template <> struct half_traits<__half> {
    typedef __half_raw raw;
    typedef __half2 pair;
    static constexpr const Format& format = kHalf;
};
template <> struct half_traits<__nv_bfloat16> {
    typedef __nv_bfloat16_raw raw;
    typedef __nv_bfloat162 pair;
    static constexpr const Format& format = kBfloat16;
};
template <class H> inline unsigned short bits(H h) { return static_cast<typename half_traits<H>::raw>(h).x; }
template <class H> inline H of_bits(unsigned b) {
    typename half_traits<H>::raw r;
    r.x = static_cast<unsigned short>(b);
    return H(r);
}
template <class H> inline double value(H h) { return decode(bits(h), half_traits<H>::format); }
template <class H> inline H make(double v, int mode = nearest) { return of_bits<H>(encode(v, half_traits<H>::format, mode)); }
template <class H> inline bool is_nan(H h) { return value(h) != value(h); }
template <class H> inline H nan() { return of_bits<H>(half_traits<H>::format.nan); }
template <class H> inline float as_float(H h) { return static_cast<float>(value(h)); }

template <class H> inline H add(H a, H b) { return make<H>(as_float(a) + as_float(b)); }
template <class H> inline H sub(H a, H b) { return make<H>(as_float(a) - as_float(b)); }
template <class H> inline H mul(H a, H b) { return make<H>(as_float(a) * as_float(b)); }
template <class H> inline H div(H a, H b) { return make<H>(as_float(a) / as_float(b)); }
template <class H> inline H fma(H a, H b, H c) { return of_bits<H>(kplay_float::fma(value(a), value(b), value(c), half_traits<H>::format)); }
template <class H> inline H saturate(H h) {
    const double v = value(h);
    return make<H>(v != v || v <= 0.0 ? 0.0 : v > 1.0 ? 1.0 : v);
}
template <class H> inline H relu(H h) { return is_nan(h) ? nan<H>() : value(h) < 0.0 ? make<H>(0.0) : h; }
template <class H> inline H neg(H h) { return of_bits<H>(bits(h) ^ 0x8000u); }
template <class H> inline H abs(H h) { return of_bits<H>(bits(h) & 0x7fffu); }
// max and min: a NaN operand gives the other (both NaN: NaN), or with `nan_passes`, NaN; +0 > -0.
template <class H> inline H pick(H a, H b, bool want_max, bool nan_passes) {
    if (is_nan(a) || is_nan(b)) return nan_passes || (is_nan(a) && is_nan(b)) ? nan<H>() : is_nan(a) ? b : a;
    const double x = value(a), y = value(b);
    if (x == y) return (bits(a) & 0x8000u) == (want_max ? 0u : 0x8000u) ? a : b;
    return (x > y) == want_max ? a : b;
}
template <class H, class F> inline H unary(H h, F f) { return make<H>(f(value(h))); }
// Comparisons: ordered ones are false with a NaN operand, unordered (the u forms) true.
enum Compare { eq, ne, lt, le, gt, ge };
template <class H> inline bool compare(H a, H b, Compare c, bool unordered) {
    const double x = value(a), y = value(b);
    if (x != x || y != y) return unordered;
    switch (c) {
        case eq: return x == y;
        case ne: return x != y;
        case lt: return x < y;
        case le: return x <= y;
        case gt: return x > y;
        default: return x >= y;
    }
}
// Complex a * b + c on pairs (x the real part), as two fused multiply-adds per part.
template <class H2> inline H2 cmadd(H2 a, H2 b, H2 c) {
    return H2(fma(neg(a.y), b.y, fma(a.x, b.x, c.x)), fma(a.y, b.x, fma(a.x, b.y, c.y)));
}
// An integer conversion in a rounding mode, saturating, NaN to 0.
template <class I, class H> inline I integer_of(H h, int mode, I lowest, I highest) { return to_integer<I>(value(h), mode, lowest, highest); }
}  // namespace kplay_float

// ---- what both types have ---------------------------------------------------------------------------------
#define KPLAY_HALF_BINARY(name, name2, expression)                                      \
    inline KPLAY_H name(const KPLAY_H a, const KPLAY_H b) { return expression; }        \
    inline KPLAY_H2 name2(const KPLAY_H2 a, const KPLAY_H2 b) {                          \
        return KPLAY_H2(name(a.x, b.x), name(a.y, b.y));                                  \
    }
#define KPLAY_HALF_MATH(name, expression)                                                                     \
    inline KPLAY_H h##name(const KPLAY_H a) { return ::kplay_float::unary(a, [](double v) { return expression; }); } \
    inline KPLAY_H2 h2##name(const KPLAY_H2 a) { return KPLAY_H2(h##name(a.x), h##name(a.y)); }
#define KPLAY_HALF_COMPARE(name, c, unordered)                                                                          \
    inline bool name(const KPLAY_H a, const KPLAY_H b) { return ::kplay_float::compare(a, b, ::kplay_float::c, unordered); } \
    inline KPLAY_H2 name##2(const KPLAY_H2 a, const KPLAY_H2 b) {                                                       \
        return KPLAY_H2(KPLAY_H(name(a.x, b.x) ? 1.0f : 0.0f), KPLAY_H(name(a.y, b.y) ? 1.0f : 0.0f));                 \
    }                                                                                                                    \
    inline unsigned name##2_mask(const KPLAY_H2 a, const KPLAY_H2 b) {                                                  \
        return (name(a.x, b.x) ? 0xffffu : 0u) | (name(a.y, b.y) ? 0xffff0000u : 0u);                                    \
    }
#define KPLAY_HALF_BOTH_COMPARE(short_name, c, unordered)                                                             \
    inline bool __hb##short_name##2(const KPLAY_H2 a, const KPLAY_H2 b) {                                              \
        return ::kplay_float::compare(a.x, b.x, ::kplay_float::c, unordered) &&                                       \
               ::kplay_float::compare(a.y, b.y, ::kplay_float::c, unordered);                                         \
    }
#define KPLAY_HALF_FAMILY                                                                                              \
    KPLAY_HALF_BINARY(__hadd, __hadd2, ::kplay_float::add(a, b))                                                                \
    KPLAY_HALF_BINARY(__hsub, __hsub2, ::kplay_float::sub(a, b))                                                                \
    KPLAY_HALF_BINARY(__hmul, __hmul2, ::kplay_float::mul(a, b))                                                                \
    KPLAY_HALF_BINARY(__hadd_rn, __hadd2_rn, ::kplay_float::add(a, b))                                                             \
    KPLAY_HALF_BINARY(__hsub_rn, __hsub2_rn, ::kplay_float::sub(a, b))                                                             \
    KPLAY_HALF_BINARY(__hmul_rn, __hmul2_rn, ::kplay_float::mul(a, b))                                                             \
    KPLAY_HALF_BINARY(__hadd_sat, __hadd2_sat, ::kplay_float::saturate(::kplay_float::add(a, b)))                                   \
    KPLAY_HALF_BINARY(__hsub_sat, __hsub2_sat, ::kplay_float::saturate(::kplay_float::sub(a, b)))                                   \
    KPLAY_HALF_BINARY(__hmul_sat, __hmul2_sat, ::kplay_float::saturate(::kplay_float::mul(a, b)))                                   \
    KPLAY_HALF_BINARY(__hmax, __hmax2, ::kplay_float::pick(a, b, true, false))                                                  \
    KPLAY_HALF_BINARY(__hmin, __hmin2, ::kplay_float::pick(a, b, false, false))                                                 \
    inline KPLAY_H __hdiv(const KPLAY_H a, const KPLAY_H b) { return ::kplay_float::div(a, b); }                       \
    inline KPLAY_H2 __h2div(const KPLAY_H2 a, const KPLAY_H2 b) { return KPLAY_H2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); } \
    inline KPLAY_H __hmax_nan(const KPLAY_H a, const KPLAY_H b) { return ::kplay_float::pick(a, b, true, true); }      \
    inline KPLAY_H __hmin_nan(const KPLAY_H a, const KPLAY_H b) { return ::kplay_float::pick(a, b, false, true); }     \
    inline KPLAY_H2 __hmax2_nan(const KPLAY_H2 a, const KPLAY_H2 b) { return KPLAY_H2(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y)); } \
    inline KPLAY_H2 __hmin2_nan(const KPLAY_H2 a, const KPLAY_H2 b) { return KPLAY_H2(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y)); } \
    inline KPLAY_H __hfma(const KPLAY_H a, const KPLAY_H b, const KPLAY_H c) { return ::kplay_float::fma(a, b, c); }    \
    inline KPLAY_H __hfma_sat(const KPLAY_H a, const KPLAY_H b, const KPLAY_H c) {                                     \
        return ::kplay_float::saturate(::kplay_float::fma(a, b, c));                                                   \
    }                                                                                                                  \
    inline KPLAY_H __hfma_relu(const KPLAY_H a, const KPLAY_H b, const KPLAY_H c) { return ::kplay_float::relu(::kplay_float::fma(a, b, c)); } \
    inline KPLAY_H2 __hfma2(const KPLAY_H2 a, const KPLAY_H2 b, const KPLAY_H2 c) {                                    \
        return KPLAY_H2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));                                                 \
    }                                                                                                                  \
    inline KPLAY_H2 __hfma2_sat(const KPLAY_H2 a, const KPLAY_H2 b, const KPLAY_H2 c) {                                \
        return KPLAY_H2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));                                         \
    }                                                                                                                  \
    inline KPLAY_H2 __hfma2_relu(const KPLAY_H2 a, const KPLAY_H2 b, const KPLAY_H2 c) {                               \
        return KPLAY_H2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));                                       \
    }                                                                                                                  \
    inline KPLAY_H2 __hcmadd(const KPLAY_H2 a, const KPLAY_H2 b, const KPLAY_H2 c) { return ::kplay_float::cmadd(a, b, c); } \
    inline KPLAY_H __hneg(const KPLAY_H a) { return ::kplay_float::neg(a); }                                          \
    inline KPLAY_H2 __hneg2(const KPLAY_H2 a) { return KPLAY_H2(__hneg(a.x), __hneg(a.y)); }                          \
    inline KPLAY_H __habs(const KPLAY_H a) { return ::kplay_float::abs(a); }                                          \
    inline KPLAY_H2 __habs2(const KPLAY_H2 a) { return KPLAY_H2(__habs(a.x), __habs(a.y)); }                          \
    inline bool __hisnan(const KPLAY_H a) { return ::kplay_float::is_nan(a); }                                        \
    inline KPLAY_H2 __hisnan2(const KPLAY_H2 a) { return KPLAY_H2(KPLAY_H(__hisnan(a.x) ? 1.0f : 0.0f), KPLAY_H(__hisnan(a.y) ? 1.0f : 0.0f)); } \
    inline int __hisinf(const KPLAY_H a) {                                                                            \
        const double v = ::kplay_float::value(a);                                                                      \
        return v == __builtin_inf() ? 1 : v == -__builtin_inf() ? -1 : 0;                                              \
    }                                                                                                                  \
    KPLAY_HALF_COMPARE(__heq, eq, false) KPLAY_HALF_COMPARE(__hne, ne, false) KPLAY_HALF_COMPARE(__hlt, lt, false)     \
    KPLAY_HALF_COMPARE(__hle, le, false) KPLAY_HALF_COMPARE(__hgt, gt, false) KPLAY_HALF_COMPARE(__hge, ge, false)     \
    KPLAY_HALF_COMPARE(__hequ, eq, true) KPLAY_HALF_COMPARE(__hneu, ne, true) KPLAY_HALF_COMPARE(__hltu, lt, true)     \
    KPLAY_HALF_COMPARE(__hleu, le, true) KPLAY_HALF_COMPARE(__hgtu, gt, true) KPLAY_HALF_COMPARE(__hgeu, ge, true)     \
    KPLAY_HALF_BOTH_COMPARE(eq, eq, false) KPLAY_HALF_BOTH_COMPARE(ne, ne, false) KPLAY_HALF_BOTH_COMPARE(lt, lt, false) \
    KPLAY_HALF_BOTH_COMPARE(le, le, false) KPLAY_HALF_BOTH_COMPARE(gt, gt, false) KPLAY_HALF_BOTH_COMPARE(ge, ge, false) \
    KPLAY_HALF_BOTH_COMPARE(equ, eq, true) KPLAY_HALF_BOTH_COMPARE(neu, ne, true) KPLAY_HALF_BOTH_COMPARE(ltu, lt, true) \
    KPLAY_HALF_BOTH_COMPARE(leu, le, true) KPLAY_HALF_BOTH_COMPARE(gtu, gt, true) KPLAY_HALF_BOTH_COMPARE(geu, ge, true) \
    KPLAY_HALF_MATH(sqrt, __builtin_sqrt(v)) KPLAY_HALF_MATH(rsqrt, 1.0 / __builtin_sqrt(v)) KPLAY_HALF_MATH(rcp, 1.0 / v) \
    KPLAY_HALF_MATH(exp, __builtin_exp(v)) KPLAY_HALF_MATH(exp2, __builtin_exp2(v)) KPLAY_HALF_MATH(exp10, __builtin_pow(10.0, v)) \
    KPLAY_HALF_MATH(log, __builtin_log(v)) KPLAY_HALF_MATH(log2, __builtin_log2(v)) KPLAY_HALF_MATH(log10, __builtin_log10(v)) \
    KPLAY_HALF_MATH(sin, __builtin_sin(v)) KPLAY_HALF_MATH(cos, __builtin_cos(v)) KPLAY_HALF_MATH(tanh, __builtin_tanh(v)) \
    KPLAY_HALF_MATH(tanh_approx, __builtin_tanh(v)) KPLAY_HALF_MATH(ceil, __builtin_ceil(v))                          \
    KPLAY_HALF_MATH(floor, __builtin_floor(v)) KPLAY_HALF_MATH(trunc, __builtin_trunc(v))                             \
    KPLAY_HALF_MATH(rint, __builtin_nearbyint(v))                                                                      \
    inline KPLAY_H2 __lowhigh2highlow(const KPLAY_H2 a) { return KPLAY_H2(a.y, a.x); }                                \
    inline float __low2float(const KPLAY_H2 a) { return static_cast<float>(a.x); }                                     \
    inline float __high2float(const KPLAY_H2 a) { return static_cast<float>(a.y); }                                   \
    /* operators */                                                                                                    \
    inline KPLAY_H operator+(const KPLAY_H& a, const KPLAY_H& b) { return __hadd(a, b); }                             \
    inline KPLAY_H operator-(const KPLAY_H& a, const KPLAY_H& b) { return __hsub(a, b); }                             \
    inline KPLAY_H operator*(const KPLAY_H& a, const KPLAY_H& b) { return __hmul(a, b); }                             \
    inline KPLAY_H operator/(const KPLAY_H& a, const KPLAY_H& b) { return __hdiv(a, b); }                             \
    inline KPLAY_H& operator+=(KPLAY_H& a, const KPLAY_H& b) { return a = __hadd(a, b); }                             \
    inline KPLAY_H& operator-=(KPLAY_H& a, const KPLAY_H& b) { return a = __hsub(a, b); }                             \
    inline KPLAY_H& operator*=(KPLAY_H& a, const KPLAY_H& b) { return a = __hmul(a, b); }                             \
    inline KPLAY_H& operator/=(KPLAY_H& a, const KPLAY_H& b) { return a = __hdiv(a, b); }                             \
    inline KPLAY_H& operator++(KPLAY_H& a) { return a = __hadd(a, KPLAY_H(1.0f)); }                                   \
    inline KPLAY_H& operator--(KPLAY_H& a) { return a = __hsub(a, KPLAY_H(1.0f)); }                                   \
    inline KPLAY_H operator++(KPLAY_H& a, int) { const KPLAY_H old = a; ++a; return old; }                            \
    inline KPLAY_H operator--(KPLAY_H& a, int) { const KPLAY_H old = a; --a; return old; }                            \
    inline KPLAY_H operator+(const KPLAY_H& a) { return a; }                                                           \
    inline KPLAY_H operator-(const KPLAY_H& a) { return __hneg(a); }                                                   \
    inline bool operator==(const KPLAY_H& a, const KPLAY_H& b) { return __heq(a, b); }                                \
    inline bool operator!=(const KPLAY_H& a, const KPLAY_H& b) { return __hneu(a, b); }                               \
    inline bool operator<(const KPLAY_H& a, const KPLAY_H& b) { return __hlt(a, b); }                                 \
    inline bool operator<=(const KPLAY_H& a, const KPLAY_H& b) { return __hle(a, b); }                                \
    inline bool operator>(const KPLAY_H& a, const KPLAY_H& b) { return __hgt(a, b); }                                 \
    inline bool operator>=(const KPLAY_H& a, const KPLAY_H& b) { return __hge(a, b); }                                \
    inline KPLAY_H2 operator+(const KPLAY_H2& a, const KPLAY_H2& b) { return __hadd2(a, b); }                         \
    inline KPLAY_H2 operator-(const KPLAY_H2& a, const KPLAY_H2& b) { return __hsub2(a, b); }                         \
    inline KPLAY_H2 operator*(const KPLAY_H2& a, const KPLAY_H2& b) { return __hmul2(a, b); }                         \
    inline KPLAY_H2 operator/(const KPLAY_H2& a, const KPLAY_H2& b) { return __h2div(a, b); }                         \
    inline KPLAY_H2& operator+=(KPLAY_H2& a, const KPLAY_H2& b) { return a = __hadd2(a, b); }                         \
    inline KPLAY_H2& operator-=(KPLAY_H2& a, const KPLAY_H2& b) { return a = __hsub2(a, b); }                         \
    inline KPLAY_H2& operator*=(KPLAY_H2& a, const KPLAY_H2& b) { return a = __hmul2(a, b); }                         \
    inline KPLAY_H2& operator/=(KPLAY_H2& a, const KPLAY_H2& b) { return a = __h2div(a, b); }                         \
    inline KPLAY_H2& operator++(KPLAY_H2& a) { ++a.x; ++a.y; return a; }                                              \
    inline KPLAY_H2& operator--(KPLAY_H2& a) { --a.x; --a.y; return a; }                                              \
    inline KPLAY_H2 operator++(KPLAY_H2& a, int) { const KPLAY_H2 old = a; ++a; return old; }                         \
    inline KPLAY_H2 operator--(KPLAY_H2& a, int) { const KPLAY_H2 old = a; --a; return old; }                         \
    inline KPLAY_H2 operator+(const KPLAY_H2& a) { return a; }                                                         \
    inline KPLAY_H2 operator-(const KPLAY_H2& a) { return __hneg2(a); }                                                \
    inline bool operator==(const KPLAY_H2& a, const KPLAY_H2& b) { return __hbeq2(a, b); }                            \
    inline bool operator!=(const KPLAY_H2& a, const KPLAY_H2& b) { return __hbneu2(a, b); }                           \
    inline bool operator<(const KPLAY_H2& a, const KPLAY_H2& b) { return __hblt2(a, b); }                             \
    inline bool operator<=(const KPLAY_H2& a, const KPLAY_H2& b) { return __hble2(a, b); }                            \
    inline bool operator>(const KPLAY_H2& a, const KPLAY_H2& b) { return __hbgt2(a, b); }                             \
    inline bool operator>=(const KPLAY_H2& a, const KPLAY_H2& b) { return __hbge2(a, b); }
#define KPLAY_H __half
#define KPLAY_H2 __half2
KPLAY_HALF_FAMILY
#undef KPLAY_H
#undef KPLAY_H2
#define KPLAY_H __nv_bfloat16
#define KPLAY_H2 __nv_bfloat162
KPLAY_HALF_FAMILY
#undef KPLAY_H
#undef KPLAY_H2
#undef KPLAY_HALF_FAMILY
#undef KPLAY_HALF_BINARY
#undef KPLAY_HALF_MATH
#undef KPLAY_HALF_COMPARE
#undef KPLAY_HALF_BOTH_COMPARE

// ---- each type's conversions, under its own names ----------------------------------------------------------
// `from` is half or bfloat16 as the names spell it, H the type, H2 its pair (spelled `pair`).
#define KPLAY_HALF_TO_INT(H, from, mode, m)                                                                                            \
    inline int __##from##2int_##mode(const H h) { return ::kplay_float::integer_of<int>(h, m, -2147483647 - 1, 2147483647); }        \
    inline unsigned __##from##2uint_##mode(const H h) { return ::kplay_float::integer_of<unsigned>(h, m, 0u, 4294967295u); }           \
    inline long long __##from##2ll_##mode(const H h) {                                                                               \
        return ::kplay_float::integer_of<long long>(h, m, -9223372036854775807ll - 1, 9223372036854775807ll);                         \
    }                                                                                                                                \
    inline unsigned long long __##from##2ull_##mode(const H h) {                                                                     \
        return ::kplay_float::integer_of<unsigned long long>(h, m, 0ull, 18446744073709551615ull);                                    \
    }                                                                                                                                \
    inline short __##from##2short_##mode(const H h) { return ::kplay_float::integer_of<short>(h, m, -32768, 32767); }                 \
    inline unsigned short __##from##2ushort_##mode(const H h) { return ::kplay_float::integer_of<unsigned short>(h, m, 0, 65535); }   \
    inline H __int2##from##_##mode(const int v) { return ::kplay_float::make<H>(v, m); }                                              \
    inline H __uint2##from##_##mode(const unsigned v) { return ::kplay_float::make<H>(v, m); }                                        \
    inline H __short2##from##_##mode(const short v) { return ::kplay_float::make<H>(v, m); }                                          \
    inline H __ushort2##from##_##mode(const unsigned short v) { return ::kplay_float::make<H>(v, m); }                                \
    inline H __ll2##from##_##mode(const long long v) {                                                                                \
        return ::kplay_float::of_bits<H>(::kplay_float::encode_integer(v, ::kplay_float::half_traits<H>::format, m));                  \
    }                                                                                                                                \
    inline H __ull2##from##_##mode(const unsigned long long v) {                                                                      \
        return ::kplay_float::of_bits<H>(::kplay_float::encode_unsigned(v, ::kplay_float::half_traits<H>::format, m));                 \
    }                                                                                                                                \
    inline H __float2##from##_##mode(const float f) { return ::kplay_float::make<H>(f, m); }
#define KPLAY_HALF_CONVERSIONS(H, H2, from, pair)                                                                                     \
    KPLAY_HALF_TO_INT(H, from, rn, ::kplay_float::nearest) KPLAY_HALF_TO_INT(H, from, rz, ::kplay_float::toward_zero)                  \
    KPLAY_HALF_TO_INT(H, from, ru, ::kplay_float::up) KPLAY_HALF_TO_INT(H, from, rd, ::kplay_float::down)                              \
    inline signed char __##from##2char_rz(const H h) { return ::kplay_float::integer_of<signed char>(h, ::kplay_float::toward_zero, -128, 127); } \
    inline unsigned char __##from##2uchar_rz(const H h) { return ::kplay_float::integer_of<unsigned char>(h, ::kplay_float::toward_zero, 0, 255); } \
    inline short __##from##_as_short(const H h) { return static_cast<short>(::kplay_float::bits(h)); }                                \
    inline unsigned short __##from##_as_ushort(const H h) { return ::kplay_float::bits(h); }                                          \
    inline H __short_as_##from(const short v) { return ::kplay_float::of_bits<H>(static_cast<unsigned short>(v)); }                   \
    inline H __ushort_as_##from(const unsigned short v) { return ::kplay_float::of_bits<H>(v); }                                       \
    inline float __##from##2float(const H h) { return static_cast<float>(h); }                                                         \
    inline H __float2##from(const float f) { return ::kplay_float::make<H>(f); }                                                        \
    inline H __double2##from(const double d) { return ::kplay_float::make<H>(d); }                                                      \
    inline H2 __float2##pair##_rn(const float f) { return H2(__float2##from(f), __float2##from(f)); }                                  \
    inline H2 __floats2##pair##_rn(const float a, const float b) { return H2(__float2##from(a), __float2##from(b)); }                 \
    inline H2 __float22##pair##_rn(const float2 f) { return H2(__float2##from(f.x), __float2##from(f.y)); }                           \
    inline float2 __##pair##2float2(const H2 h) { return make_float2(static_cast<float>(h.x), static_cast<float>(h.y)); }             \
    inline H2 __##from##2##pair(const H h) { return H2(h, h); }                                                                         \
    inline H2 __halves2##pair(const H a, const H b) { return H2(a, b); }                                                               \
    inline H __low2##from(const H2 h) { return h.x; }                                                                                  \
    inline H __high2##from(const H2 h) { return h.y; }                                                                                 \
    inline H2 __low2##pair(const H2 h) { return H2(h.x, h.x); }                                                                        \
    inline H2 __high2##pair(const H2 h) { return H2(h.y, h.y); }                                                                       \
    inline H2 __lows2##pair(const H2 a, const H2 b) { return H2(a.x, b.x); }                                                           \
    inline H2 __highs2##pair(const H2 a, const H2 b) { return H2(a.y, b.y); }                                                          \
    inline H2 make_##pair(const H a, const H b) { return H2(a, b); }
KPLAY_HALF_CONVERSIONS(__half, __half2, half, half2)
KPLAY_HALF_CONVERSIONS(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162)
#undef KPLAY_HALF_CONVERSIONS
#undef KPLAY_HALF_TO_INT

#ifdef KPLAY_EMULATED
// Atomic adds on the emulated device: a compare-and-swap of the bits (the pair's whole word at once).
inline __half atomicAdd(__half* a, const __half v) {
    return ::kplay_emu::atomic_update_bits<__half, unsigned short>(a, [v](__half old) { return __hadd(old, v); });
}
inline __half2 atomicAdd(__half2* a, const __half2 v) {
    return ::kplay_emu::atomic_update_bits<__half2, unsigned>(a, [v](__half2 old) { return __hadd2(old, v); });
}
inline __nv_bfloat16 atomicAdd(__nv_bfloat16* a, const __nv_bfloat16 v) {
    return ::kplay_emu::atomic_update_bits<__nv_bfloat16, unsigned short>(a, [v](__nv_bfloat16 old) { return __hadd(old, v); });
}
inline __nv_bfloat162 atomicAdd(__nv_bfloat162* a, const __nv_bfloat162 v) {
    return ::kplay_emu::atomic_update_bits<__nv_bfloat162, unsigned>(a, [v](__nv_bfloat162 old) { return __hadd2(old, v); });
}
#endif
