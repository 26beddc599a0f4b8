// kplay_emu_warp.h: the warp collectives of the emulated device (part of kplay_emu_prelude.h).
//
// Each waits, in the runtime, for the lanes its mask names (a lane that has exited is not waited for),
// then returns this lane's result; __activemask() returns the lanes that reached it together. Values of
// up to 8 bytes travel (any type, as CUDA's overloads for the arithmetic, half and bfloat16 types do).
#pragma once

namespace kplay_emu {
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
inline unsigned long long warp_op(int op, unsigned mask, unsigned long long value, const char* file, int line) {
    return host()->warp_op(op, mask, value, 0, 32, file, line);
}
template <class T>
inline unsigned long long match_bits(T value) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_*_sync compares 32- or 64-bit values");
    unsigned long long bits = 0;
    __builtin_memcpy(&bits, &value, sizeof(T));
    return bits;
}
}  // namespace kplay_emu

#define KPLAY_EMU_SITE const char *file = __builtin_FILE(), int line = __builtin_LINE()

inline void __syncwarp(unsigned mask = 0xffffffffu, KPLAY_EMU_SITE) { ::kplay_emu::warp_op(KPLAY_WARP_SYNC, mask, 0, file, line); }
template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32, KPLAY_EMU_SITE) {
    return ::kplay_emu::warp_exchange(KPLAY_WARP_SHFL, mask, var, src_lane, width, file, line);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, KPLAY_EMU_SITE) {
    return ::kplay_emu::warp_exchange(KPLAY_WARP_SHFL_UP, mask, var, static_cast<int>(delta), width, file, line);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, KPLAY_EMU_SITE) {
    return ::kplay_emu::warp_exchange(KPLAY_WARP_SHFL_DOWN, mask, var, static_cast<int>(delta), width, file, line);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32, KPLAY_EMU_SITE) {
    return ::kplay_emu::warp_exchange(KPLAY_WARP_SHFL_XOR, mask, var, lane_mask, width, file, line);
}
inline unsigned __ballot_sync(unsigned mask, int predicate, KPLAY_EMU_SITE) {
    return static_cast<unsigned>(::kplay_emu::warp_op(KPLAY_WARP_BALLOT, mask, predicate != 0, file, line));
}
inline int __any_sync(unsigned mask, int predicate, KPLAY_EMU_SITE) {
    return static_cast<int>(::kplay_emu::warp_op(KPLAY_WARP_ANY, mask, predicate != 0, file, line));
}
inline int __all_sync(unsigned mask, int predicate, KPLAY_EMU_SITE) {
    return static_cast<int>(::kplay_emu::warp_op(KPLAY_WARP_ALL, mask, predicate != 0, file, line));
}
// Whether every lane of the mask passes the same predicate.
inline int __uni_sync(unsigned mask, int predicate, KPLAY_EMU_SITE) {
    const int all = __all_sync(mask, predicate, file, line);
    return all || !__any_sync(mask, predicate, file, line);
}
inline unsigned __activemask(KPLAY_EMU_SITE) {
    return static_cast<unsigned>(::kplay_emu::warp_op(KPLAY_WARP_ACTIVE, 0xffffffffu, 0, file, line));
}
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, KPLAY_EMU_SITE) {
    return static_cast<unsigned>(::kplay_emu::warp_op(KPLAY_WARP_MATCH_ANY, mask, ::kplay_emu::match_bits(value), file, line));
}
template <class T>
inline unsigned __match_all_sync(unsigned mask, T value, int* predicate, KPLAY_EMU_SITE) {
    const unsigned all = static_cast<unsigned>(::kplay_emu::warp_op(KPLAY_WARP_MATCH_ALL, mask, ::kplay_emu::match_bits(value), file, line));
    *predicate = all != 0;
    return all;
}
#define KPLAY_EMU_REDUCE(name, T, op)                                                                       \
    inline T name(unsigned mask, T value, KPLAY_EMU_SITE) {                                                 \
        return static_cast<T>(::kplay_emu::warp_op(op, mask, static_cast<unsigned>(value), file, line));    \
    }
KPLAY_EMU_REDUCE(__reduce_add_sync, unsigned, KPLAY_WARP_REDUCE_ADD)
KPLAY_EMU_REDUCE(__reduce_add_sync, int, KPLAY_WARP_REDUCE_ADD)
KPLAY_EMU_REDUCE(__reduce_min_sync, unsigned, KPLAY_WARP_REDUCE_UMIN)
KPLAY_EMU_REDUCE(__reduce_min_sync, int, KPLAY_WARP_REDUCE_MIN)
KPLAY_EMU_REDUCE(__reduce_max_sync, unsigned, KPLAY_WARP_REDUCE_UMAX)
KPLAY_EMU_REDUCE(__reduce_max_sync, int, KPLAY_WARP_REDUCE_MAX)
KPLAY_EMU_REDUCE(__reduce_and_sync, unsigned, KPLAY_WARP_REDUCE_AND)
KPLAY_EMU_REDUCE(__reduce_or_sync, unsigned, KPLAY_WARP_REDUCE_OR)
KPLAY_EMU_REDUCE(__reduce_xor_sync, unsigned, KPLAY_WARP_REDUCE_XOR)
#undef KPLAY_EMU_REDUCE

// The n-th set bit of mask counted from base (offset > 0 upwards, < 0 downwards, 0: base itself if set),
// or 0xffffffff when there is none.
inline unsigned __fns(unsigned mask, unsigned base, int offset) {
    if (base > 31) return 0xffffffffu;
    if (offset == 0) return (mask >> base) & 1u ? base : 0xffffffffu;
    int remaining = offset > 0 ? offset : -offset;
    const int step = offset > 0 ? 1 : -1;
    for (int lane = static_cast<int>(base); lane >= 0 && lane < 32; lane += step)
        if (((mask >> lane) & 1u) && --remaining == 0) return static_cast<unsigned>(lane);
    return 0xffffffffu;
}
