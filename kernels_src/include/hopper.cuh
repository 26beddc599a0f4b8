// hopper.cuh: the PTX plumbing of the Hopper (sm_90a) matmul rungs: TMA copies, mbarriers, wgmma, setmaxnreg.
//
// Each wrapper is one or two PTX instructions with a comment on why a kernel needs it. Nothing here
// includes a header, so NVRTC compiles it as it is. Shared-memory operands are passed as generic
// pointers and turned into 32-bit shared-window addresses, which is what the instructions take.
#pragma once

// A CUtensorMap as the kernel receives it: 128 opaque bytes that kplay builds on the host with
// cuTensorMapEncodeTiled (kplay-tma lines). The kernel takes it as `const __grid_constant__
// kplay_tensor_map`: a by-value parameter whose address may be taken, because the TMA unit reads the
// descriptor from parameter memory rather than from a register.
struct alignas(64) kplay_tensor_map {
    unsigned long long opaque[16];
};

namespace hopper {

// The shared-window address of a shared-memory pointer (what every instruction below expects).
__device__ __forceinline__ unsigned smem_address(const void* p) {
#ifdef __CUDA_ARCH__
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
#else
    (void)p;  // a host compiler reads this file too (a host reference's build) and never runs it
    return 0;
#endif
}

// ---- mbarriers: 64-bit counters in shared memory that complete "phases" ----------------------------
// A phase completes when `count` threads have arrived AND the transaction count (bytes announced with
// expect_tx, paid off by TMA copies as their data lands) is back to zero. Waiting is by the parity of
// the phase: a barrier used for the n-th time completes its phase n, whose parity is n & 1.

// Make `bar` expect `count` arrivals per phase. One thread does this before anyone uses the barrier.
__device__ __forceinline__ void mbarrier_init(unsigned long long* bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_address(bar)), "r"(count) : "memory");
}

// mbarrier.init is an ordinary (generic-proxy) store; this fence makes the initialised barriers
// visible to the TMA unit and to the other threads before a __syncthreads lets anyone use them.
__device__ __forceinline__ void fence_barrier_init() {
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// Order this thread's earlier generic-proxy shared-memory accesses before later async-proxy ones
// (TMA, wgmma reading a descriptor). Needed after threads write shared memory that an asynchronous
// unit then reads, e.g. barrier words or a tile written by ordinary stores.
__device__ __forceinline__ void fence_proxy_async() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// Arrive once and announce that `bytes` more bytes will land on this barrier in the current phase. The
// producer calls it just before issuing the copies of a stage: the phase then completes only when
// every byte of the stage is in shared memory.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(unsigned long long* bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_address(bar)), "r"(bytes)
                 : "memory");
}

// A plain arrival (no bytes): a consumer saying "I am done with this stage".
__device__ __forceinline__ void mbarrier_arrive(unsigned long long* bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_address(bar)) : "memory");
}

// Block until the phase of parity `parity` has completed. try_wait suspends the thread for a while in
// hardware instead of spinning on shared memory; it may still return false, hence the loop, kept
// inside the asm (labels are local to the braces) so that the compiler sees one instruction and no
// divergent loop before the warp-wide .aligned instructions that follow. Completion also makes the
// data the TMA wrote for that phase visible to this thread and to its wgmmas.
__device__ __forceinline__ void mbarrier_wait(unsigned long long* bar, unsigned parity) {
    asm volatile(
        "{\n"
        ".reg .pred complete;\n"
        "wait_again:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 complete, [%0], %1;\n"
        "@!complete bra wait_again;\n"
        "}\n" ::"r"(smem_address(bar)), "r"(parity)
        : "memory");
}

// ---- TMA: the Tensor Memory Accelerator --------------------------------------------------------------

// Fetch the descriptor into the TMA unit's cache ahead of the first copy (a hint; saves a little
// latency on the first load of each block).
__device__ __forceinline__ void tma_prefetch_descriptor(const kplay_tensor_map& map) {
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<unsigned long long>(&map)) : "memory");
}

// Copy the box at (col, row) of the tensor `map` describes into shared memory at `dst` (1024-byte
// aligned for the 128-byte swizzle). Coordinates are in elements, innermost first; parts of the box
// outside the tensor are filled with zeros. One thread issues it; the hardware generates every
// address, swizzles the rows as the map says, and counts the bytes off `bar`'s transaction count.
__device__ __forceinline__ void tma_load_2d(void* dst, const kplay_tensor_map& map, int col, int row,
                                            unsigned long long* bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
        ::"r"(smem_address(dst)), "l"(reinterpret_cast<unsigned long long>(&map)), "r"(col), "r"(row),
        "r"(smem_address(bar))
        : "memory");
}

// ---- wgmma: warpgroup-wide asynchronous MMA ------------------------------------------------------------
// A warpgroup is 4 consecutive warps (128 threads, the first warp's index a multiple of 4). wgmma is
// issued by all of them together and runs in the background: its operands must not be touched until a
// wait says it has finished.

