// The GPU's check (cuda/check_kernel through device/cuda_outputs) held to the host's, the reference
// implementation (tasks/buffer_check): every element type under every rule, and every shipped task's
// outputs under their own rules, with planted errors (a NaN, never-written elements, a difference
// between the two launches, one bad element at the very end) and a clean run of each. The tallies, the
// verdicts and the views must be the same. A changed input is the fingerprint kernel's
// (GpuDriver.TheFingerprintKernelAgreesWithTheHost); the whole path is GpuLiveLoop's.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>

#include "device/cuda_device.hpp"
#include "kernel_file/builtin_tasks.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "tasks/buffer_check.hpp"
#include "tasks/narrow_float.hpp"
#include "tasks/task_inputs.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

// The bits of `value` in `type`, as a kernel would store it.
uint64_t encode(ElementType type, double value) {
    switch (type) {
        case ElementType::u8: return static_cast<uint8_t>(value);
        case ElementType::i8: return static_cast<uint8_t>(static_cast<int8_t>(value));
        case ElementType::i32: return static_cast<uint32_t>(static_cast<int32_t>(value));
        case ElementType::u32: return static_cast<uint32_t>(value);
        case ElementType::i64: return static_cast<uint64_t>(static_cast<int64_t>(value));
        case ElementType::f16: return float_to_half(static_cast<float>(value));
        case ElementType::f32: return std::bit_cast<uint32_t>(static_cast<float>(value));
        case ElementType::f64: return std::bit_cast<uint64_t>(value);
        default: return encode_narrow(type, value);
    }
}

void store(std::vector<unsigned char>& bytes, ElementType type, size_t i, uint64_t bits) {
    const size_t size = element_size(type);
    std::memcpy(bytes.data() + i * size, &bits, size);  // little-endian, as the device writes
}

CheckSpec rule_of(CheckKind kind) {
    switch (kind) {
        case CheckKind::exact: return {CheckKind::exact, "", "", "", "", "exact"};
        case CheckKind::tolerance: return {CheckKind::tolerance, "0.02", "1e-3", "", "", "abs:0.02,rel:1e-3"};
        case CheckKind::ulp: return {CheckKind::ulp, "", "", "2", "", "ulp:2"};
        default: return {CheckKind::bound, "", "", "", "1", "bound:1"};
    }
}

// One output of `rows` x `cols` elements: a reference of moderate values (integers for integer types),
// the two launches' copies, and the errors planted in them.
struct Planted {
    BufferSpec spec;
    HostBuffer first, final;
    std::vector<unsigned char> expected;
    std::vector<double> bounds;
    NamedValues values;  // the sizes a tolerance expression may name

    Planted(const BufferSpec& buffer, int64_t rows, int64_t cols, bool errors, uint64_t seed) : spec(buffer) {
        const ElementType type = spec.type;
        const auto count = static_cast<size_t>(rows * cols);
        for (HostBuffer* copy : {&first, &final}) {
            copy->name = spec.name;
            copy->type = type;
            copy->role = BufferRole::out;
            copy->count = count;
            copy->shape = rows > 1 ? std::vector<int64_t>{rows, cols} : std::vector<int64_t>{cols};
            copy->poison = poison_patterns(type);
            copy->data.assign(count * element_size(type), 0);
        }
        expected.assign(count * element_size(type), 0);
        bounds.assign(count, 0.05);
        std::mt19937_64 random(seed);
        std::uniform_real_distribution<double> uniform(-50, 50);
        const bool narrow_range = type == ElementType::u8 || type == ElementType::u32;
        for (size_t i = 0; i < count; ++i) {
            double ref = uniform(random);
            if (!is_floating(type)) ref = std::round(narrow_range ? std::fabs(ref) : ref);
            const uint64_t ref_bits = encode(type, ref);
            store(expected, type, i, ref_bits);
            // Floats a little off (within every rule's allowance), integers exact.
            const uint64_t got_bits = is_floating(type) && i % 3 == 0 ? ref_bits + 1 : ref_bits;
            store(first.data, type, i, got_bits);
            store(final.data, type, i, got_bits);
        }
        if (!errors) return;
        const size_t size = element_size(type);
        // A NaN (an integer type: a large error).
        store(final.data, type, 3, is_floating(type) ? encode(type, std::nan("")) : encode(type, 100));
        store(first.data, type, 3, is_floating(type) ? encode(type, std::nan("")) : encode(type, 100));
        // Never written: each launch's poison, at an even and an odd element.
        for (size_t i : {size_t{10}, size_t{11}}) {
            store(first.data, type, i, poison_element_bits(first.poison[0], size, i & 1));
            store(final.data, type, i, poison_element_bits(final.poison[1], size, i & 1));
        }
        // Different between the launches: within the rule for floats (tolerated), not for integers.
        uint64_t at20 = 0;
        std::memcpy(&at20, expected.data() + 20 * size, size);
        store(first.data, type, 20, at20 + 1);
        // One bad element at the very end.
        store(final.data, type, count - 1, encode(type, is_floating(type) ? 77.5 : 99));
        store(first.data, type, count - 1, encode(type, is_floating(type) ? 77.5 : 99));
    }

