// kplay_small_float.h: exact rounding into CUDA's narrow floating-point formats (binary16, bfloat16,
// fp8 e4m3 and e5m2), and out of them; shared by the emulated device and host references, freestanding.
//
// A value is rounded from a double (which holds every float and every narrow value exactly) in one step,
// so nothing is rounded twice: round to nearest even by default, or toward zero, up or down. A caller
// whose exact value is a double plus a small remainder (an fma, a 64-bit integer) passes the remainder's
// sign, which breaks a tie and moves a directed rounding across an exactly representable value.
// Encodings are counted in steps of the format's spacing, subnormals included, so one more is always
// the next larger magnitude. Out of range, formats with infinity round to it (or to the largest finite
// number where the rounding mode points toward zero); fp8 saturates to its largest finite number
// (SATFINITE) or gives NaN (e4m3) / infinity (e5m2), as NVIDIA documents cvt.satfinite and its absence.
#pragma once

// CUDA's rounding modes, as its conversions with a rounding argument take them (driver_types.h).
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };

namespace kplay_float {

struct Format {
    int mantissa_bits;
    int min_exponent;       // of the smallest normal number
    unsigned max_finite;    // the encoding of the largest finite magnitude
    unsigned infinity;      // its encoding, or 0 when the format has none (e4m3)
    unsigned nan;           // the NaN a conversion produces
    unsigned sign;          // the sign bit
};
constexpr Format kHalf{10, -14, 0x7bffu, 0x7c00u, 0x7fffu, 0x8000u};
constexpr Format kBfloat16{7, -126, 0x7f7fu, 0x7f80u, 0x7fffu, 0x8000u};
constexpr Format kE4M3{3, -6, 0x7eu, 0u, 0x7fu, 0x80u};
constexpr Format kE5M2{2, -14, 0x7bu, 0x7cu, 0x7fu, 0x80u};

enum Mode { nearest = 0, toward_zero = 1, up = 2, down = 3 };  // kplay_emu_round_mode's values, and cudaRoundMode's

inline unsigned long long bits_of(double v) {
    unsigned long long b;
    __builtin_memcpy(&b, &v, sizeof b);
    return b;
}
inline double from_bits(unsigned long long b) {
    double v;
    __builtin_memcpy(&v, &b, sizeof v);
    return v;
}
inline double power_of_two(int k) { return from_bits(static_cast<unsigned long long>(k + 1023) << 52); }  // k in [-1022, 1023]
// A quiet NaN that becomes the float 0x7fffffff, the NaN a GPU's conversions produce.
inline double canonical_nan() { return from_bits(0x7fffffffe0000000ull); }

// `value` (plus a remainder of sign `rest`) rounded into `format` in `mode`; `saturate` (fp8's SATFINITE)
// keeps out-of-range values finite.
inline unsigned encode(double value, const Format& format, int mode = nearest, int rest = 0, bool saturate = false) {
    const unsigned long long b = bits_of(value);
    const unsigned sign = (b >> 63) ? format.sign : 0u;
    const unsigned long long magnitude_bits = b & 0x7fffffffffffffffull;
    if (magnitude_bits > 0x7ff0000000000000ull) return format.nan | (format.infinity ? 0u : sign);
    // Rounding away from zero, toward it, or to nearest, seen on the magnitude.
    const bool negative = sign != 0;
    const int direction = mode == nearest ? 0 : mode == toward_zero ? -1 : (mode == up) != negative ? 1 : -1;
    unsigned code;
    if (magnitude_bits == 0x7ff0000000000000ull) {
        code = 0xffffffffu;  // past every finite encoding
    } else {
        const double magnitude = from_bits(magnitude_bits);
        const int field = static_cast<int>(magnitude_bits >> 52);
        const int exponent = field == 0 ? -1075 : field - 1023;
        const int e = exponent > format.min_exponent ? exponent : format.min_exponent;
        if (e > 1000) {
            code = 0xffffffffu;
        } else {
            const double scaled = magnitude * power_of_two(format.mantissa_bits - e);  // exact
            const double whole = __builtin_floor(scaled);
            const double fraction = scaled - whole;
            const int r = negative ? -rest : rest;  // the remainder, on the magnitude
            code = (static_cast<unsigned>(e - format.min_exponent) << format.mantissa_bits) + static_cast<unsigned>(whole);
            const bool above = fraction > 0 || (fraction == 0 && r > 0);
            const bool below = fraction == 0 && r < 0;
            if (direction > 0 && above) ++code;
            if (direction < 0 && below && code > 0) --code;
            if (direction == 0 && (fraction > 0.5 || (fraction == 0.5 && (r > 0 || (r == 0 && (code & 1u)))))) ++code;
        }
    }
    if (code > format.max_finite) {
        if (saturate || (format.infinity && direction < 0)) code = format.max_finite;
        else code = format.infinity ? format.infinity : format.nan;
    }
    return code | sign;
}

inline double decode(unsigned code, const Format& format) {
    const bool negative = (code & format.sign) != 0;
    const unsigned magnitude = code & (format.sign - 1);
    if (format.infinity ? magnitude > format.infinity : magnitude == format.nan) return canonical_nan();
    double value;
    if (format.infinity && magnitude == format.infinity) {
        value = __builtin_inf();
    } else {
        const unsigned field = magnitude >> format.mantissa_bits, fraction = magnitude & ((1u << format.mantissa_bits) - 1);
        value = field == 0 ? fraction * power_of_two(format.min_exponent - format.mantissa_bits)
                           : ((1u << format.mantissa_bits) + fraction) * power_of_two(format.min_exponent + static_cast<int>(field) - 1 -
                                                                                      format.mantissa_bits);
    }
    return negative ? -value : value;
}

// A 64-bit integer into `format`: its top 53 bits exactly, the rest as the remainder's sign.
inline unsigned encode_integer(long long v, const Format& format, int mode) {
    if (v > -(1ll << 53) && v < (1ll << 53)) return encode(static_cast<double>(v), format, mode);
    const unsigned long long magnitude = v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
    const unsigned long long low = magnitude & 0x7ffu;
    const double high = static_cast<double>(magnitude - low);  // 53 significant bits: exact
    return encode(v < 0 ? -high : high, format, mode, low == 0 ? 0 : (v < 0 ? -1 : 1));
}
inline unsigned encode_unsigned(unsigned long long v, const Format& format, int mode) {
    if (v < (1ull << 53)) return encode(static_cast<double>(v), format, mode);
    const unsigned long long low = v & 0x7ffu;
    return encode(static_cast<double>(v - low), format, mode, low != 0);
}

// A value rounded to an integer in `mode`, clamped to [lowest, highest], NaN to 0: a GPU's cvt to an integer.
template <class I>
inline I to_integer(double x, int mode, I lowest, I highest) {
    if (__builtin_isnan(x)) return 0;
    const double r = mode == toward_zero ? __builtin_trunc(x) : mode == up ? __builtin_ceil(x) : mode == down ? __builtin_floor(x)
                                                                                               : __builtin_nearbyint(x);
    if (r <= static_cast<double>(lowest)) return lowest;
    if (r >= static_cast<double>(highest)) return highest;  // exact bounds, or a bound that rounds up past the largest
    return static_cast<I>(r);
}

// fma in a narrow format: the exact product (at most 2 x 11 significant bits) plus c, rounded once.
inline unsigned fma(double a, double b, double c, const Format& format, int mode = nearest) {
    const double product = a * b;  // exact
    const double sum = product + c;
    const double back = sum - product;
    const double error = (product - (sum - back)) + (c - back);  // sum + error == product + c exactly
    return encode(sum, format, mode, error > 0 ? 1 : error < 0 ? -1 : 0);
}

}  // namespace kplay_float
