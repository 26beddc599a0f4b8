// CUB on the emulated device: a block-wide prefix sum (BlockLoad, BlockScan with a running-prefix
// callback, BlockReduce, BlockStore), the warp primitives with CCCL's function objects, and the
// refusals by name: the device-wide algorithms and every CUB header kplay does not run.
#include <gtest/gtest.h>

#include "emu_harness.hpp"

namespace kplay {
namespace {

using test::EmuKernel;
using test::kEveryOrder;

TEST(EmuCub, ABlockScanWithLoadStoreAndARunningPrefixMatchesTheSerialSum) {
    EmuKernel kernel(test::emu_kernel("cub_block_scan.cu"));
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    const int n = 1500, tiles = 3;  // the last tile is partial
    int* in = kernel.buffer<int>("in", n, 0);
    for (int i = 0; i < n; ++i) in[i] = (i * 37) % 11 - 3;
    int* out = kernel.buffer<int>("out", n, -1);
    int* totals = kernel.buffer<int>("tile_totals", tiles, -1);
    int count = n;
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        EmuKernel::Launch launch;
        launch.block = {128, 1, 1};
        launch.order = order;
        const auto result = kernel.launch({&in, &out, &totals, &count}, launch);
        ASSERT_TRUE(result.ok) << result.error;
        int running = 0;
        for (int i = 0; i < n; ++i) {
            ASSERT_EQ(out[i], running) << "element " << i;
            running += in[i];
        }
        for (int t = 0; t < tiles; ++t) {
            int total = 0;
            for (int i = t * 512; i < n && i < (t + 1) * 512; ++i) total += in[i];
            EXPECT_EQ(totals[t], total) << "tile " << t;
        }
    }
}

TEST(EmuCub, WarpPrimitivesAndBlockReduceTakeCustomOperators) {
    EmuKernel kernel(R"(
#include <cub/cub.cuh>
#include <cuda/functional>
struct Larger { __device__ float operator()(float a, float b) const { return a < b ? b : a; } };
__global__ void k(const float* in, float* out) {
    typedef cub::WarpReduce<float> WarpSum;
    typedef cub::WarpScan<int, 16> HalfWarpScan;
    typedef cub::BlockReduce<float, 64> Block;
    __shared__ typename WarpSum::TempStorage warp_storage[2];
    __shared__ typename HalfWarpScan::TempStorage scan_storage[4];
    __shared__ typename Block::TempStorage block_storage;
    const int t = threadIdx.x;
    const float v = in[t];
    const float warp_total = WarpSum(warp_storage[t / 32]).Sum(v);
    const float warp_max = WarpSum(warp_storage[t / 32]).Reduce(v, cuda::maximum<>{});
    int inclusive, exclusive, aggregate;
    HalfWarpScan(scan_storage[t / 16]).InclusiveScan(t % 5, inclusive, cuda::std::plus<>{}, aggregate);
    HalfWarpScan(scan_storage[t / 16]).ExclusiveSum(1, exclusive);
    const int from_lane_3 = HalfWarpScan(scan_storage[t / 16]).Broadcast(t, 3);
    const float block_max = Block(block_storage).Reduce(v, Larger());
    __syncthreads();
    const float valid_sum = Block(block_storage).Sum(v, 10);
    out[t * 8 + 0] = warp_total;
    out[t * 8 + 1] = warp_max;
    out[t * 8 + 2] = inclusive;
    out[t * 8 + 3] = exclusive;
    out[t * 8 + 4] = aggregate;
    out[t * 8 + 5] = from_lane_3;
    out[t * 8 + 6] = block_max;
    out[t * 8 + 7] = valid_sum;
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    float* in = kernel.buffer<float>("in", 64, 0.0f);
    for (int t = 0; t < 64; ++t) in[t] = static_cast<float>((t * 13) % 17);
    float* out = kernel.buffer<float>("out", 64 * 8, -1.0f);
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        EmuKernel::Launch launch;
        launch.block = {64, 1, 1};
        launch.order = order;
        const auto result = kernel.launch({&in, &out}, launch);
        ASSERT_TRUE(result.ok) << result.error;
        float sums[2] = {0, 0}, maxima[2] = {0, 0}, block_max = 0, first_ten = 0;
        for (int t = 0; t < 64; ++t) {
            sums[t / 32] += in[t];
            maxima[t / 32] = std::max(maxima[t / 32], in[t]);
            block_max = std::max(block_max, in[t]);
            if (t < 10) first_ten += in[t];
        }
        for (int t = 0; t < 64; ++t) {
            SCOPED_TRACE("thread " + std::to_string(t));
            const float* o = out + t * 8;
            if (t % 32 == 0) {  // a warp reduction's result is its lane 0's, as in CUB
                EXPECT_EQ(o[0], sums[t / 32]);
                EXPECT_EQ(o[1], maxima[t / 32]);
            }
            int running = 0, total = 0;
            for (int other = t / 16 * 16; other < t / 16 * 16 + 16; ++other) {
                if (other <= t) running += other % 5;
                total += other % 5;
            }
            EXPECT_EQ(o[2], running);
            EXPECT_EQ(o[3], t % 16);
            EXPECT_EQ(o[4], total);
            EXPECT_EQ(o[5], t / 16 * 16 + 3);
            if (t == 0) {  // a block reduction's result is thread 0's
                EXPECT_EQ(o[6], block_max);
                EXPECT_EQ(o[7], first_ten);
            }
        }
    }
}

TEST(EmuCub, DeviceWideAlgorithmsAndOtherHeadersAreRefusedByName) {
    const EmuKernel device_header("#include <cub/device/device_reduce.cuh>\n__global__ void k(int* x) { x[0] = 1; }\n");
    EXPECT_FALSE(device_header.built());
    EXPECT_EQ(device_header.diagnostics(),
              "emu/test.cu:1: <cub/device/device_reduce.cuh> (CUB's device-wide algorithms, cub::Device*, launch kernels from the "
              "host) is not supported on the emulated CPU device, which runs CUB's block and warp primitives (cub::BlockReduce, "
              "BlockScan, BlockLoad, BlockStore, WarpReduce and WarpScan, from <cub/cub.cuh> or their own headers); run this kernel "
              "on a GPU.");
    const EmuKernel radix_sort("// sorting\n#include <cub/block/block_radix_sort.cuh>\n__global__ void k(int* x) { x[0] = 1; }\n");
    EXPECT_NE(radix_sort.diagnostics().find("emu/test.cu:2: <cub/block/block_radix_sort.cuh> is not supported on the emulated CPU device"),
              std::string::npos)
        << radix_sort.diagnostics();
    const EmuKernel thrust("#include <thrust/sort.h>\n__global__ void k(int* x) { x[0] = 1; }\n");
    EXPECT_NE(thrust.diagnostics().find("<thrust/sort.h> (Thrust) is not supported on the emulated CPU device"), std::string::npos)
        << thrust.diagnostics();
    // Named in a kernel after <cub/cub.cuh>: the compiler's message carries the reason.
    const EmuKernel device_call(
        "#include <cub/cub.cuh>\n__global__ void k(int* x) { size_t bytes = 0; cub::DeviceReduce::Sum(nullptr, bytes, x, x, 1); }\n");
    EXPECT_FALSE(device_call.built());
    EXPECT_NE(device_call.diagnostics().find("DeviceReduce_is_not_supported_on_the_emulated_CPU_device__device_wide_algorithms_launch_kernels_"
                                             "from_the_host"),
              std::string::npos)
        << device_call.diagnostics();
}

}  // namespace
}  // namespace kplay
