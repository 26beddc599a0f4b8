/* kplay_emu_track.h: a tracked build's memory accesses, reported to the runtime one by one.
 *
 * A tracked build is compiled with the compiler's ThreadSanitizer instrumentation (-fsanitize=thread)
 * but linked without ThreadSanitizer's runtime: the compiler puts a call before every load and store
 * of the kernel (and turns every atomic into a call), and this header defines those calls. Each one
 * tells the runtime (kplay_emu_host.access) the address, the size, whether it writes, is atomic or
 * volatile, and where it comes from; the runtime's access tracker keeps the rest (who wrote what,
 * which accesses race, how a warp's accesses fall on sectors and banks). The calls themselves are
 * built without instrumentation, and an atomic does its operation here, sequentially consistent. */
#ifndef KPLAY_EMU_TRACK_H
#define KPLAY_EMU_TRACK_H

#define KPLAY_TRACK_FN extern "C" __attribute__((no_sanitize("thread"), noinline, visibility("hidden")))

// Cleared by the runtime once the blocks it tracks have run: the rest of the grid then pays one load and
// branch per access instead of the bookkeeping.
extern "C" __attribute__((visibility("default"))) volatile int kplay_emu_tracking = 1;

namespace kplay_emu {
__attribute__((no_sanitize("thread"), always_inline)) inline void note_access(const volatile void* address, unsigned size, unsigned flags,
                                                                              const void* pc) {
    // kplay_emu_bind's own store of the table comes before there is one.
    if (!kplay_emu_tracking) return;
    if (const kplay_emu_host* host = kplay_emu_host_table) host->access(const_cast<const void*>(address), size, flags, pc);
}
}  // namespace kplay_emu

#define KPLAY_TRACK_PLAIN(N)                                                                                                    \
    KPLAY_TRACK_FN void __tsan_read##N(void* a) { kplay_emu::note_access(a, N, 0, __builtin_return_address(0)); }             \
    KPLAY_TRACK_FN void __tsan_write##N(void* a) { kplay_emu::note_access(a, N, KPLAY_ACCESS_WRITE, __builtin_return_address(0)); } \
    KPLAY_TRACK_FN void __tsan_volatile_read##N(void* a) {                                                                      \
        kplay_emu::note_access(a, N, KPLAY_ACCESS_VOLATILE, __builtin_return_address(0));                                       \
    }                                                                                                                           \
    KPLAY_TRACK_FN void __tsan_volatile_write##N(void* a) {                                                                     \
        kplay_emu::note_access(a, N, KPLAY_ACCESS_WRITE | KPLAY_ACCESS_VOLATILE, __builtin_return_address(0));                  \
    }
KPLAY_TRACK_PLAIN(1)
KPLAY_TRACK_PLAIN(2)
KPLAY_TRACK_PLAIN(4)
KPLAY_TRACK_PLAIN(8)
KPLAY_TRACK_PLAIN(16)
#define KPLAY_TRACK_UNALIGNED(N)                                                                                                \
    KPLAY_TRACK_FN void __tsan_unaligned_read##N(void* a) { kplay_emu::note_access(a, N, 0, __builtin_return_address(0)); }   \
    KPLAY_TRACK_FN void __tsan_unaligned_write##N(void* a) {                                                                    \
        kplay_emu::note_access(a, N, KPLAY_ACCESS_WRITE, __builtin_return_address(0));                                          \
    }
KPLAY_TRACK_UNALIGNED(2)
KPLAY_TRACK_UNALIGNED(4)
KPLAY_TRACK_UNALIGNED(8)
KPLAY_TRACK_UNALIGNED(16)
KPLAY_TRACK_FN void __tsan_read_range(void* a, unsigned long size) {
    kplay_emu::note_access(a, static_cast<unsigned>(size), 0, __builtin_return_address(0));
}
KPLAY_TRACK_FN void __tsan_write_range(void* a, unsigned long size) {
    kplay_emu::note_access(a, static_cast<unsigned>(size), KPLAY_ACCESS_WRITE, __builtin_return_address(0));
}
KPLAY_TRACK_FN void __tsan_init() {}
KPLAY_TRACK_FN void __tsan_func_entry(void*) {}
KPLAY_TRACK_FN void __tsan_func_exit() {}
KPLAY_TRACK_FN void __tsan_vptr_update(void**, void*) {}
KPLAY_TRACK_FN void __tsan_vptr_read(void**) {}
KPLAY_TRACK_FN void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
KPLAY_TRACK_FN void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

