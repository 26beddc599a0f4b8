// On a GPU machine: the driver table loads, devices are described, the copy ceiling is measured.
#include <gtest/gtest.h>

#include "cuda/bandwidth_ceiling.hpp"
#include "cuda/cuda_context.hpp"
#include "cuda/device_query.hpp"
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
}
