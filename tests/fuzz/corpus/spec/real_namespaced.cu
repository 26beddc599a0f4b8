// kplay: kernel=rms_scale<float> args=x,y,n,eps=1e-6 block=128
// A kernel inside a namespace, named without it, with a `static __shared__` array (the specifiers in the
// other order too), a return type that is a std::enable_if_t, and a constexpr __device__ helper the
// reference calls.
// kplay-task: name=rms_scale reference=host view=series
// kplay-sizes: n default=128 cpu=128 test=1,100
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: y f32[n] out check=rel:1e-5,abs:1e-6
#include <type_traits>

namespace vllm {
namespace detail {
constexpr __device__ int warps_of(int threads) { return (threads + 31) / 32; }
}  // namespace detail

template <typename T>
__global__ std::enable_if_t<std::is_floating_point<T>::value> rms_scale(const T* x, T* y, int n, float eps) {
    static __shared__ float squares[detail::warps_of(128)];
    extern float __shared__ unused[];
    const int t = threadIdx.x;
    float v = t < n ? static_cast<float>(x[t]) : 0.0f;
    float s = v * v;
    for (int d = 16; d > 0; d /= 2) s += __shfl_xor_sync(0xffffffffu, s, d);
    if (t % 32 == 0) squares[t / 32] = s;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < detail::warps_of(128); ++w) total += squares[w];
    if (t < n) y[t] = static_cast<T>(v * rsqrtf(total / n + eps));
    (void)unused;
}
}  // namespace vllm

#ifdef KPLAY_REFERENCE
#include <cmath>
void kplay_reference(const float* x, float* y, int n, float eps) {
    double total = 0;
    for (int i = 0; i < n; ++i) total += double(x[i]) * x[i];
    static_assert(vllm::detail::warps_of(128) == 4, "the helper's value on the host");
    for (int i = 0; i < n; ++i) y[i] = static_cast<float>(x[i] / std::sqrt(total / n + eps));
}
#endif
