/* kplay_emu_abi.h: the contract between an emulated kernel's shared object and the kplay runtime.
 *
 * The shared object is built by the host compiler from the user's .cu file with kplay_emu_prelude.h.
 * It has no access to libc beyond a short allowlist; everything a kernel needs from outside (barriers,
 * warp collectives, grid sync, printf, reporting a trap) goes through the function table the runtime
 * hands it. Plain C so both sides read the same layout. */
#ifndef KPLAY_EMU_ABI_H
#define KPLAY_EMU_ABI_H

#define KPLAY_EMU_ABI_VERSION 3

#ifdef __cplusplus
extern "C" {
#endif

struct kplay_emu_dim {
    unsigned x, y, z;
};

/* One block's launch geometry, shared by its threads. */
struct kplay_emu_block {
    struct kplay_emu_dim block_idx, block_dim, grid_dim;
    unsigned char* dynamic_smem;
    unsigned long dynamic_smem_bytes;
    int cooperative; /* a cooperative launch: every block is resident, this_grid().sync() works */
};

/* What one CUDA thread sees of itself, and what its own code notes between two switches: a thread that
 * polls a flag (the same atomic answering the same value, fences in a loop) yields to the others. */
struct kplay_emu_thread {
    struct kplay_emu_dim thread_idx;
    const struct kplay_emu_block* block;
    const void* spin_address;      /* the last atomic's address and the value it found */
    unsigned long long spin_value;
    unsigned spin_repeats;         /* how many atomics in a row found that same value there */
    unsigned fences;               /* fences since the runtime last resumed this thread */
};

enum kplay_emu_warp_op {
    KPLAY_WARP_SYNC = 0,
    KPLAY_WARP_SHFL = 1,      /* operand: source lane */
    KPLAY_WARP_SHFL_UP = 2,   /* operand: delta */
    KPLAY_WARP_SHFL_DOWN = 3, /* operand: delta */
    KPLAY_WARP_SHFL_XOR = 4,  /* operand: lane mask */
    KPLAY_WARP_BALLOT = 5,    /* value: predicate */
    KPLAY_WARP_ANY = 6,
    KPLAY_WARP_ALL = 7,
    KPLAY_WARP_ACTIVE = 8,    /* __activemask, coalesced_threads(): the lanes that reached this call together */
    KPLAY_WARP_REDUCE_ADD = 9, /* __reduce_*_sync over the 32-bit value */
    KPLAY_WARP_REDUCE_MIN = 10,
    KPLAY_WARP_REDUCE_MAX = 11,
    KPLAY_WARP_REDUCE_UMIN = 12,
    KPLAY_WARP_REDUCE_UMAX = 13,
    KPLAY_WARP_REDUCE_AND = 14,
    KPLAY_WARP_REDUCE_OR = 15,
    KPLAY_WARP_REDUCE_XOR = 16,
    KPLAY_WARP_MATCH_ANY = 17, /* the lanes whose value equals this lane's */
    KPLAY_WARP_MATCH_ALL = 18  /* the mask when every lane's value is equal, else 0 */
};

enum kplay_emu_barrier_op {
    KPLAY_BARRIER_SYNC = 0,
    KPLAY_BARRIER_COUNT = 1, /* __syncthreads_count: how many threads passed a non-zero predicate */
    KPLAY_BARRIER_AND = 2,
    KPLAY_BARRIER_OR = 3
};

/* Arithmetic in a directed rounding mode, done by the runtime (which may set the FPU's mode). */
enum kplay_emu_round_op {
    KPLAY_ROUND_ADD = 0,
    KPLAY_ROUND_MUL = 1,
    KPLAY_ROUND_DIV = 2,
    KPLAY_ROUND_FMA = 3,
    KPLAY_ROUND_SQRT = 4,
    KPLAY_ROUND_CONVERT = 5 /* a double to a float */
};
/* What a tracked build's memory access does (kplay_emu_track.h): a plain read is 0. */
/* A fence is reported as an access of no bytes with KPLAY_ACCESS_FENCE (and KPLAY_ACCESS_BLOCK_SCOPE for
 * __threadfence_block). */
enum kplay_emu_access_flags {
    KPLAY_ACCESS_WRITE = 1,
    KPLAY_ACCESS_ATOMIC = 2,
    KPLAY_ACCESS_VOLATILE = 4,
    KPLAY_ACCESS_FENCE = 8,
    KPLAY_ACCESS_BLOCK_SCOPE = 16
};

enum kplay_emu_round_mode { KPLAY_ROUND_NEAREST = 0, KPLAY_ROUND_ZERO = 1, KPLAY_ROUND_UP = 2, KPLAY_ROUND_DOWN = 3 };

struct kplay_emu_host {
    int abi_version;
    /* __syncthreads and its counting forms: waits for the block, returns the op's result. */
    int (*sync_threads)(int op, int predicate, const char* file, int line);
    /* A warp collective: waits for the lanes its mask names, then returns this lane's result. */
    unsigned long long (*warp_op)(int op, unsigned mask, unsigned long long value, int operand, int width,
                                  const char* file, int line);
    /* this_grid().sync(): every thread of the grid (a cooperative launch only; otherwise a failure). */
    void (*grid_sync)(const char* file, int line);
    /* Lets the block's other threads run first (a thread that polls for them). */
    void (*yield)(void);
    int (*vprintf)(const char* format, __builtin_va_list args);
    /* __trap, a failed assert, an unsupported feature: ends the launch with this message. Never returns. */
    void (*fail)(const char* kind, const char* detail, const char* file, int line);
    /* op (kplay_emu_round_op) on floats (to_double 0: the operands hold floats) or doubles, rounded in mode. */
    double (*round_arith)(int op, int mode, int to_double, double a, double b, double c);
    /* A 64-bit integer (signed unless is_unsigned) to a float or a double, rounded in mode. */
    double (*round_integer)(int mode, int to_double, int is_unsigned, unsigned long long bits);
    /* A tracked build's load or store (kplay_emu_access_flags), from the kernel code at `pc`. */
    void (*access)(const void* address, unsigned size, unsigned flags, const void* pc);
};

#ifdef __cplusplus
}
#endif

#endif
