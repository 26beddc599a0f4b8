// On a GPU machine: the driver table loads, devices are described, the copy ceiling is measured.
#include <gtest/gtest.h>

#include <vector>

#include "base/fingerprint.hpp"
#include "cuda/bandwidth_ceiling.hpp"
#include "cuda/copy_kernel.hpp"
#include "cuda/cuda_context.hpp"
#include "cuda/device_query.hpp"
#include "cuda/fingerprint_kernel.hpp"
#include "test_support.hpp"

using namespace kplay;

TEST(GpuDriver, ListsDevicesWithLimits) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const DeviceQuery query = query_devices();
    ASSERT_FALSE(query.devices.empty());
    const DeviceInfo& device = query.devices.front();
    EXPECT_FALSE(device.name.empty());
    EXPECT_EQ(device.uuid.size(), 32u);
    EXPECT_GT(device.sm_count, 0);
    EXPECT_GE(device.limits.max_smem_per_block_optin, device.limits.max_smem_per_block);
    EXPECT_EQ(device.limits.warp_size, 32);
    EXPECT_GE(query.driver.driver_version, 12040);
}

TEST(GpuDriver, MeasuresACopyCeiling) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const DeviceInfo device = describe_device(0);
    PrimaryContext context(0);
    test::TempDir cache;
    const Ceiling measured = device_copy_ceiling(device, cache.path());
    EXPECT_FALSE(measured.cached);
    EXPECT_GT(measured.gbps, 100);  // any discrete GPU copies faster than this
    const Ceiling again = device_copy_ceiling(device, cache.path());
    EXPECT_TRUE(again.cached);
    EXPECT_NEAR(again.gbps, measured.gbps, 0.01);
    EXPECT_EQ(again.name, measured.name);  // which operation set it, kept with the figure
    EXPECT_NE(measured.name.find("copy bandwidth ("), std::string::npos) << measured.name;
    // The read ceiling is at least the copy's: reading alone moves no fewer bytes a second.
    const Ceiling read = device_read_ceiling(device, cache.path());
    EXPECT_GT(read.gbps, 0.8 * measured.gbps) << read.gbps << " vs " << measured.gbps;
}

// The copy kernel the ceiling times is a real copy: every word arrives, at a count that leaves a tail
// after its four-wide main loop.
TEST(GpuDriver, TheCeilingsCopyKernelCopiesEveryWord) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const DeviceInfo device = describe_device(0);
    PrimaryContext context(0);
    const size_t words = 4 * 1000 * 37 + 12;  // 16-byte groups: 37003
    std::vector<unsigned> host(words), back(words, 0);
    for (size_t i = 0; i < words; ++i) host[i] = static_cast<unsigned>(i * 2654435761u + 7);
    DeviceBuffer from(words * 4), to(words * 4);
    from.upload(host.data(), words * 4);
    const CopyKernel copier(device);
    Stream stream = Stream::create();
    copier.launch(stream, from, to, 3, 128);
    stream.synchronize();
    to.download(back.data(), words * 4);
    EXPECT_EQ(back, host);
}

// The fingerprint kernel computes the host's fingerprint exactly: at sizes with a tail of 1-3 bytes,
// from an address that is not word-aligned, over 64 MB, and zero bytes.
TEST(GpuDriver, TheFingerprintKernelAgreesWithTheHost) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const DeviceInfo device = describe_device(0);
    PrimaryContext context(0);
    const FingerprintKernel kernel(device);
    const Stream stream = Stream::create();
    std::vector<unsigned char> bytes((size_t{64} << 20) + 3);
    uint64_t state = 0x12345;
    for (unsigned char& b : bytes) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        b = static_cast<unsigned char>(state >> 56);
    }
    const DeviceBuffer buffer(bytes.size());
    buffer.upload(bytes.data(), bytes.size());
    for (const size_t size : {size_t{0}, size_t{1}, size_t{3}, size_t{4}, size_t{1027}, size_t{1} << 20, bytes.size() - 1})
        EXPECT_EQ(kernel.fingerprint(stream, buffer.get(), size), fingerprint_bytes(bytes.data(), size)) << size << " bytes";
    EXPECT_EQ(kernel.fingerprint(stream, buffer.get() + 1, 4099), fingerprint_bytes(bytes.data() + 1, 4099)) << "misaligned";
    bytes[12345] ^= 0x10;
    buffer.upload(bytes.data(), bytes.size());
    EXPECT_EQ(kernel.fingerprint(stream, buffer.get(), bytes.size()), fingerprint_bytes(bytes.data(), bytes.size()));
}
