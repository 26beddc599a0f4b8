// The runner on a stand-in device: a write past a buffer's end that the device saw in its guard zone
// (a GPU does not fault on one) fails the run with the buffer, the bytes and what to do.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>

#include "base/fingerprint.hpp"
#include "device/resident_buffers.hpp"
#include "device/runner.hpp"
#include "error_code_names.hpp"

using namespace kplay;

namespace {

// Host memory for buffers; `overrun_of` says what the guard zone of each buffer saw.
class HostBuffers final : public DeviceBuffers {
public:
    HostBuffers(const std::vector<BufferShape>& shapes, std::vector<size_t> overrun_of) : overrun_of_(std::move(overrun_of)) {
        for (const auto& shape : shapes) memory_.emplace_back(shape.bytes);
    }
    uint64_t address(size_t index) const override { return reinterpret_cast<uint64_t>(memory_.at(index).data()); }
    void write(size_t index, const void* data, size_t bytes) override {
        std::memcpy(memory_.at(index).data(), data, bytes);
        ++writes[index];
    }
    std::map<size_t, int> writes;  // by buffer: how many times it was written from the host
    void read(size_t index, void* data, size_t bytes) override {
        std::memcpy(data, memory_.at(index).data(), bytes);
        read_bytes[index] += bytes;
    }
    std::map<size_t, size_t> read_bytes;  // by buffer: how many bytes were read back
    void fill(size_t index, uint32_t word) override { std::memset(memory_.at(index).data(), static_cast<int>(word & 0xFF), memory_.at(index).size()); }
    size_t overrun(size_t index) override { return index < overrun_of_.size() ? overrun_of_[index] : 0; }
    uint64_t fingerprint(size_t index) override {
        ++fingerprints;
        return fingerprint_bytes(memory_.at(index).data(), memory_.at(index).size());
    }
    int fingerprints = 0;

private:
    std::vector<std::vector<unsigned char>> memory_;
    std::vector<size_t> overrun_of_;
};

class StandInDevice final : public Device {
public:
    explicit StandInDevice(std::vector<size_t> overrun_of) : overrun_of_(std::move(overrun_of)) {}
    const DeviceInfo& info() const override { return info_; }
    bool emulated() const override { return false; }
    std::vector<std::unique_ptr<LoadedKernel>> load(const KernelSource&) override { return {}; }
    std::unique_ptr<LoadedKernel> library(Baseline, GemmTypes) override { return nullptr; }
    void prepare(LoadedKernel&, const LaunchConfig&) override {}
    Occupancy occupancy(const LoadedKernel&, const LaunchConfig&) override { return {}; }
    std::unique_ptr<DeviceBuffers> allocate(const std::vector<BufferShape>& shapes, GuardEdge) override {
        auto buffers = std::make_unique<HostBuffers>(shapes, overrun_of_);
        allocated.push_back(buffers.get());
        return buffers;
    }
    std::vector<HostBuffers*> allocated;
    bool places_edges() const override { return false; }
    void write_constant(LoadedKernel&, const std::string& name, const void*, size_t bytes) override { constants.emplace_back(name, bytes); }
    std::vector<std::pair<std::string, size_t>> constants;  // what write_constant was given
    TensorMapBytes encode_tensor_map(const TensorMapPlan& plan, uint64_t address) override {
        TensorMapBytes bytes;  // the stand-in "descriptor": the address, then the argument's index
        std::memcpy(bytes.bytes, &address, sizeof address);
        bytes.bytes[8] = static_cast<unsigned char>(plan.argument);
        return bytes;
    }
    // Called with each launch's buffers and its number (0, 1: the checked ones), as a kernel would write them.
    std::function<void(DeviceBuffers&, int)> kernel;
    LaunchOutcome launch(const std::vector<DeviceLaunch>& sequence, DeviceBuffers& buffers) override {
        if (kernel) kernel(buffers, launches);
        for (const DeviceLaunch& item : sequence) {  // read now: the arguments live as long as the run
            std::vector<std::vector<unsigned char>> bytes;
            for (size_t i = 0; i < item.args->size(); ++i) {
                const auto* at = static_cast<const unsigned char*>((*item.args)[i]);
                bytes.emplace_back(at, at + (i == 1 && item.args->size() == 3 ? 128 : 8));
                if (reinterpret_cast<uintptr_t>(at) % 64 != 0 && i == 1) misaligned = true;
            }
            seen_args.push_back(std::move(bytes));
        }
        ++launches;
        LaunchOutcome outcome;
        outcome.ms = 0.01;
        return outcome;
    }
    bool times_repeats() const override { return true; }
    ResidentBuffers* resident() override { return keeps ? &kept : nullptr; }
    bool keeps = false;  // a GPU keeps recent runs' buffers
    ResidentBuffers kept{1 << 20};
    bool before_timed_launch(bool) override { return false; }
    int input_copies(size_t, bool) const override { return 1; }
    // A GPU keeps its checked outputs where it computed them and checks them there.
    std::shared_ptr<CheckedOutputs> checked_outputs(const std::vector<BufferShape>&) override { return outputs; }
    std::shared_ptr<CheckedOutputs> outputs;
    int launches = 0;
    std::vector<std::vector<std::vector<unsigned char>>> seen_args;  // each launch's argument bytes
    bool misaligned = false;  // a 3-argument launch's second argument was not 64-byte aligned

private:
    DeviceInfo info_;
    std::vector<size_t> overrun_of_;
};

// Records which outputs were kept after which checked launch; checks nothing.
class KeptOutputs final : public CheckedOutputs {
public:
    void keep(size_t index, int launch, DeviceBuffers&) override { kept.emplace_back(index, launch); }
    std::vector<std::pair<size_t, int>> kept;
    ElementTally tally(size_t, const BufferCheckInput&) override { return {}; }
    ElementTally timed_tally(size_t, const BufferCheckInput&) override { return {}; }
    OutputView view(size_t, const BufferCheckInput&, OutputKind, int) override { return {}; }
    std::vector<unsigned char> first_launch(size_t) override { return {}; }
    std::vector<unsigned char> final_launch(size_t) override { return {}; }
};

TaskData two_buffers() {
    TaskData data;
    HostBuffer in{{"in", ElementType::u8, BufferRole::in, 1000, {1000}}, std::vector<unsigned char>(1000, 7)};
    HostBuffer out{{"out", ElementType::u8, BufferRole::out, 1000, {1000}}, {}};
    data.buffers = {in, out};
    data.identity = "inputs of two_buffers";
    return data;
}

}  // namespace