    BufferCheckInput input(OutputKind kind) const {
        BufferCheckInput in;
        in.spec = &spec;
        in.first = &first;
        in.final = &final;
        in.expected = &expected;
        in.bound = &bounds;
        in.values = values;
        in.kind = kind;
        return in;
    }
};

class GpuOutputCheck : public ::testing::Test {
protected:
    void SetUp() override {
        if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
        device_ = std::make_unique<CudaDevice>(0);
    }

    // The same case checked by the host and on the GPU: tallies, verdicts and the view of `kind`.
    void expect_same(const Planted& c, OutputKind kind, const std::string& what) {
        SCOPED_TRACE(what);
        const BufferCheckInput input = c.input(kind);
        const std::vector<BufferShape> shapes{{c.spec.name, c.spec.type, c.final.data.size()}};
        std::unique_ptr<DeviceBuffers> buffers = device_->allocate(shapes, GuardEdge::end);
        std::shared_ptr<CheckedOutputs> outputs = device_->checked_outputs(shapes);
        ASSERT_TRUE(outputs);
        buffers->write(0, c.first.data.data(), c.first.data.size());
        outputs->keep(0, 0, *buffers);
        buffers->write(0, c.final.data.data(), c.final.data.size());
        outputs->keep(0, 1, *buffers);

        // The device is handed what a run hands it: the launches described, their bytes on the device.
        const HostBuffer first_described = c.first.described(), final_described = c.final.described();
        BufferCheckInput on_device = input;
        on_device.first = &first_described;
        on_device.final = &final_described;
        on_device.bytes_on_device = true;
        const auto expect_same_tally = [](const ElementTally& gpu, const ElementTally& host) {
            EXPECT_EQ(gpu.over_tolerance, host.over_tolerance);
            EXPECT_EQ(gpu.unwritten, host.unwritten);
            EXPECT_EQ(gpu.nan_inf, host.nan_inf);
            EXPECT_EQ(gpu.nondeterministic, host.nondeterministic);
            EXPECT_EQ(gpu.racy, host.racy);
            EXPECT_EQ(gpu.wrong, host.wrong);
            EXPECT_EQ(gpu.first_bad, host.first_bad);
            EXPECT_EQ(gpu.max_abs, host.max_abs);
            EXPECT_EQ(gpu.max_rel, host.max_rel);
            EXPECT_EQ(gpu.max_ratio, host.max_ratio);
            // Sums in another order: equal to rounding.
            EXPECT_NEAR(gpu.diff_squares, host.diff_squares, 1e-9 * host.diff_squares);
            EXPECT_NEAR(gpu.ref_squares, host.ref_squares, 1e-9 * host.ref_squares);
        };
        const ElementTally host = tally_elements(input), gpu = outputs->tally(0, on_device);
        expect_same_tally(gpu, host);

        // The replay check's tally: the last timed launch (the final bytes again here) in the first's place.
        outputs->keep(0, 2, *buffers);
        BufferCheckInput timed_on_host = input;
        timed_on_host.first = &c.final;
        const ElementTally gpu_timed = outputs->timed_tally(0, on_device);
        expect_same_tally(gpu_timed, tally_elements(timed_on_host));
        EXPECT_EQ(gpu_timed.nondeterministic, 0) << "the timed copy, not the first launch's, was tallied";

        HostBuffer first = c.first;
        first.data = outputs->first_launch(0);
        EXPECT_EQ(first.data, c.first.data);
        EXPECT_EQ(outputs->final_launch(0), c.final.data);
        BufferCheckInput with_first = input;
        with_first.first = &first;
        const BufferCheck from_host = check_buffer(input), from_gpu = check_buffer(with_first, gpu);
        EXPECT_EQ(from_gpu.summary, from_host.summary);
        EXPECT_EQ(from_gpu.first_bad.text, from_host.first_bad.text);
        EXPECT_EQ(from_gpu.passed, from_host.passed);

        // An image also downsampled (16 a side: 4x4 pixels to a view pixel), as the window asks for it.
        for (const int side : kind == OutputKind::image ? std::vector<int>{0, 16} : std::vector<int>{0}) {
            SCOPED_TRACE("view_side " + std::to_string(side));
            const OutputView want = make_output_view(input, kind, side), got = outputs->view(0, on_device, kind, side);
            EXPECT_EQ(got.width, want.width);
            EXPECT_EQ(got.height, want.height);
            EXPECT_EQ(got.step, want.step);
            if (side > 0) {
                EXPECT_GT(got.step, 1);
            }
            EXPECT_EQ(got.output, want.output);
            const auto same_floats = [](const std::vector<float>& a, const std::vector<float>& b) {
                if (a.size() != b.size()) return false;
                for (size_t i = 0; i < a.size(); ++i)
                    if (std::bit_cast<uint32_t>(a[i]) != std::bit_cast<uint32_t>(b[i]) && !(std::isnan(a[i]) && std::isnan(b[i]))) return false;
                return true;
            };
            EXPECT_TRUE(same_floats(got.map, want.map));
            EXPECT_TRUE(same_floats(got.series.got_min, want.series.got_min));
            EXPECT_TRUE(same_floats(got.series.got_max, want.series.got_max));
            EXPECT_TRUE(same_floats(got.series.want_min, want.series.want_min));
            EXPECT_TRUE(same_floats(got.series.want_max, want.series.want_max));
            EXPECT_TRUE(same_floats(got.series.ratio_max, want.series.ratio_max));
        }
        ++cases_;
    }

