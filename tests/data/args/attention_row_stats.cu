// FlashAttention's running statistics for each query row: the maximum of the scaled scores
// s_ij = scale * q_i . k_j and the sum of exp(s_ij - max), kept online over the keys. The scale is
// 1/sqrt(d), a float argument computed from a size; the running maximum starts at -inf (init=-inf).
// kplay-sizes: R,C,d default=1024x1024x64 cpu=256x256x64 test=1x1x1,3x100x16,65x33x64 bench=4096x4096x64
// kplay-buffer: q f32[R*d] in init=normal(0,1)
// kplay-buffer: k f32[C*d] in init=normal(0,1)
// kplay-buffer: row_max f32[R] inout init=-inf check=rel:1e-5,abs:1e-5
// kplay-buffer: row_sum f32[R] out check=rel:1e-4,abs:1e-6
// kplay-cost: bytes=4*(R*d+C*d+3*R) flops=2*R*C*d ceiling=none
// kplay: args=q,k,row_max,row_sum,scale=1/sqrt(d),R,C,d block=64

__global__ void attention_row_stats(const float* q, const float* k, float* row_max, float* row_sum, float scale, int R, int C, int d) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= R) return;
    float m = row_max[i], l = 0.0f;
    for (int j = 0; j < C; ++j) {
        float s = 0.0f;
        for (int t = 0; t < d; ++t) s += q[i * d + t] * k[j * d + t];
        s *= scale;
        const float m_new = fmaxf(m, s);
        l = l * expf(m - m_new) + expf(s - m_new);
        m = m_new;
    }
    row_max[i] = m;
    row_sum[i] = l;
}

#ifdef KPLAY_REFERENCE
#include <algorithm>
#include <cmath>
#include <vector>
void kplay_reference(const float* q, const float* k, float* row_max, float* row_sum, float scale, int R, int C, int d) {
    for (int i = 0; i < R; ++i) {
        double m = row_max[i];
        std::vector<double> s(C);
        for (int j = 0; j < C; ++j) {
            double dot = 0;
            for (int t = 0; t < d; ++t) dot += double(q[i * d + t]) * k[j * d + t];
            s[j] = dot * scale;
            m = std::max(m, s[j]);
        }
        double l = 0;
        for (int j = 0; j < C; ++j) l += std::exp(s[j] - m);
        row_max[i] = float(m);
        row_sum[i] = float(l);
    }
}
#endif