TEST(Runner, AWritePastABuffersEndFailsTheRunWithoutTimingIt) {
    StandInDevice device({0, 193});
    LaunchPlan plan;
    PlannedLaunch planned{nullptr, &plan, "k"};
    TaskData data = two_buffers();
    RunnerSettings settings;
    settings.timed = true;
    const RunnerResult result = run_launches(device, {planned}, data, settings);
    ASSERT_FALSE(result.failure.ok);
    EXPECT_EQ(result.failure.error_code, "KPLAY_OUT_OF_BOUNDS_WRITE");
    EXPECT_EQ(result.failure.error,
              "k wrote past the end of 'out' (1000 bytes): up to 193 bytes beyond it. The GPU did not fault, because the write stayed "
              "inside the allocation.");
    EXPECT_TRUE(result.failure.fault.overrun);
    EXPECT_FALSE(result.failure.fault.sticky);
    EXPECT_NE(result.failure.fault.hint.find("if (i < n)"), std::string::npos);
    EXPECT_EQ(device.launches, 1) << "stopped after the first checked launch";

    StandInDevice clean({0, 0});
    TaskData again = two_buffers();
    const RunnerResult fine = run_launches(clean, {planned}, again, settings);
    EXPECT_TRUE(fine.failure.ok) << fine.failure.error;
    EXPECT_GT(clean.launches, 2);  // both checked launches, then warm-ups and repeats
}

TEST(Runner, ATmaDescriptorArgumentGetsTheDevicesBytesForItsSetsBuffer) {
    StandInDevice device({0, 0});
    LaunchPlan plan;
    plan.arguments.resize(3);
    plan.arguments[0].buffer = 0;  // in, as a pointer: its address goes where its pointer slot says
    plan.arguments[0].size = 8;
    plan.arguments[0].pointers = {{0, 0, 0}};
    plan.arguments[1].tensor_map = 0;
    plan.arguments[1].size = 128;
    plan.arguments[2].buffer = 1;
    plan.arguments[2].size = 8;
    plan.arguments[2].pointers = {{0, 1, 0}};
    TensorMapPlan map;
    map.name = "in_map";
    map.argument = 1;
    map.buffer = 0;
    plan.tensor_maps.push_back(map);
    PlannedLaunch planned{nullptr, &plan, "k"};
    TaskData data = two_buffers();
    RunnerSettings settings;
    settings.timed = false;
    const RunnerResult result = run_launches(device, {planned}, data, settings);
    ASSERT_TRUE(result.failure.ok) << result.failure.error;
    ASSERT_EQ(device.seen_args.size(), 2u);
    for (const auto& args : device.seen_args) {
        ASSERT_EQ(args.size(), 3u);
        uint64_t pointer = 0, described = 0;
        std::memcpy(&pointer, args[0].data(), sizeof pointer);
        std::memcpy(&described, args[1].data(), sizeof described);
        EXPECT_EQ(described, pointer) << "the descriptor describes the same set's buffer the pointer argument points at";
        EXPECT_EQ(args[1][8], 1);
    }
    EXPECT_FALSE(device.misaligned) << "a CUtensorMap is 64-byte aligned";
}