    std::unique_ptr<CudaDevice> device_;
    int cases_ = 0;
};

constexpr ElementType kTypes[] = {ElementType::u8,  ElementType::i32,  ElementType::u32,      ElementType::f16,
                                  ElementType::f32, ElementType::f64,  ElementType::i8,       ElementType::i64,
                                  ElementType::bf16, ElementType::fp8_e4m3, ElementType::fp8_e5m2};

}  // namespace

TEST_F(GpuOutputCheck, EveryTypeUnderEveryRuleAgreesWithTheHost) {
    for (ElementType type : kTypes)
        for (CheckKind kind : {CheckKind::exact, CheckKind::tolerance, CheckKind::ulp, CheckKind::bound})
            for (bool errors : {false, true}) {
                BufferSpec spec;
                spec.name = "y";
                spec.type = type;
                spec.role = BufferRole::out;
                spec.check = rule_of(kind);
                const std::string what = std::string(element_type_name(type)) + " " + spec.check.text + (errors ? " with errors" : " clean");
                // A matrix whose map is pooled (1100 rows: two to a cell), and a series and an image.
                expect_same(Planted(spec, 1100, 37, errors, 7), OutputKind::matrix, what + ", matrix");
                expect_same(Planted(spec, 1, 5003, errors, 8), OutputKind::series, what + ", series");
                expect_same(Planted(spec, 41, 60, errors, 9), OutputKind::image, what + ", image");
            }
    EXPECT_EQ(cases_, 11 * 4 * 2 * 3);
}

