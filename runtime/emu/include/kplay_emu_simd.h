// kplay_emu_simd.h: CUDA's SIMD-within-a-word intrinsics (__vadd2, __vcmpgtu4, __vsads2, ...) and
// Hopper's DPX ones (__viaddmax_s32, __vimax3_u16x2, __vibmin_s32, ...), lane by lane (part of the
// emulated device's prelude, through kplay_emu_intrinsics.h).
//
// A word holds two 16-bit lanes (names ending in 2 or 16x2) or four 8-bit lanes (ending in 4). Each
// lane is computed wide and put back: wrapping by default, saturating (ss signed, us unsigned) where
// the name says so. A signed rounded average rounds halves away from zero, an unsigned one up; __vhaddu
// truncates. __vcmp* gives all ones per true lane, __vset* gives 1. Each is a template with a defaulted
// parameter, so the compiler reads its body only when a kernel calls it (they are many, and compile time
// is every emulated run's).
#pragma once

namespace kplay_emu {
namespace simd {
template <int bits> constexpr unsigned lane_mask() { return bits == 32 ? 0xffffffffu : (1u << (bits & 31)) - 1; }
template <int bits, bool is_signed> inline long long lane(unsigned v, int n) {
    const unsigned raw = (v >> (bits * n)) & lane_mask<bits>();
    if (!is_signed) return raw;
    const unsigned sign = 1u << (bits - 1);
    return static_cast<long long>(raw ^ sign) - static_cast<long long>(sign);
}
template <int bits, bool is_signed> constexpr long long lowest() { return is_signed ? -(1ll << (bits - 1)) : 0; }
template <int bits, bool is_signed> constexpr long long highest() { return is_signed ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1; }
template <int bits, bool is_signed> inline long long saturate(long long v) {
    return v < lowest<bits, is_signed>() ? lowest<bits, is_signed>() : v > highest<bits, is_signed>() ? highest<bits, is_signed>() : v;
}
// Each lane of a, b (and c) through f, put back in place (its low bits).
template <int bits, bool is_signed, class F> inline unsigned map(unsigned a, unsigned b, unsigned c, F f) {
    unsigned result = 0;
    for (int n = 0; n < 32 / bits; ++n)
        result |= (static_cast<unsigned>(f(lane<bits, is_signed>(a, n), lane<bits, is_signed>(b, n), lane<bits, is_signed>(c, n))) &
                   lane_mask<bits>())
                  << (bits * n);
    return result;
}
template <int bits, bool is_signed, class F> inline unsigned sum(unsigned a, unsigned b, F f) {
    unsigned total = 0;
    for (int n = 0; n < 32 / bits; ++n) total += static_cast<unsigned>(f(lane<bits, is_signed>(a, n), lane<bits, is_signed>(b, n)));
    return total;
}
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long magnitude(long long a) { return a < 0 ? -a : a; }
}  // namespace simd
}  // namespace kplay_emu

// name2 on 16-bit lanes and name4 on 8-bit ones, with signedness S and the lane expression over a, b.
#define KPLAY_EMU_SIMD(name, S, expression)                                                                                   \
    template <int = 0> inline unsigned name##2(unsigned x, unsigned y) {                                                                        \
        return ::kplay_emu::simd::map<16, S>(x, y, 0, [](long long a, long long b, long long) { constexpr int bits = 16;       \
            (void)bits; return expression; });                                                                                \
    }                                                                                                                         \
    template <int = 0> inline unsigned name##4(unsigned x, unsigned y) {                                                                        \
        return ::kplay_emu::simd::map<8, S>(x, y, 0, [](long long a, long long b, long long) { constexpr int bits = 8;         \
            (void)bits; return expression; });                                                                                \
    }
