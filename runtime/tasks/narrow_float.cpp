// bfloat16 and fp8 from and to double, by the formats' parameters: one rounding, in double arithmetic,
// which holds every value of these formats exactly.
#include "tasks/narrow_float.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kplay {

namespace {

struct Format {
    int mantissa_bits;
    int exponent_bits;
    int min_exponent;   // of the smallest normal value
    bool ieee_special;  // the top exponent holds infinity and NaN (bf16, e5m2); e4m3 has only 0x7f as NaN
    uint32_t max_finite;
};

constexpr Format kBf16{7, 8, -126, true, 0x7f7fu};
constexpr Format kE4M3{3, 4, -6, false, 0x7eu};
constexpr Format kE5M2{2, 5, -14, true, 0x7bu};

const Format& format_of(ElementType type) {
    switch (type) {
        case ElementType::fp8_e4m3: return kE4M3;
        case ElementType::fp8_e5m2: return kE5M2;
        default: return kBf16;
    }
}

uint32_t sign_bit(const Format& f) { return 1u << (f.mantissa_bits + f.exponent_bits); }

double decode(const Format& f, uint32_t bits) {
    const uint32_t magnitude = bits & (sign_bit(f) - 1);
    const uint32_t exponent = magnitude >> f.mantissa_bits;
    const uint32_t mantissa = magnitude & ((1u << f.mantissa_bits) - 1);
    const uint32_t top = (1u << f.exponent_bits) - 1;
    double value;
    if (f.ieee_special && exponent == top)
        value = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if (!f.ieee_special && magnitude == (top << f.mantissa_bits | ((1u << f.mantissa_bits) - 1)))
        value = std::numeric_limits<double>::quiet_NaN();
    else if (exponent == 0)
        value = std::ldexp(static_cast<double>(mantissa), f.min_exponent - f.mantissa_bits);
    else
        value = std::ldexp(static_cast<double>(mantissa | (1u << f.mantissa_bits)),
                           static_cast<int>(exponent) - 1 + f.min_exponent - f.mantissa_bits);
    return (bits & sign_bit(f)) ? -value : value;
}

uint32_t encode(const Format& f, double value) {
    const uint32_t sign = std::signbit(value) ? sign_bit(f) : 0u;
    if (std::isnan(value)) return f.ieee_special ? (((1u << f.exponent_bits) - 1) << f.mantissa_bits) | (1u << (f.mantissa_bits - 1))
                                                 : sign_bit(f) - 1;
    const double magnitude = std::fabs(value);
    if (std::isinf(value) && f.ieee_special) return sign | (((1u << f.exponent_bits) - 1) << f.mantissa_bits);
    const double largest = decode(f, f.max_finite);
    if (!(magnitude < largest)) return sign | f.max_finite;
    // The spacing of the format's values at this magnitude; rint rounds the count of them to even.
    const int exponent = magnitude == 0 ? f.min_exponent : std::max(std::ilogb(magnitude), f.min_exponent);
    const double spacing = std::ldexp(1.0, exponent - f.mantissa_bits);
    const double rounded = std::rint(magnitude / spacing) * spacing;
    if (rounded >= largest) return sign | f.max_finite;
    const int rounded_exponent = rounded == 0 ? f.min_exponent - 1 : std::ilogb(rounded);
    if (rounded_exponent < f.min_exponent)  // subnormal (or zero): the count of the smallest spacing
        return sign | static_cast<uint32_t>(rounded / std::ldexp(1.0, f.min_exponent - f.mantissa_bits));
    const auto field = static_cast<uint32_t>(rounded_exponent - f.min_exponent + 1);
    const auto mantissa = static_cast<uint32_t>(std::ldexp(rounded, f.mantissa_bits - rounded_exponent)) - (1u << f.mantissa_bits);
    return sign | (field << f.mantissa_bits) | mantissa;
}

}  // namespace

bool is_narrow_float(ElementType type) {
    return type == ElementType::bf16 || type == ElementType::fp8_e4m3 || type == ElementType::fp8_e5m2;
}

uint32_t encode_narrow(ElementType type, double value) { return encode(format_of(type), value); }

double decode_narrow(ElementType type, uint32_t bits) { return decode(format_of(type), bits); }

}  // namespace kplay
