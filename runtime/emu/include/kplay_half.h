// kplay_half.h: a software __half (IEEE binary16, round to nearest even), as cuda_fp16.h has it.
// Freestanding; the emulated kernels' cuda_fp16.h and the host references' one are both this file.
#pragma once

struct __half {
    unsigned short x;
};
struct __half2 {
    __half x, y;
};

namespace kplay_half {
inline unsigned to_bits(float value) {
    unsigned bits;
    __builtin_memcpy(&bits, &value, sizeof bits);
    return bits;
}
inline float from_bits(unsigned bits) {
    float value;
    __builtin_memcpy(&value, &bits, sizeof value);
    return value;
}
inline unsigned short float_to_bits(float value) {
    const unsigned f = to_bits(value);
    const unsigned sign = (f >> 16) & 0x8000u;
    const int exponent = static_cast<int>((f >> 23) & 0xff) - 127 + 15;
    unsigned mantissa = f & 0x7fffffu;
    if (((f >> 23) & 0xff) == 0xff) return static_cast<unsigned short>(sign | 0x7c00u | (mantissa ? 0x200u : 0));
    if (exponent >= 31) return static_cast<unsigned short>(sign | 0x7c00u);
    if (exponent <= 0) {
        if (exponent < -10) return static_cast<unsigned short>(sign);
        mantissa |= 0x800000u;
        const int shift = 14 - exponent;
        unsigned half = mantissa >> shift;
        const unsigned rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1))) ++half;
        return static_cast<unsigned short>(sign | half);
    }
    unsigned half = sign | (static_cast<unsigned>(exponent) << 10) | (mantissa >> 13);
    const unsigned rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1))) ++half;  // may carry into the exponent: correct
    return static_cast<unsigned short>(half);
}
inline float bits_to_float(unsigned short h) {
    const unsigned sign = (h & 0x8000u) << 16;
    const unsigned exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ffu;
    if (exponent == 0) {
        const float magnitude = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // 2^-24 per step
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31) return from_bits(sign | 0x7f800000u | (mantissa << 13));
    return from_bits(sign | ((exponent + 112) << 23) | (mantissa << 13));
}
}  // namespace kplay_half

inline __half __float2half(float f) { return {kplay_half::float_to_bits(f)}; }
inline __half __float2half_rn(float f) { return __float2half(f); }
inline float __half2float(__half h) { return kplay_half::bits_to_float(h.x); }
inline __half __hadd(__half a, __half b) { return __float2half(__half2float(a) + __half2float(b)); }
inline __half __hsub(__half a, __half b) { return __float2half(__half2float(a) - __half2float(b)); }
inline __half __hmul(__half a, __half b) { return __float2half(__half2float(a) * __half2float(b)); }
inline __half __hdiv(__half a, __half b) { return __float2half(__half2float(a) / __half2float(b)); }
inline __half __hfma(__half a, __half b, __half c) { return __float2half(__half2float(a) * __half2float(b) + __half2float(c)); }
inline __half operator+(__half a, __half b) { return __hadd(a, b); }
inline __half operator-(__half a, __half b) { return __hsub(a, b); }
inline __half operator*(__half a, __half b) { return __hmul(a, b); }
inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
inline bool operator<(__half a, __half b) { return __half2float(a) < __half2float(b); }
inline bool operator>(__half a, __half b) { return __half2float(a) > __half2float(b); }
inline __half2 __floats2half2_rn(float a, float b) { return {__float2half(a), __float2half(b)}; }
inline float __low2float(__half2 h) { return __half2float(h.x); }
inline float __high2float(__half2 h) { return __half2float(h.y); }