TEST_F(GpuOutputCheck, EveryShippedTasksOutputsUnderTheirOwnRulesAgreeWithTheHost) {
    // The built-in tasks and every task a shipped kernel file declares, each output and rule once.
    std::set<std::string> seen;
    std::vector<TaskSpec> tasks;
    for (const TaskSpec* task : builtin_tasks()) tasks.push_back(*task);
    for (const auto& entry : std::filesystem::recursive_directory_iterator(test::kernels_dir())) {
        if (entry.path().extension() != ".cu") continue;
        try {
            tasks.push_back(resolve_kernel_spec(test::read_file(entry.path()), entry.path()).task);
        } catch (const std::exception&) {  // the fault corpus's broken files: no task to check
        }
    }
    for (const TaskSpec& task : tasks)
        for (const BufferSpec& buffer : task.buffers) {
            if (!buffer.is_output() || buffer.check.kind == CheckKind::none) continue;
            const std::string what = task.name + " '" + buffer.name + "' " + element_type_name(buffer.type) + " (" + buffer.check.text + ")";
            if (!seen.insert(what).second) continue;
            const OutputKind kind = task.presentation.output == OutputKind::scalar ? OutputKind::series : task.presentation.output;
            for (bool errors : {false, true}) {
                Planted planted(buffer, 64, 90, errors, 11);
                for (const std::string& name : task.sizes.names) planted.values[name] = 64;
                for (const auto& derived : task.sizes.derived) planted.values[derived.first] = 64;
                expect_same(planted, kind, what);
            }
        }
    EXPECT_GE(seen.size(), 5u);  // the directory scan found the ladders
}

// The f32 output 'y' checked within a tolerance, as the series tests below plant it.
static BufferSpec float_output_y() {
    BufferSpec spec;
    spec.name = "y";
    spec.type = ElementType::f32;
    spec.role = BufferRole::out;
    spec.check = rule_of(CheckKind::tolerance);
    return spec;
}

// A series longer than the view's entries travels as envelopes: buckets of several elements.
TEST_F(GpuOutputCheck, ALongSeriesEnvelopesAgreeWithTheHost) {
    const BufferSpec spec = float_output_y();
    expect_same(Planted(spec, 1, (int64_t{1} << 22) + 5, true, 3), OutputKind::series, "4 M + 5 floats");
}

// A named reference (ExpectedOutputs::key) is uploaded once and checked against again by the next run of
// the same inputs, as a kernel-only save does; an unnamed one goes up each time.
TEST_F(GpuOutputCheck, ANamedReferenceStaysOnTheGpuForTheNextRun) {
    const BufferSpec spec = float_output_y();
    const Planted c(spec, 1, 5003, true, 5);
    const std::vector<BufferShape> shapes{{c.spec.name, c.spec.type, c.final.data.size()}};
    const int before = device_->references().uploads();
    const auto check_once = [&](const std::string& key) {
        std::unique_ptr<DeviceBuffers> buffers = device_->allocate(shapes, GuardEdge::end);
        std::shared_ptr<CheckedOutputs> outputs = device_->checked_outputs(shapes);
        buffers->write(0, c.first.data.data(), c.first.data.size());
        outputs->keep(0, 0, *buffers);
        buffers->write(0, c.final.data.data(), c.final.data.size());
        outputs->keep(0, 1, *buffers);
        BufferCheckInput input = c.input(OutputKind::series);
        input.reference_key = key;
        return outputs->tally(0, input);
    };
    const ElementTally first = check_once("planted inputs");
    EXPECT_EQ(device_->references().uploads(), before + 1);
    const ElementTally again = check_once("planted inputs");
    EXPECT_EQ(device_->references().uploads(), before + 1) << "the second run found the reference on the GPU";
    EXPECT_EQ(again.first_bad, first.first_bad);
    EXPECT_EQ(again.wrong, first.wrong);
    check_once("");
    check_once("");
    EXPECT_EQ(device_->references().uploads(), before + 3) << "an unnamed reference is not kept";
}