// Whether the kernel wrote its input, and whether the timed launches left what the checked ones did, is
// told by fingerprints where the buffers live: the input is never read back, and a timed output only
// when its bytes differ.
TEST(Runner, InputsAndTimedOutputsAreJudgedByFingerprintsNotReadBack) {
    LaunchPlan plan;
    PlannedLaunch planned{nullptr, &plan, "k"};
    RunnerSettings settings;
    settings.timed = true;
    settings.keep_timed_outputs = true;
    const std::vector<unsigned char> answer(1000, 42);
    auto writes_out = [&](DeviceBuffers& buffers, int) { buffers.write(1, answer.data(), answer.size()); };

    StandInDevice honest({0, 0});
    honest.kernel = writes_out;
    TaskData data = two_buffers();
    const RunnerResult fine = run_launches(honest, {planned}, data, settings);
    ASSERT_TRUE(fine.failure.ok) << fine.failure.error;
    ASSERT_EQ(honest.allocated.size(), 1u);
    EXPECT_EQ(fine.inputs_changed, (std::vector<bool>{false, false}));
    EXPECT_EQ(honest.allocated[0]->read_bytes.count(0), 0u) << "the input is not read back";
    EXPECT_EQ(honest.allocated[0]->read_bytes[1], 2000u) << "the output after each checked launch, not after the timed ones";
    ASSERT_EQ(fine.timed_last.size(), 2u);
    EXPECT_TRUE(fine.timed_last[1].data.empty()) << "the same bytes as the checked launch: nothing to judge";
    EXPECT_EQ(fine.final[1].data, answer);

    StandInDevice writer({0, 0});
    writer.kernel = [&](DeviceBuffers& buffers, int launch) {
        writes_out(buffers, launch);
        const unsigned char scribble = 9;
        if (launch == 1) buffers.write(0, &scribble, 1);  // the second checked launch writes in[0]
    };
    TaskData again = two_buffers();
    EXPECT_EQ(run_launches(writer, {planned}, again, settings).inputs_changed, (std::vector<bool>{true, false}));

    StandInDevice replay({0, 0});
    replay.kernel = [&](DeviceBuffers& buffers, int launch) {
        if (launch < 2) writes_out(buffers, launch);  // later launches leave the poison
    };
    TaskData third = two_buffers();
    const RunnerResult replayed = run_launches(replay, {planned}, third, settings);
    ASSERT_EQ(replayed.timed_last.size(), 2u);
    EXPECT_EQ(replayed.timed_last[1].data.size(), 1000u) << "differing bytes are read back for the check to judge";
    EXPECT_NE(replayed.timed_last[1].data, answer);
}

// The host's fingerprint: one changed byte anywhere (a tail byte included) or another length changes it.
TEST(Fingerprint, AnyChangedByteOrLengthChangesIt) {
    std::vector<unsigned char> bytes(1027);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 31 + 7);
    const uint64_t base = fingerprint_bytes(bytes.data(), bytes.size());
    for (size_t at : {size_t{0}, size_t{511}, size_t{1024}, size_t{1026}}) {
        std::vector<unsigned char> changed = bytes;
        changed[at] ^= 1;
        EXPECT_NE(fingerprint_bytes(changed.data(), changed.size()), base) << "byte " << at;
    }
    // Two words swapped: the mix takes each word's position.
    std::vector<unsigned char> swapped = bytes;
    std::swap_ranges(swapped.begin(), swapped.begin() + 4, swapped.begin() + 4);
    EXPECT_NE(fingerprint_bytes(swapped.data(), swapped.size()), base);
    const std::vector<unsigned char> zeros(8, 0);
    EXPECT_NE(fingerprint_bytes(zeros.data(), 4), fingerprint_bytes(zeros.data(), 8));
    EXPECT_EQ(fingerprint_bytes(bytes.data(), bytes.size()), base) << "the same bytes, the same fingerprint";
}

