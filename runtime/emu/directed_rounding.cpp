// fesetround around one operation; volatile operands and result pin the operation between the two calls.
#include "emu/directed_rounding.hpp"

#include <cfenv>
#include <cmath>

#include "emu/include/kplay_emu_abi.h"

namespace kplay {

namespace {

int fenv_mode(int mode) {
    switch (mode) {
        case KPLAY_ROUND_ZERO: return FE_TOWARDZERO;
        case KPLAY_ROUND_UP: return FE_UPWARD;
        case KPLAY_ROUND_DOWN: return FE_DOWNWARD;
        default: return FE_TONEAREST;
    }
}

// Sets the rounding mode for its lifetime.
class RoundingMode {
public:
    explicit RoundingMode(int mode) : saved_(std::fegetround()) { std::fesetround(fenv_mode(mode)); }
    ~RoundingMode() { std::fesetround(saved_); }
    RoundingMode(const RoundingMode&) = delete;
    RoundingMode& operator=(const RoundingMode&) = delete;

private:
    int saved_;
};

template <class T>
T arith(int op, T a, T b, T c) {
    volatile T va = a, vb = b, vc = c;
    volatile T result;
    switch (op) {
        case KPLAY_ROUND_ADD: result = va + vb; break;
        case KPLAY_ROUND_MUL: result = va * vb; break;
        case KPLAY_ROUND_DIV: result = va / vb; break;
        case KPLAY_ROUND_FMA: result = std::fma(va, vb, vc); break;
        case KPLAY_ROUND_SQRT: result = std::sqrt(va); break;
        default: result = va; break;
    }
    return result;
}

}  // namespace

double emulated_round_arith(int op, int mode, int to_double, double a, double b, double c) {
    if (!to_double && op == KPLAY_ROUND_CONVERT) {
        RoundingMode rounding(mode);
        volatile double value = a;
        volatile float result = static_cast<float>(value);
        return result;
    }
    RoundingMode rounding(mode);
    if (to_double) return arith<double>(op, a, b, c);
    return arith<float>(op, static_cast<float>(a), static_cast<float>(b), static_cast<float>(c));
}

double emulated_round_integer(int mode, int to_double, int is_unsigned, unsigned long long bits) {
    RoundingMode rounding(mode);
    volatile unsigned long long value = bits;
    if (to_double) {
        volatile double result = is_unsigned ? static_cast<double>(value) : static_cast<double>(static_cast<long long>(value));
        return result;
    }
    volatile float result = is_unsigned ? static_cast<float>(value) : static_cast<float>(static_cast<long long>(value));
    return result;
}

}  // namespace kplay
