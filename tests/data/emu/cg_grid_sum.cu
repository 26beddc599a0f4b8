// A two-phase sum in one launch: each block adds its grid-stride share into partial[blockIdx.x], the
// whole grid waits at this_grid().sync(), then block 0 adds the partials. The grid barrier needs every
// block resident at once: a cooperative launch (kplay finds this_grid() in the source; cooperative=yes
// says it outright). The grid is capped so that it fits any device: a grid-stride loop covers the rest.
// kplay-sizes: n default=1000000 cpu=100000 test=1,1000,4097 bench=1000000
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: partial f32[64] scratch
// kplay-buffer: total f32[1] out check=rel:1e-6*sqrt(n),abs:1e-6
// kplay: kernel=grid_sum args=x,partial,total,n block=128 grid=min(cdiv(n,128),32) cooperative=yes
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_sum(const float* x, float* partial, float* total, int n) {
    __shared__ float lanes[128];
    float mine = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) mine += x[i];
    lanes[threadIdx.x] = mine;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) lanes[threadIdx.x] += lanes[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = lanes[0];
    cg::this_grid().sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float sum = 0.0f;
        for (int b = 0; b < gridDim.x; ++b) sum += partial[b];
        *total = sum;
    }
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* partial, float* total, int n) {
    (void)partial;
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += x[i];
    *total = static_cast<float>(sum);
}
#endif