#define KPLAY_SAT(v) ::kplay_emu::simd::saturate<bits, true>(v)
#define KPLAY_USAT(v) ::kplay_emu::simd::saturate<bits, false>(v)
KPLAY_EMU_SIMD(__vadd, false, a + b)
KPLAY_EMU_SIMD(__vaddss, true, KPLAY_SAT(a + b))
KPLAY_EMU_SIMD(__vaddus, false, KPLAY_USAT(a + b))
KPLAY_EMU_SIMD(__vsub, false, a - b)
KPLAY_EMU_SIMD(__vsubss, true, KPLAY_SAT(a - b))
KPLAY_EMU_SIMD(__vsubus, false, KPLAY_USAT(a - b))
KPLAY_EMU_SIMD(__vabsdiffs, true, ::kplay_emu::simd::magnitude(a - b))
KPLAY_EMU_SIMD(__vabsdiffu, false, ::kplay_emu::simd::magnitude(a - b))
KPLAY_EMU_SIMD(__vavgs, true, (a + b < 0 ? a + b : a + b + 1) >> 1)
KPLAY_EMU_SIMD(__vavgu, false, (a + b + 1) >> 1)
KPLAY_EMU_SIMD(__vhaddu, false, (a + b) >> 1)
KPLAY_EMU_SIMD(__vmaxs, true, ::kplay_emu::simd::max(a, b))
KPLAY_EMU_SIMD(__vmaxu, false, ::kplay_emu::simd::max(a, b))
KPLAY_EMU_SIMD(__vmins, true, ::kplay_emu::simd::min(a, b))
KPLAY_EMU_SIMD(__vminu, false, ::kplay_emu::simd::min(a, b))
KPLAY_EMU_SIMD(__vcmpeq, false, a == b ? -1 : 0)
KPLAY_EMU_SIMD(__vcmpne, false, a != b ? -1 : 0)
KPLAY_EMU_SIMD(__vcmpges, true, a >= b ? -1 : 0)
KPLAY_EMU_SIMD(__vcmpgeu, false, a >= b ? -1 : 0)
KPLAY_EMU_SIMD(__vcmpgts, true, a > b ? -1 : 0)
KPLAY_EMU_SIMD(__vcmpgtu, false, a > b ? -1 : 0)
KPLAY_EMU_SIMD(__vcmples, true, a <= b ? -1 : 0)
KPLAY_EMU_SIMD(__vcmpleu, false, a <= b ? -1 : 0)
KPLAY_EMU_SIMD(__vcmplts, true, a < b ? -1 : 0)
KPLAY_EMU_SIMD(__vcmpltu, false, a < b ? -1 : 0)
KPLAY_EMU_SIMD(__vseteq, false, a == b)
KPLAY_EMU_SIMD(__vsetne, false, a != b)
KPLAY_EMU_SIMD(__vsetges, true, a >= b)
KPLAY_EMU_SIMD(__vsetgeu, false, a >= b)
KPLAY_EMU_SIMD(__vsetgts, true, a > b)
KPLAY_EMU_SIMD(__vsetgtu, false, a > b)
KPLAY_EMU_SIMD(__vsetles, true, a <= b)
KPLAY_EMU_SIMD(__vsetleu, false, a <= b)
KPLAY_EMU_SIMD(__vsetlts, true, a < b)
KPLAY_EMU_SIMD(__vsetltu, false, a < b)
#undef KPLAY_EMU_SIMD
// One operand.
#define KPLAY_EMU_SIMD1(name, expression)                                                                                     \
    template <int = 0> inline unsigned name##2(unsigned x) {                                                                                    \
        return ::kplay_emu::simd::map<16, true>(x, 0, 0, [](long long a, long long, long long) { constexpr int bits = 16;     \
            (void)bits; return expression; });                                                                                \
    }                                                                                                                         \
    template <int = 0> inline unsigned name##4(unsigned x) {                                                                                    \
        return ::kplay_emu::simd::map<8, true>(x, 0, 0, [](long long a, long long, long long) { constexpr int bits = 8;       \
            (void)bits; return expression; });                                                                                \
    }
KPLAY_EMU_SIMD1(__vabs, ::kplay_emu::simd::magnitude(a))
KPLAY_EMU_SIMD1(__vabsss, KPLAY_SAT(::kplay_emu::simd::magnitude(a)))
KPLAY_EMU_SIMD1(__vneg, -a)
KPLAY_EMU_SIMD1(__vnegss, KPLAY_SAT(-a))
#undef KPLAY_EMU_SIMD1
#undef KPLAY_SAT
#undef KPLAY_USAT
// Sums of absolute differences over the lanes.
template <int = 0> inline unsigned __vsads2(unsigned x, unsigned y) { return ::kplay_emu::simd::sum<16, true>(x, y, [](long long a, long long b) { return ::kplay_emu::simd::magnitude(a - b); }); }
template <int = 0> inline unsigned __vsads4(unsigned x, unsigned y) { return ::kplay_emu::simd::sum<8, true>(x, y, [](long long a, long long b) { return ::kplay_emu::simd::magnitude(a - b); }); }
template <int = 0> inline unsigned __vsadu2(unsigned x, unsigned y) { return ::kplay_emu::simd::sum<16, false>(x, y, [](long long a, long long b) { return ::kplay_emu::simd::magnitude(a - b); }); }
template <int = 0> inline unsigned __vsadu4(unsigned x, unsigned y) { return ::kplay_emu::simd::sum<8, false>(x, y, [](long long a, long long b) { return ::kplay_emu::simd::magnitude(a - b); }); }

