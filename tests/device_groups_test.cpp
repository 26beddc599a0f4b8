// Grouping workers by device: model and compute capability for GPUs, the emulated device apart, groups
// in the order their first worker appears.
#include "client/device_groups.hpp"

#include <gtest/gtest.h>

using namespace kplay;

namespace {

WorkerDevice gpu(const std::string& name, int major, int minor) {
    WorkerDevice worker;
    worker.device.name = name;
    worker.device.cc_major = major;
    worker.device.cc_minor = minor;
    return worker;
}

WorkerDevice emulated(const std::string& name) {
    WorkerDevice worker;
    worker.device.name = name;
    worker.emulated = true;
    return worker;
}

}  // namespace

TEST(DeviceGroups, AlikeDevicesShareAGroupInTheOrderTheyAppear) {
    const std::vector<DeviceGroup> groups =
        group_by_device({gpu("NVIDIA H200", 9, 0), emulated("Emulated CPU (16 worker threads)"),
                         gpu("NVIDIA A100-SXM4-80GB", 8, 0), gpu("NVIDIA H200", 9, 0),
                         emulated("Emulated CPU (16 worker threads)"), emulated("Emulated CPU (2 worker threads)")});
    ASSERT_EQ(groups.size(), 4u);
    EXPECT_EQ(groups[0].name, "NVIDIA H200");
    EXPECT_EQ(groups[0].cc_major, 9);
    EXPECT_EQ(groups[0].workers, (std::vector<size_t>{0, 3}));
    EXPECT_TRUE(groups[1].emulated);
    EXPECT_EQ(groups[1].workers, (std::vector<size_t>{1, 4}));
    EXPECT_EQ(groups[2].name, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(groups[2].workers, (std::vector<size_t>{2}));
    EXPECT_EQ(groups[3].workers, (std::vector<size_t>{5}));  // another machine's CPU: not the same device
}

TEST(DeviceGroups, TheSameNameAtAnotherComputeCapabilityIsAnotherGroup) {
    const std::vector<DeviceGroup> groups = group_by_device({gpu("Some GPU", 8, 6), gpu("Some GPU", 8, 9)});
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[1].cc_minor, 9);
}

TEST(DeviceGroups, AWorkerRunsOnItsFirstGpuElseTheEmulatedDevice) {
    DeviceQuery query;
    query.emulated.available = true;
    query.emulated.device.name = "Emulated CPU (2 worker threads)";
    EXPECT_TRUE(device_of(query).emulated);
    EXPECT_EQ(device_of(query).device.name, "Emulated CPU (2 worker threads)");
    EXPECT_EQ(unusable_reason(query), "");
    query.devices.push_back(gpu("NVIDIA H200", 9, 0).device);
    query.devices.push_back(gpu("NVIDIA H100", 9, 0).device);
    EXPECT_FALSE(device_of(query).emulated);
    EXPECT_EQ(device_of(query).device.name, "NVIDIA H200");
}

TEST(DeviceGroups, AWorkerWithNeitherAGpuNorTheEmulatedDeviceSaysWhy) {
    DeviceQuery query;
    query.driver.message = "libcuda.so.1 was not found";
    query.emulated.problem = "no host compiler (g++ or clang++) found";
    EXPECT_EQ(
        unusable_reason(query),
        "it has no GPU (libcuda.so.1 was not found) and no emulated device (no host compiler (g++ or clang++) found)");
}

// A column's title: the model without its vendor and the compute capability; the emulated device as such.
TEST(DeviceGroups, TitlesNameTheModelAndItsArch) {
    const std::vector<DeviceGroup> groups =
        group_by_device({gpu("NVIDIA H200", 9, 0), emulated("Emulated CPU (2 worker threads)"), gpu("Tesla V100", 7, 0)});
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(group_title(groups[0]), "H200 sm_90");
    EXPECT_EQ(group_title(groups[1]), "cpu (emulated)");
    EXPECT_EQ(group_title(groups[2]), "Tesla V100 sm_70");
}
