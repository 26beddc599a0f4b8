// kplay: kernel=cluster_ranks args=out,n block=128 grid=cdiv(n,128) cluster=4,1,1
// kplay-task: name=cluster_ranks
// kplay-sizes: n default=65536 test=512,4096
// kplay-buffer: out i32[n] out check=exact
//
// A GPU test of cluster launches (cuLaunchKernelEx with a cluster dimension): every thread writes its
// block's rank in its cluster and the cluster's size. Launched without the cluster, every block would be
// rank 0 of a cluster of 1; the reference expects ranks 0..3 of clusters of 4, in block order along x.

__global__ void cluster_ranks(int* out, int n) {
    unsigned rank, blocks;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(blocks));
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = static_cast<int>(rank * 100 + blocks);
}

#ifdef KPLAY_REFERENCE
void kplay_reference(int* out, int n) {
    for (int i = 0; i < n; ++i) out[i] = (i / 128) % 4 * 100 + 4;
}
#endif