// A device that keeps recent runs' buffers: the second run of the same inputs allocates and uploads
// nothing; a run whose kernel wrote its input leaves nothing to reuse; other inputs get their own.
TEST(Runner, ASecondRunOfTheSameInputsFindsThemOnTheDevice) {
    LaunchPlan plan;
    PlannedLaunch planned{nullptr, &plan, "k"};
    RunnerSettings settings;
    settings.timed = true;
    StandInDevice device({0, 0});
    device.keeps = true;
    const std::vector<unsigned char> answer(1000, 42);
    bool scribble = false;
    device.kernel = [&](DeviceBuffers& buffers, int) {
        buffers.write(1, answer.data(), answer.size());
        const unsigned char bad = 9;
        if (scribble) buffers.write(0, &bad, 1);
    };
    auto run = [&] {
        TaskData data = two_buffers();
        RunnerResult result = run_launches(device, {planned}, data, settings);
        EXPECT_TRUE(result.failure.ok) << result.failure.error;
        EXPECT_EQ(result.final[1].data, answer);
        return result;
    };
    EXPECT_FALSE(run().inputs_resident);
    ASSERT_EQ(device.allocated.size(), 1u);
    EXPECT_EQ(device.allocated[0]->writes[0], 1) << "the input, uploaded once";
    EXPECT_GT(device.kept.bytes(), 0u);
    EXPECT_TRUE(run().inputs_resident);
    EXPECT_EQ(device.allocated.size(), 1u) << "no new allocation";
    EXPECT_EQ(device.allocated[0]->writes[0], 1) << "and no new upload";
    scribble = true;  // the kernel writes its input now: those buffers are no longer as written
    const RunnerResult wrote = run();
    EXPECT_TRUE(wrote.inputs_resident);
    EXPECT_EQ(wrote.inputs_changed, (std::vector<bool>{true, false}));
    EXPECT_EQ(device.kept.bytes(), 0u);
    scribble = false;
    EXPECT_FALSE(run().inputs_resident) << "uploaded again after the kernel wrote its input";
    EXPECT_EQ(device.allocated.size(), 2u);
    TaskData other = two_buffers();
    other.identity = "another seed";
    run_launches(device, {planned}, other, settings);
    EXPECT_EQ(device.allocated.size(), 3u) << "other inputs, other buffers";
}

// Where the device keeps and checks its outputs, no output crosses to the host: neither checked launch's,
// nor the timed ones' when their fingerprint matches; the second launch's fingerprint says what it holds.
TEST(Runner, OutputsTheDeviceKeepsAreNotReadBack) {
    StandInDevice device({0, 0});
    auto outputs = std::make_shared<KeptOutputs>();
    device.outputs = outputs;
    const std::vector<unsigned char> answer(1000, 42);
    device.kernel = [&](DeviceBuffers& buffers, int) { buffers.write(1, answer.data(), answer.size()); };
    LaunchPlan plan;
    PlannedLaunch planned{nullptr, &plan, "k"};
    RunnerSettings settings;
    settings.warmup = 1;
    settings.repeat = 3;
    settings.keep_timed_outputs = true;
    const TaskData data = two_buffers();
    const RunnerResult result = run_launches(device, {planned}, data, settings);
    ASSERT_TRUE(result.failure.ok) << result.failure.error;
    EXPECT_EQ(result.on_device, outputs);
    EXPECT_EQ(outputs->kept, (std::vector<std::pair<size_t, int>>{{1, 0}, {1, 1}}));
    ASSERT_EQ(device.allocated.size(), 1u);
    EXPECT_TRUE(device.allocated[0]->read_bytes.empty()) << "nothing read back";
    ASSERT_EQ(result.final.size(), 2u);
    EXPECT_TRUE(result.final[1].data.empty());
    EXPECT_EQ(result.final[1].count, 1000u) << "described, for the check";
    EXPECT_EQ(result.fingerprints[1], fingerprint_bytes(answer.data(), answer.size()));
    EXPECT_EQ(result.timed_last[1].count, 0u) << "the timed launches left the checked bytes: nothing kept";
    EXPECT_TRUE(data.buffers[1].data.empty()) << "the task's data is only read";

    // A kernel that skips its work after the checked launches: its timed output differs, and is kept
    // on the device as launch 2 for the replay check there, not read back.
    StandInDevice replay({0, 0});
    auto replay_outputs = std::make_shared<KeptOutputs>();
    replay.outputs = replay_outputs;
    replay.kernel = [&](DeviceBuffers& buffers, int launch) {
        if (launch < 2) buffers.write(1, answer.data(), answer.size());
    };
    const RunnerResult replayed = run_launches(replay, {planned}, data, settings);
    ASSERT_TRUE(replayed.failure.ok) << replayed.failure.error;
    EXPECT_EQ(replay_outputs->kept, (std::vector<std::pair<size_t, int>>{{1, 0}, {1, 1}, {1, 2}}));
    ASSERT_EQ(replay.allocated.size(), 1u);
    EXPECT_TRUE(replay.allocated[0]->read_bytes.empty()) << "nothing read back";
    ASSERT_EQ(replayed.timed_last.size(), 2u);
    EXPECT_EQ(replayed.timed_last[1].count, 1000u) << "described, for the check on the device";
    EXPECT_TRUE(replayed.timed_last[1].data.empty());
}
