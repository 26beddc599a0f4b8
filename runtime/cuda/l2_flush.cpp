// The read-only flush kernel and its launch.
#include "cuda/l2_flush.hpp"

#include "cuda/driver.hpp"
#include "base/error.hpp"
#include "compile/nvrtc_compiler.hpp"

namespace kplay {

namespace {
// Every thread reads 16-byte words across the buffer; the result is only stored if it takes an
// impossible value, so the loads cannot be optimised away and nothing is written in practice.
constexpr const char* kFlushSource = R"(
extern "C" __global__ void kplay_l2_flush(const int4* data, unsigned long long count, int* sink) {
    int acc = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        const int4 v = data[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x1234567) *sink = acc;
}
)";
}  // namespace

L2Flusher::L2Flusher(const DeviceInfo& device)
    : buffer_(2 * static_cast<size_t>(device.l2_bytes) + 16), sink_(sizeof(int)), blocks_(device.sm_count * 4) {
    CompileRequest request;
    request.source = kFlushSource;
    request.source_path = "kplay_l2_flush.cu";
    request.options.arch = device.arch();
    request.options.lineinfo = false;
    const CompileResult compiled = compile_with_nvrtc(request);
    if (!compiled.ok) throw InputError("Internal: the L2 flush kernel did not compile: " + compiled.log);
    module_ = Module::load(compiled.binary);
    kernel_ = module_.function("kplay_l2_flush");
    Stream stream = Stream::create();
    buffer_.fill_bytes(0x5A, stream);  // real data to read, never zeros
    stream.synchronize();
}

void L2Flusher::flush(const Stream& stream) const {
    CUdeviceptr data = buffer_.get(), sink = sink_.get();
    unsigned long long count = buffer_.size() / 16;
    void* args[] = {&data, &count, &sink};
    KPLAY_CU(driver_api().cuLaunchKernel(kernel_.get(), static_cast<unsigned>(blocks_), 1, 1, 256, 1, 1, 0, stream.get(), args, nullptr));
}

}  // namespace kplay
