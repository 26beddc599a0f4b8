// A layer norm with one tile of 16 threads per row: cg::reduce sums the row, then its squared
// deviations; a __host__ __device__ helper (used by the reference too) scales and shifts.
// kplay: kernel=layernorm args=x,gamma,beta,y,R,C block=64 grid=cdiv(R,4)
// kplay-sizes: R,C default=23x200 test=1x1,3x17,6x64
// kplay-buffer: x f32[R*C] in init=normal(1,2)
// kplay-buffer: gamma f32[C] in init=uniform(0.5,1.5)
// kplay-buffer: beta f32[C] in init=uniform(-1,1)
// kplay-buffer: y f32[R*C] out shape=R,C check=rel:1e-4,abs:1e-5
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__host__ __device__ inline float scale_shift(float centred, float inv_std, float g, float b) { return centred * inv_std * g + b; }

__global__ void layernorm(const float* x, const float* gamma, const float* beta, float* y, int R, int C) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    const int row = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
    if (row >= R) return;
    const float* in = x + (long)row * C;
    float sum = 0.0f;
    for (int j = tile.thread_rank(); j < C; j += tile.num_threads()) sum += in[j];
    const float mean = cg::reduce(tile, sum, cg::plus<float>()) / C;
    float squares = 0.0f;
    for (int j = tile.thread_rank(); j < C; j += tile.num_threads()) squares += (in[j] - mean) * (in[j] - mean);
    const float inv_std = rsqrtf(cg::reduce(tile, squares, cg::plus<float>()) / C + 1e-5f);
    for (int j = tile.thread_rank(); j < C; j += tile.num_threads())
        y[(long)row * C + j] = scale_shift(in[j] - mean, inv_std, gamma[j], beta[j]);
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, const float* gamma, const float* beta, float* y, int R, int C) {
    for (int r = 0; r < R; ++r) {
        const float* in = x + (long)r * C;
        double mean = 0, var = 0;
        for (int j = 0; j < C; ++j) mean += in[j];
        mean /= C;
        for (int j = 0; j < C; ++j) var += (in[j] - mean) * (in[j] - mean);
        const double inv_std = 1.0 / std::sqrt(var / C + 1e-5);
        for (int j = 0; j < C; ++j) y[(long)r * C + j] = scale_shift((float)(in[j] - mean), (float)inv_std, gamma[j], beta[j]);
    }
}
#endif
