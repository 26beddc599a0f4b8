// kplay: kernel=tma_copy args=in_map,out,R,C launch=2d block=32 grid=cdiv(C,32),cdiv(R,8) arch=sm_90a requires=C%4==0
// kplay-task: name=tma_copy reference=copy_reference.cu:copy
// kplay-sizes: R,C default=1000x996 test=8x32,33x68,7x4
// kplay-buffer: in f32[R*C] in
// kplay-buffer: out f32[R*C] out shape=R,C check=exact
// kplay-tma: in_map buffer=in shape=R,C box=8,32 swizzle=none
//
// A GPU test of TMA descriptors built by kplay (cuTensorMapEncodeTiled over the buffer `in`): one thread
// asks the copy engine for an 8x32 tile, an mbarrier counts its bytes in, and the block writes the tile
// out with guarded stores. Rows and columns past the edges arrive as zeros and are not stored. A
// descriptor with its dimensions swapped, a wrong row pitch or a wrong address fails the exact check.

struct alignas(64) kplay_tensor_map {
    unsigned long long opaque[16];
};

__global__ void tma_copy(const __grid_constant__ kplay_tensor_map in_map, float* out, int R, int C) {
    __shared__ alignas(128) float tile[8][32];
    __shared__ alignas(8) unsigned long long arrived;
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&arrived));
    const int x0 = blockIdx.x * 32, y0 = blockIdx.y * 8;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(8 * 32 * 4) : "memory");
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                static_cast<unsigned>(__cvta_generic_to_shared(&tile[0][0]))),
            "l"(reinterpret_cast<unsigned long long>(&in_map)), "r"(x0), "r"(y0), "r"(bar)
            : "memory");
    }
    __syncthreads();  // the barrier is initialised before anyone waits on it
    unsigned done = 0;
    while (!done)
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(bar) : "memory");
    const int col = x0 + threadIdx.x;
    for (int r = 0; r < 8; ++r)
        if (y0 + r < R && col < C) out[(y0 + r) * C + col] = tile[r][threadIdx.x];
}
