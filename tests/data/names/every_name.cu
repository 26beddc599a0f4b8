// kplay: kernel=every_name launch=1d block=128
// Every name nvcc's implicit host headers give a kernel (runtime/emu/include/kplay_nvcc_names.h) and every
// standard and CCCL header kplay gives one, used by the kernel and by its host reference: NVRTC, the
// emulated device's host build and the reference's build each compile the same text
// (tests/nvcc_names_test.cpp runs it on the emulated device, tests/gpu_kernels_test.cpp on a GPU).
// kplay-task: name=every_name reference=host view=series
// kplay-sizes: n default=1000 cpu=1000 test=1,33
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: y f32[n] out
#include <array>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda/std/array>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

static_assert(std::is_same<uint, unsigned int>::value && std::is_same<ushort, unsigned short>::value, "uint, ushort");
static_assert(std::is_same<u_char, unsigned char>::value && std::is_same<u_int32_t, unsigned int>::value, "u_char, u_int32_t");
static_assert(cuda::std::is_same_v<int32_t, int> && sizeof(int64_t) == 8 && sizeof(ulong) == 8, "int32_t, int64_t, ulong");
static_assert(sizeof(CUdeviceptr) == 8 && sizeof(clock_t) == 8 && sizeof(time_t) == 8, "CUdeviceptr, clock_t, time_t");
static_assert(std::numeric_limits<int>::max() == INT_MAX && cuda::std::numeric_limits<unsigned>::max() == UINT_MAX, "limits");

// The same sum on the device and the host: every integer name once, each constant once.
__host__ __device__ inline float names_sum() {
    const uint a = 1;
    const ushort b = 2;
    const ulong c = 3;
    const u_char d = 4;
    const u_short e = 5;
    const u_int f = 6;
    const u_long g = 7;
    const u_int8_t h = 8;
    const u_int16_t i = 9;
    const u_int32_t j = 10;
    const u_int64_t k = 11;
    const int8_t l = 12;
    const int16_t m = 13;
    const int32_t o = 14;
    const int64_t p = 15;
    const quad_t q = 16;
    const u_quad_t r = 17;
    const off_t s = 18;
    const ssize_t t = 19;
    const std::pair<int, int> pair = std::make_pair(20, 21);
    const std::array<int, 2> array = {{22, 23}};
    const cuda::std::array<int, 1> more = {{24}};
    const int whole = static_cast<int>(a + b + c + d + e + f + g + h + i + j + k + l + m + o + p + q + r + s + t) + pair.first +
                      pair.second + array[0] + array[1] + more[0] + std::get<0>(std::make_tuple(25));
    const bool constants = INFINITY > FLT_MAX && NAN != NAN && HUGE_VALF > 0 && CHAR_BIT == 8 && LLONG_MAX > INT_MAX &&
                           RAND_MAX > 0 && EXIT_SUCCESS == 0 && EXIT_FAILURE == 1 && INT8_MAX == 127;
    return static_cast<float>(whole) + (constants ? 0.5f : 0.0f) + static_cast<float>(M_PI + M_E + M_SQRT2 + M_LN2 + M_PI_2);
}

__global__ void every_name(const float* x, float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + names_sum();
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, int n) {
    for (int i = 0; i < n; ++i) y[i] = x[i] + names_sum();
}
#endif
