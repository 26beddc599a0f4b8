// A row softmax with one cooperative-groups tile of 32 threads per row: cg::reduce takes the row's
// maximum (cg::greater) and the sum of its exponentials (cg::plus). Four rows per block of 128.
// kplay: kernel=softmax_rows args=x,y,R,C block=128 grid=cdiv(R,4)
// kplay-sizes: R,C default=37x300 test=1x1,5x33,9x64
// kplay-buffer: x f32[R*C] in init=normal(0,3)
// kplay-buffer: y f32[R*C] out shape=R,C check=rel:1e-5,abs:1e-7
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void softmax_rows(const float* x, float* y, int R, int C) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (row >= R) return;
    const float* in = x + (long)row * C;
    float top = -__int_as_float(0x7f800000);  // -infinity
    for (int j = warp.thread_rank(); j < C; j += warp.size()) top = fmaxf(top, in[j]);
    top = cg::reduce(warp, top, cg::greater<float>());
    float sum = 0.0f;
    for (int j = warp.thread_rank(); j < C; j += warp.size()) sum += expf(in[j] - top);
    sum = cg::reduce(warp, sum, cg::plus<float>());
    for (int j = warp.thread_rank(); j < C; j += warp.size()) y[(long)row * C + j] = expf(in[j] - top) / sum;
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, int R, int C) {
    for (int r = 0; r < R; ++r) {
        const float* in = x + (long)r * C;
        double top = in[0], sum = 0;
        for (int j = 1; j < C; ++j) top = std::max(top, (double)in[j]);
        for (int j = 0; j < C; ++j) sum += std::exp(in[j] - top);
        for (int j = 0; j < C; ++j) y[(long)r * C + j] = (float)(std::exp(in[j] - top) / sum);
    }
}
#endif