// An atomic of N bits on T: noted as an atomic read (a load) or an atomic write (anything that stores).
#define KPLAY_TRACK_ATOMIC(N, T)                                                                                                \
    KPLAY_TRACK_FN T __tsan_atomic##N##_load(const volatile T* a, int) {                                                        \
        kplay_emu::note_access(a, sizeof(T), KPLAY_ACCESS_ATOMIC, __builtin_return_address(0));                                 \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                                            \
    }                                                                                                                           \
    KPLAY_TRACK_FN void __tsan_atomic##N##_store(volatile T* a, T v, int) {                                                     \
        kplay_emu::note_access(a, sizeof(T), KPLAY_ACCESS_WRITE | KPLAY_ACCESS_ATOMIC, __builtin_return_address(0));            \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                               \
    }                                                                                                                           \
    KPLAY_TRACK_ATOMIC_RMW(N, T, exchange, __atomic_exchange_n)                                                                 \
    KPLAY_TRACK_ATOMIC_RMW(N, T, fetch_add, __atomic_fetch_add)                                                                 \
    KPLAY_TRACK_ATOMIC_RMW(N, T, fetch_sub, __atomic_fetch_sub)                                                                 \
    KPLAY_TRACK_ATOMIC_RMW(N, T, fetch_and, __atomic_fetch_and)                                                                 \
    KPLAY_TRACK_ATOMIC_RMW(N, T, fetch_or, __atomic_fetch_or)                                                                   \
    KPLAY_TRACK_ATOMIC_RMW(N, T, fetch_xor, __atomic_fetch_xor)                                                                 \
    KPLAY_TRACK_ATOMIC_RMW(N, T, fetch_nand, __atomic_fetch_nand)                                                               \
    KPLAY_TRACK_ATOMIC_CAS(N, T, strong, false)                                                                                 \
    KPLAY_TRACK_ATOMIC_CAS(N, T, weak, true)                                                                                    \
    KPLAY_TRACK_FN T __tsan_atomic##N##_compare_exchange_val(volatile T* a, T expected, T desired, int, int) {                  \
        kplay_emu::note_access(a, sizeof(T), KPLAY_ACCESS_WRITE | KPLAY_ACCESS_ATOMIC, __builtin_return_address(0));            \
        __atomic_compare_exchange_n(a, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                          \
        return expected;                                                                                                        \
    }
#define KPLAY_TRACK_ATOMIC_RMW(N, T, name, builtin)                                                                             \
    KPLAY_TRACK_FN T __tsan_atomic##N##_##name(volatile T* a, T v, int) {                                                       \
        kplay_emu::note_access(a, sizeof(T), KPLAY_ACCESS_WRITE | KPLAY_ACCESS_ATOMIC, __builtin_return_address(0));            \
        return builtin(a, v, __ATOMIC_SEQ_CST);                                                                                 \
    }
#define KPLAY_TRACK_ATOMIC_CAS(N, T, name, weak)                                                                                \
    KPLAY_TRACK_FN bool __tsan_atomic##N##_compare_exchange_##name(volatile T* a, T* expected, T desired, int, int) {           \
        kplay_emu::note_access(a, sizeof(T), KPLAY_ACCESS_WRITE | KPLAY_ACCESS_ATOMIC, __builtin_return_address(0));            \
        return __atomic_compare_exchange_n(a, expected, desired, weak, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                     \
    }
KPLAY_TRACK_ATOMIC(8, unsigned char)
KPLAY_TRACK_ATOMIC(16, unsigned short)
KPLAY_TRACK_ATOMIC(32, unsigned int)
KPLAY_TRACK_ATOMIC(64, unsigned long long)

#endif
