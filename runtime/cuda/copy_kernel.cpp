// The copy kernel's source, its build and its launch.
#include "cuda/copy_kernel.hpp"

#include <utility>

#include "base/error.hpp"
#include "cuda/builtin_kernel.hpp"
#include "cuda/driver.hpp"

namespace kplay {

namespace {

// 16-byte words, four loads in flight per thread before their stores, streaming (evict-first) hints so
// that the copy does not keep either buffer in L2: the shape a hand-tuned copy takes on recent GPUs.
constexpr const char* kCopySource = R"(
extern "C" __global__ void kplay_copy(const int4* __restrict__ from, int4* __restrict__ to, unsigned long long count) {
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < count; i += 4 * stride) {
        const int4 a = __ldcs(from + i), b = __ldcs(from + i + stride);
        const int4 c = __ldcs(from + i + 2 * stride), d = __ldcs(from + i + 3 * stride);
        __stcs(to + i, a);
        __stcs(to + i + stride, b);
        __stcs(to + i + 2 * stride, c);
        __stcs(to + i + 3 * stride, d);
    }
    for (; i < count; i += stride) __stcs(to + i, __ldcs(from + i));
}
)";

}  // namespace

CopyKernel::CopyKernel(const DeviceInfo& device) {
    BuiltinKernel built = build_builtin_kernel(device, kCopySource, "kplay_copy.cu", "kplay_copy");
    module_ = std::move(built.module);
    kernel_ = std::move(built.function);
}

void CopyKernel::launch(const Stream& stream, const DeviceBuffer& from, const DeviceBuffer& to, unsigned blocks, unsigned threads) const {
    CUdeviceptr from_pointer = from.get(), to_pointer = to.get();
    unsigned long long count = from.size() / 16;
    void* args[] = {&from_pointer, &to_pointer, &count};
    KPLAY_CU(driver_api().cuLaunchKernel(kernel_.get(), blocks, 1, 1, threads, 1, 1, 0, stream.get(), args, nullptr));
}

}  // namespace kplay