// ---- DPX (sm_90): fused add-then-min/max, three-way min/max, ReLU, and max/min that say which won ----
// Suffix s32/u32: one 32-bit lane; s16x2/u16x2: two 16-bit lanes. The add wraps in the lane's width.
namespace kplay_emu {
namespace simd {
template <int bits, bool is_signed> inline long long wrap(long long v) {
    return lane<bits, is_signed>(static_cast<unsigned>(static_cast<unsigned long long>(v)), 0);
}
}  // namespace simd
}  // namespace kplay_emu
#define KPLAY_EMU_DPX_LANES(R, name, bits_, signed_, expression)                                                         \
    template <int = 0> inline R name(R x, R y, R z) {                                                                                     \
        return static_cast<R>(::kplay_emu::simd::map<bits_, signed_>(x, y, z, [](long long a, long long b, long long c) { \
            constexpr int bits = bits_;                                                                                  \
            constexpr bool is_signed = signed_;                                                                          \
            return expression;                                                                                           \
        }));                                                                                                             \
    }
#define KPLAY_EMU_DPX3(name, expression)                                                                     \
    KPLAY_EMU_DPX_LANES(int, name##_s32, 32, true, expression)                                               \
    KPLAY_EMU_DPX_LANES(unsigned, name##_u32, 32, false, expression)                                         \
    KPLAY_EMU_DPX_LANES(unsigned, name##_s16x2, 16, true, expression)                                        \
    KPLAY_EMU_DPX_LANES(unsigned, name##_u16x2, 16, false, expression)                                       \
    template <int = 0> inline int name##_s32_relu(int x, int y, int z) {                                                        \
        return static_cast<int>(::kplay_emu::simd::max(name##_s32(x, y, z), 0));                             \
    }                                                                                                        \
    template <int = 0> inline unsigned name##_s16x2_relu(unsigned x, unsigned y, unsigned z) { return __vmaxs2(name##_s16x2(x, y, z), 0); }
#define KPLAY_SUM ::kplay_emu::simd::wrap<bits, is_signed>(a + b)
KPLAY_EMU_DPX3(__viaddmax, ::kplay_emu::simd::max(KPLAY_SUM, c))
KPLAY_EMU_DPX3(__viaddmin, ::kplay_emu::simd::min(KPLAY_SUM, c))
KPLAY_EMU_DPX3(__vimax3, ::kplay_emu::simd::max(::kplay_emu::simd::max(a, b), c))
KPLAY_EMU_DPX3(__vimin3, ::kplay_emu::simd::min(::kplay_emu::simd::min(a, b), c))
#undef KPLAY_SUM
#undef KPLAY_EMU_DPX3
#undef KPLAY_EMU_DPX_LANES
template <int = 0> inline int __vimax_s32_relu(int a, int b) { return static_cast<int>(::kplay_emu::simd::max(::kplay_emu::simd::max(a, b), 0)); }
template <int = 0> inline int __vimin_s32_relu(int a, int b) { return static_cast<int>(::kplay_emu::simd::max(::kplay_emu::simd::min(a, b), 0)); }
template <int = 0> inline unsigned __vimax_s16x2_relu(unsigned a, unsigned b) { return __vmaxs2(__vmaxs2(a, b), 0); }
template <int = 0> inline unsigned __vimin_s16x2_relu(unsigned a, unsigned b) { return __vmaxs2(__vmins2(a, b), 0); }
// max or min, and whether the first operand was the one chosen (per lane, high and low, for the 16x2 forms).
#define KPLAY_EMU_VIB(name, keeps_first)                                                                                   \
    template <int = 0> inline int name##_s32(int a, int b, bool* pred) { return (*pred = a keeps_first b) ? a : b; }                          \
    template <int = 0> inline unsigned name##_u32(unsigned a, unsigned b, bool* pred) { return (*pred = a keeps_first b) ? a : b; }           \
    template <int = 0> inline unsigned name##_s16x2(unsigned a, unsigned b, bool* hi, bool* lo) {                                            \
        *lo = ::kplay_emu::simd::lane<16, true>(a, 0) keeps_first ::kplay_emu::simd::lane<16, true>(b, 0);                \
        *hi = ::kplay_emu::simd::lane<16, true>(a, 1) keeps_first ::kplay_emu::simd::lane<16, true>(b, 1);                \
        return ((*hi ? a : b) & 0xffff0000u) | ((*lo ? a : b) & 0xffffu);                                                  \
    }                                                                                                                      \
    template <int = 0> inline unsigned name##_u16x2(unsigned a, unsigned b, bool* hi, bool* lo) {                                            \
        *lo = (a & 0xffffu) keeps_first (b & 0xffffu);                                                                     \
        *hi = (a >> 16) keeps_first (b >> 16);                                                                             \
        return ((*hi ? a : b) & 0xffff0000u) | ((*lo ? a : b) & 0xffffu);                                                  \
    }
KPLAY_EMU_VIB(__vibmax, >=)
KPLAY_EMU_VIB(__vibmin, <=)
#undef KPLAY_EMU_VIB
