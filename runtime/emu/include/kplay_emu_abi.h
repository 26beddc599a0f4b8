/* kplay_emu_abi.h: the contract between an emulated kernel's shared object and the kplay runtime.
 *
 * The shared object is built by the host compiler from the user's .cu file with kplay_emu_prelude.h.
 * It has no access to libc beyond a short allowlist; everything a kernel needs from outside (barriers,
 * warp collectives, printf, reporting a trap) goes through the function table the runtime hands it.
 * Plain C so both sides read the same layout. */
#ifndef KPLAY_EMU_ABI_H
#define KPLAY_EMU_ABI_H

#define KPLAY_EMU_ABI_VERSION 1

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
};

/* What one CUDA thread sees of itself. */
struct kplay_emu_thread {
    struct kplay_emu_dim thread_idx;
    const struct kplay_emu_block* block;
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
    KPLAY_WARP_ACTIVE = 8     /* __activemask */
};

struct kplay_emu_host {
    int abi_version;
    void (*sync_threads)(const char* file, int line);
    /* A warp collective: waits for the live lanes of the warp, then returns this lane's result. */
    unsigned long long (*warp_op)(int op, unsigned mask, unsigned long long value, int operand, int width,
                                  const char* file, int line);
    int (*vprintf)(const char* format, __builtin_va_list args);
    /* __trap, a failed assert, an unsupported feature: ends the launch with this message. Never returns. */
    void (*fail)(const char* kind, const char* detail, const char* file, int line);
};

#ifdef __cplusplus
}
#endif

#endif
