// One AdamW step over n parameters (decoupled weight decay), its hyperparameters float literals in
// args=: kplay binds each by its parameter's type (float), and the reference gets the same values.
// The first moments start at zero (an inout accumulator: init=zero), as at a run's first step.
// kplay-sizes: n default=1048576 cpu=100000 test=1,1000,1025 bench=16777216
// kplay-buffer: p f32[n] inout init=normal(0,1) check=rel:1e-5,abs:1e-6
// kplay-buffer: g f32[n] in init=normal(0,1)
// kplay-buffer: m f32[n] inout init=zero check=rel:1e-5,abs:1e-7
// kplay-buffer: v f32[n] inout init=uniform(0,0.01) check=rel:1e-5,abs:1e-9
// kplay-cost: bytes=28*n ceiling=copy
// kplay: args=p,g,m,v,lr=1e-3,beta1=0.9,beta2=0.999,eps=1e-8,weight_decay=1e-2,step=3,n

__global__ void adamw_step(float* p, const float* g, float* m, float* v, float lr, float beta1, float beta2, float eps,
                           float weight_decay, int step, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float mi = beta1 * m[i] + (1.0f - beta1) * g[i];
    const float vi = beta2 * v[i] + (1.0f - beta2) * g[i] * g[i];
    m[i] = mi;
    v[i] = vi;
    const float m_hat = mi / (1.0f - powf(beta1, step));
    const float v_hat = vi / (1.0f - powf(beta2, step));
    p[i] -= lr * (m_hat / (sqrtf(v_hat) + eps) + weight_decay * p[i]);
}

#ifdef KPLAY_REFERENCE
#include <cmath>
void kplay_reference(float* p, const float* g, float* m, float* v, float lr, float beta1, float beta2, float eps, float weight_decay,
                     int step, int n) {
    for (int i = 0; i < n; ++i) {
        const double mi = double(beta1) * m[i] + (1.0 - beta1) * g[i];
        const double vi = double(beta2) * v[i] + (1.0 - beta2) * double(g[i]) * g[i];
        m[i] = float(mi);
        v[i] = float(vi);
        const double m_hat = mi / (1.0 - std::pow(double(beta1), step));
        const double v_hat = vi / (1.0 - std::pow(double(beta2), step));
        p[i] = float(p[i] - lr * (m_hat / (std::sqrt(v_hat) + eps) + double(weight_decay) * p[i]));
    }
}
#endif
