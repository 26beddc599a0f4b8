// kplay_emu_atomics.h: atomics, fences and __nanosleep on the emulated device (part of kplay_emu_prelude.h).
//
// Atomics are real ones: blocks run in parallel on the worker threads. A thread that polls another's
// flag through them (`while (atomicAdd(&flag, 0) == 0);`, a spin lock's atomicCAS) would keep its worker
// forever, since fibers switch only where a thread waits: so an atomic that finds the same value at the
// same address a third time in a row yields to the block's other threads, as does a second fence before
// the runtime resumes the thread again, and every __nanosleep. (A spin on a volatile load is preempted
// by the runtime's timer instead: runtime/emu/preemption.hpp.)
#pragma once

namespace kplay_emu {
inline void note_atomic(const void* address, unsigned long long value) {
    kplay_emu_thread* t = current_thread;
    if (t->spin_address == address && t->spin_value == value) {
        if (++t->spin_repeats >= 2) {
            t->spin_repeats = 0;
            host()->yield();
        }
        return;
    }
    t->spin_address = address;
    t->spin_value = value;
    t->spin_repeats = 0;
}
template <class T>
inline T noted(const void* address, T old) {
    unsigned long long bits = 0;
    __builtin_memcpy(&bits, &old, sizeof(T) < 8 ? sizeof(T) : 8);
    note_atomic(address, bits);
    return old;
}
inline void note_fence() {
    if (++current_thread->fences >= 2) host()->yield();
}
template <class T, class F>
inline T atomic_update(T* address, F update) {
    T old = __atomic_load_n(address, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(address, &old, update(old), true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    return noted(address, old);
}
// A read-modify-write of a type without native atomics (float, double, half): a compare-and-swap of its bits.
template <class T, class Bits, class F>
inline T atomic_update_bits(T* address, F update) {
    Bits* bits = reinterpret_cast<Bits*>(address);
    Bits old = __atomic_load_n(bits, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(bits, &old, bit_cast<Bits>(static_cast<T>(update(bit_cast<T>(old)))), true, __ATOMIC_SEQ_CST,
                                        __ATOMIC_RELAXED)) {
    }
    return noted(address, bit_cast<T>(old));
}
}  // namespace kplay_emu

#define KPLAY_EMU_INT_ATOMICS(T)                                                                                              \
    inline T atomicAdd(T* a, T v) { return ::kplay_emu::noted(a, __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST)); }                 \
    inline T atomicSub(T* a, T v) { return ::kplay_emu::noted(a, __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST)); }                 \
    inline T atomicAnd(T* a, T v) { return ::kplay_emu::noted(a, __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST)); }                 \
    inline T atomicOr(T* a, T v) { return ::kplay_emu::noted(a, __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST)); }                   \
    inline T atomicXor(T* a, T v) { return ::kplay_emu::noted(a, __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST)); }                 \
    inline T atomicExch(T* a, T v) { return ::kplay_emu::noted(a, __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST)); }               \
    inline T atomicMax(T* a, T v) { return ::kplay_emu::atomic_update(a, [v](T o) { return o > v ? o : v; }); }                \
    inline T atomicMin(T* a, T v) { return ::kplay_emu::atomic_update(a, [v](T o) { return o < v ? o : v; }); }                \
    inline T atomicCAS(T* a, T compare, T v) {                                                                                 \
        __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                                \
        return ::kplay_emu::noted(a, compare);                                                                                 \
    }
KPLAY_EMU_INT_ATOMICS(int)
KPLAY_EMU_INT_ATOMICS(unsigned int)
KPLAY_EMU_INT_ATOMICS(unsigned long long)
KPLAY_EMU_INT_ATOMICS(long long)
#undef KPLAY_EMU_INT_ATOMICS
inline unsigned short atomicCAS(unsigned short* a, unsigned short compare, unsigned short v) {
    __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return ::kplay_emu::noted(a, compare);
}
inline float atomicAdd(float* a, float v) { return ::kplay_emu::atomic_update_bits<float, unsigned>(a, [v](float o) { return o + v; }); }
inline double atomicAdd(double* a, double v) {
    return ::kplay_emu::atomic_update_bits<double, unsigned long long>(a, [v](double o) { return o + v; });
}
// sm_90: each component is atomic on its own.
inline float2 atomicAdd(float2* a, float2 v) { return {atomicAdd(&a->x, v.x), atomicAdd(&a->y, v.y)}; }
inline float4 atomicAdd(float4* a, float4 v) {
    return {atomicAdd(&a->x, v.x), atomicAdd(&a->y, v.y), atomicAdd(&a->z, v.z), atomicAdd(&a->w, v.w)};
}
inline float atomicExch(float* a, float v) {
    return ::kplay_emu::bit_cast<float>(atomicExch(reinterpret_cast<unsigned*>(a), ::kplay_emu::bit_cast<unsigned>(v)));
}
inline unsigned atomicInc(unsigned* a, unsigned limit) {
    return ::kplay_emu::atomic_update(a, [limit](unsigned o) { return o >= limit ? 0u : o + 1; });
}
inline unsigned atomicDec(unsigned* a, unsigned limit) {
    return ::kplay_emu::atomic_update(a, [limit](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}
// Every scope is the device's here: the worker threads share one memory.
#define KPLAY_EMU_SCOPED(name) template <class... A> inline auto name##_block(A... a) { return name(a...); } \
    template <class... A> inline auto name##_system(A... a) { return name(a...); }
KPLAY_EMU_SCOPED(atomicAdd) KPLAY_EMU_SCOPED(atomicSub) KPLAY_EMU_SCOPED(atomicExch) KPLAY_EMU_SCOPED(atomicMin)
KPLAY_EMU_SCOPED(atomicMax) KPLAY_EMU_SCOPED(atomicInc) KPLAY_EMU_SCOPED(atomicDec) KPLAY_EMU_SCOPED(atomicCAS)
KPLAY_EMU_SCOPED(atomicAnd) KPLAY_EMU_SCOPED(atomicOr) KPLAY_EMU_SCOPED(atomicXor)
#undef KPLAY_EMU_SCOPED

// ---- fences and sleeping ---------------------------------------------------------------------------
// A tracked build tells the race tracker of each fence and its scope: a fence, then an atomic or volatile
// store, is what hands memory to another block (emu/access_tracker.hpp).
#ifdef KPLAY_EMU_TRACK
#define KPLAY_EMU_NOTE_FENCE(flags) ::kplay_emu::note_access(nullptr, 0, (flags), nullptr)
#else
#define KPLAY_EMU_NOTE_FENCE(flags) ((void)0)
#endif
inline void __threadfence() {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    KPLAY_EMU_NOTE_FENCE(KPLAY_ACCESS_FENCE);
    ::kplay_emu::note_fence();
}
inline void __threadfence_block() {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    KPLAY_EMU_NOTE_FENCE(KPLAY_ACCESS_FENCE | KPLAY_ACCESS_BLOCK_SCOPE);
    ::kplay_emu::note_fence();
}
inline void __threadfence_system() { __threadfence(); }
inline void __nanosleep(unsigned) { ::kplay_emu::host()->yield(); }
inline long long clock64() { return static_cast<long long>(__builtin_ia32_rdtsc()); }
inline long clock() { return static_cast<long>(__builtin_ia32_rdtsc()); }  // clock_t