// Before the first wgmma, and whenever other instructions have written registers a wgmma will read
// (its register operand A, or the accumulators), this orders those writes before the wgmma.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }

// Close the group of wgmmas issued since the last commit, so that it can be waited for as one.
__device__ __forceinline__ void wgmma_commit_group() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }

// Wait until at most `pending` committed groups are still running. After it, the finished groups'
// accumulators may be read and the shared memory and registers they read may be reused.
template <int pending>
__device__ __forceinline__ void wgmma_wait_group() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(pending) : "memory");
}

// The matrix descriptor of a K-major operand in shared memory laid out with the 128-byte swizzle: rows
// (one per m or n index) of 128 bytes (32 floats along k), groups of 8 rows 1024 bytes apart, the
// whole starting on a 1024-byte boundary. Fields (PTX ISA, "Matrix Descriptor Format"):
//   bits  0-13  start address >> 4
//   bits 16-29  leading-dimension byte offset >> 4: unused for swizzled K-major layouts (set to 1)
//   bits 32-45  stride-dimension byte offset >> 4: from one group of 8 rows to the next, 1024 bytes
//   bits 49-51  base offset: 0, since the swizzle pattern starts on a 1024-byte boundary
//   bits 62-63  swizzle mode: 1 = 128-byte swizzle
// The k8 step j of the tile starts 32*j bytes into the rows: the hardware applies the swizzle to the
// address it computes, so stepping the start address by 32 bytes is correct (see desc_advance).
__device__ __forceinline__ unsigned long long make_desc_kmajor_sw128(const void* tile) {
    const unsigned long long start = (smem_address(tile) & 0x3FFFF) >> 4;
    const unsigned long long leading = 1, stride = 1024 >> 4, swizzle_128b = 1;
    return start | (leading << 16) | (stride << 32) | (swizzle_128b << 62);
}

// The same descriptor `bytes` further into the rows (a multiple of 16; 32 per k8 step of tf32). The
// start field is the low 14 bits; a tile that fits in shared memory never carries out of it.
__device__ __forceinline__ unsigned long long desc_advance(unsigned long long desc, unsigned bytes) {
    return desc + (bytes >> 4);
}

// Round an fp32 value to TF32 (10-bit mantissa, nearest, ties away from zero) for a register operand.
// The tensor core uses only the TF32 bits of what it reads: rounding first halves the error of this
// operand. (A shared-memory operand cannot be rounded in place; its low mantissa bits are ignored.)
__device__ __forceinline__ unsigned to_tf32(float x) {
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

// D(64 x 256, fp32) += A(64 x 8, tf32, registers) * B(8 x 256, tf32, shared memory, K-major, `desc_b`).
// Per thread of the warpgroup (warp w, lane = 4 g + t):
//   a[0] = A(16w+g, t)   a[1] = A(16w+g+8, t)   a[2] = A(16w+g, t+4)   a[3] = A(16w+g+8, t+4)
//   d[4j+0] = D(16w+g, 8j+2t)   d[4j+1] = D(16w+g, 8j+2t+1)
//   d[4j+2] = D(16w+g+8, 8j+2t) d[4j+3] = D(16w+g+8, 8j+2t+1)      for j = 0..31
// The operands after the descriptor: scale-d, a predicate, here always true (D += A*B; false would
// give D = A*B), then imm-scale-a and imm-scale-b = 1 (no negation). For tf32 there are no transpose
// flags: both operands must be K-major, which is what shapes the rungs that use this.
__device__ __forceinline__ void wgmma_m64n256k8_tf32_rs(float (&d)[128], const unsigned (&a)[4],
                                                        unsigned long long desc_b) {
    asm volatile(
        "{\n"
        ".reg .pred accumulate;\n"
        "setp.ne.u32 accumulate, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32\n"
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,\n"
        " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,\n"
        " %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,\n"
        " %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,\n"
        " %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,\n"
        " %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,\n"
        " %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,\n"
        " %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127},\n"
        "{%128, %129, %130, %131}, %132, accumulate, 1, 1;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
          "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
          "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
          "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
          "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b)
        : "memory");
}

// ---- setmaxnreg: moving registers between warpgroups ---------------------------------------------------
// A block starts with the same register count for every thread (the launch bound's). A warpgroup that
// needs few (a TMA producer) gives some back to the block's pool; one that needs many (consumers with
// 128 accumulators) takes them. Counts are per thread, multiples of 8 in 24..256; every warp of the
// warpgroup must execute the same instruction. .inc blocks until the pool has enough.
template <int registers>
__device__ __forceinline__ void setmaxnreg_dec() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(registers));
}
template <int registers>
__device__ __forceinline__ void setmaxnreg_inc() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(registers));
}

}  // namespace hopper
