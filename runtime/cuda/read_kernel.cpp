// The read kernel's source, its build and its launch.
#include "cuda/read_kernel.hpp"

#include <utility>

#include "base/error.hpp"
#include "cuda/builtin_kernel.hpp"
#include "cuda/driver.hpp"

namespace kplay {

namespace {

// Every thread streams 16-byte words; the sum is stored only if it takes an impossible value, so the
// loads cannot be optimised away and nothing is written in practice.
constexpr const char* kReadSource = R"(
extern "C" __global__ void kplay_read(const int4* data, unsigned long long count, int* sink) {
    int acc = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        const int4 v = __ldg(data + i);
        acc += v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x1234567) *sink = acc;
}
)";

}  // namespace

ReadKernel::ReadKernel(const DeviceInfo& device) : sink_(sizeof(int)) {
    BuiltinKernel built = build_builtin_kernel(device, kReadSource, "kplay_read.cu", "kplay_read");
    module_ = std::move(built.module);
    kernel_ = std::move(built.function);
}

void ReadKernel::launch(const Stream& stream, const DeviceBuffer& data, unsigned blocks, unsigned threads) const {
    CUdeviceptr data_pointer = data.get(), sink_pointer = sink_.get();
    unsigned long long count = data.size() / 16;
    void* args[] = {&data_pointer, &count, &sink_pointer};
    KPLAY_CU(driver_api().cuLaunchKernel(kernel_.get(), blocks, 1, 1, threads, 1, 1, 0, stream.get(), args, nullptr));
}

}  // namespace kplay
