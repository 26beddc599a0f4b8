// Sizes and inputs made from a task's declaration: every size form and its messages, defaults, every
// init rule on every type, seeding, the all-zero refusal, length limits, identities and binary16.
#include "tasks/task_inputs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>

#include "base/error.hpp"
#include "tasks/image_inputs.hpp"
#include "tasks/narrow_float.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {


#define EXPECT_MESSAGE(action, text) \
    EXPECT_NE(kplay::test::input_error_of([&] { action; }).find(text), std::string::npos) << kplay::test::input_error_of([&] { action; })

BufferSpec buffer(std::string name, ElementType type, std::string length, InitKind kind = InitKind::uniform,
                  std::vector<std::string> params = {}, std::string text = "") {
    BufferSpec spec;
    spec.name = std::move(name);
    spec.type = type;
    spec.length = std::move(length);
    spec.init.kind = kind;
    spec.init.params = std::move(params);
    spec.init.text = std::move(text);
    return spec;
}

BufferSpec output(std::string name, ElementType type, std::string length) {
    BufferSpec spec = buffer(std::move(name), type, std::move(length));
    spec.role = BufferRole::out;
    return spec;
}

TaskSpec matmul_like() {
    TaskSpec task;
    task.name = "mm";
    task.sizes.names = {"M", "N", "K"};
    task.sizes.gpu_default = {1024, 1024, 1024};
    task.sizes.cpu_default = {64, 32, 16};
    BufferSpec a = buffer("a", ElementType::f32, "M*K");
    a.shape = {"M", "K"};
    BufferSpec c = output("c", ElementType::f32, "M*N");
    c.shape = {"M", "N"};
    task.buffers = {a, buffer("b", ElementType::f32, "K*N"), c};
    return task;
}

// A task with one size n and the given buffers.
TaskSpec vector_task(std::vector<BufferSpec> buffers, std::vector<int64_t> gpu_default = {1000}) {
    TaskSpec task;
    task.name = "vec";
    task.sizes.names = {"n"};
    task.sizes.gpu_default = std::move(gpu_default);
    task.buffers = std::move(buffers);
    return task;
}

TaskData make_one(const BufferSpec& spec, int64_t n, uint64_t seed = 1, const PlanarImage* image = nullptr) {
    return make_task_inputs(vector_task({spec}), {n}, seed, image, "test.png");
}

template <typename T>
std::vector<T> values_of(const HostBuffer& buffer) {
    std::vector<T> values(buffer.count);
    EXPECT_EQ(buffer.data.size(), buffer.count * sizeof(T));
    std::memcpy(values.data(), buffer.data.data(), buffer.data.size());
    return values;
}

std::vector<float> halves_of(const HostBuffer& buffer) {
    std::vector<float> values;
    for (uint16_t bits : values_of<uint16_t>(buffer)) values.push_back(half_to_float(bits));
    return values;
}

PlanarImage small_image() {
    PlanarImage image;
    image.width = 3;
    image.height = 2;
    image.planes = {10,  20,  30,  40,  50,  60,    // R
                    1,   2,   3,   4,   5,   6,     // G
                    200, 210, 220, 230, 240, 250};  // B
    return image;
}

// ---- Sizes

TEST(SizeParsing, ValuesInOrderWithEitherX) {
    const TaskSpec task = matmul_like();
    EXPECT_EQ(parse_size_values(task, "1000x999x1001"), (std::vector<int64_t>{1000, 999, 1001}));
    EXPECT_EQ(parse_size_values(task, " 1000X999x1001 "), (std::vector<int64_t>{1000, 999, 1001}));
}

TEST(SizeParsing, ByNameInAnyOrder) {
    const TaskSpec task = matmul_like();
    EXPECT_EQ(parse_size_values(task, "K=5, M = 3,N=4"), (std::vector<int64_t>{3, 4, 5}));
}

TEST(SizeParsing, OneValueForEverySize) {
    EXPECT_EQ(parse_size_values(matmul_like(), "512"), (std::vector<int64_t>{512, 512, 512}));
    EXPECT_EQ(parse_size_values(vector_task({}), "4096"), (std::vector<int64_t>{4096}));
    EXPECT_EQ(parse_size_values(vector_task({}), "n=7"), (std::vector<int64_t>{7}));
}

TEST(SizeParsing, MessagesNameTheSizesAndGiveAnExample) {
    const TaskSpec task = matmul_like();
    EXPECT_EQ(kplay::test::input_error_of([&] { parse_size_values(task, "12x"); }),
              "size '12x' does not fit this task's sizes M, N, K: give 3 values like 1024x1024x1024 or "
              "M=1024,N=1024,K=1024");
    EXPECT_MESSAGE(parse_size_values(task, "1x2"), "does not fit this task's sizes M, N, K");
    EXPECT_MESSAGE(parse_size_values(task, "0x5x5"), "'0' is not a positive whole number; give 3 values like");
    EXPECT_MESSAGE(parse_size_values(task, "-5"), "'-5' is not a positive whole number");
    EXPECT_MESSAGE(parse_size_values(task, "abc"), "'abc' is not a positive whole number");
    EXPECT_MESSAGE(parse_size_values(task, "99999999999999999999"), "is not a positive whole number");
    EXPECT_MESSAGE(parse_size_values(task, "2.5"), "'2.5' is not a positive whole number");
    EXPECT_MESSAGE(parse_size_values(task, "M=1,N=2"), "K is missing");
    EXPECT_MESSAGE(parse_size_values(task, "M=1"), "N, K are missing");
    EXPECT_MESSAGE(parse_size_values(task, "M=1,N=2,K=3,M=4"), "M is given twice");
    EXPECT_MESSAGE(parse_size_values(task, "M=1,N=2,Q=3"), "'Q' is not one of them");
    EXPECT_MESSAGE(parse_size_values(task, "M=1,N=2,K=0"), "'0' is not a positive whole number");
    EXPECT_MESSAGE(parse_size_values(task, "  "), "it is empty");
    EXPECT_MESSAGE(parse_size_values(vector_task({}, {4096}), "1x2"), "give 1 value like 4096 or n=4096");
}

TEST(SizeParsing, LargestInt64IsAccepted) {
    EXPECT_EQ(parse_size_values(vector_task({}), "9223372036854775807")[0], std::numeric_limits<int64_t>::max());
}

TEST(SizeValues, TextAndDerivedValuesInOrder) {
    EXPECT_EQ(size_values_text({1000, 999, 1001}), "1000x999x1001");
    EXPECT_EQ(size_values_text({7}), "7");
    TaskSpec task;
    task.sizes.names = {"w", "h"};
    task.sizes.derived = {{"n", "w*h"}, {"bytes", "3*n"}};
    const NamedValues values = size_values(task, {4, 5});
    EXPECT_EQ(values, (NamedValues{{"w", 4}, {"h", 5}, {"n", 20}, {"bytes", 60}}));
    EXPECT_THROW(size_values(task, {4}), InputError);
    task.sizes.derived = {{"bad", "w*q"}};
    EXPECT_MESSAGE(size_values(task, {4, 5}), "derives bad = 'w*q'");
}

TEST(ChooseSizes, TextThenDeviceDefaults) {
    TaskSpec task = matmul_like();
    EXPECT_EQ(choose_sizes(task, "8x9x10", false, nullptr), (std::vector<int64_t>{8, 9, 10}));
    EXPECT_EQ(choose_sizes(task, "", false, nullptr), (std::vector<int64_t>{1024, 1024, 1024}));
    EXPECT_EQ(choose_sizes(task, "", true, nullptr), (std::vector<int64_t>{64, 32, 16}));
    task.sizes.cpu_default.clear();
    EXPECT_EQ(choose_sizes(task, "", true, nullptr), (std::vector<int64_t>{1024, 1024, 1024}));
    task.sizes.gpu_default.clear();
    EXPECT_MESSAGE(choose_sizes(task, "", true, nullptr),
                   "task 'mm' has no default size for the CPU device: give one with --size");
    EXPECT_MESSAGE(choose_sizes(task, "", false, nullptr), "no default size for the GPU");
}

TEST(ChooseSizes, ImageGivesWidthAndHeight) {
    TaskSpec task;
    task.name = "blur";
    task.sizes.names = {"w", "r", "h"};
    task.sizes.gpu_default = {640, 3, 480};
    task.sizes.cpu_default = {64, 2, 48};
    task.buffers = {buffer("img", ElementType::u8, "3*w*h", InitKind::image)};
    const PlanarImage image = small_image();
    EXPECT_EQ(choose_sizes(task, "", false, &image), (std::vector<int64_t>{3, 3, 2}));
    EXPECT_EQ(choose_sizes(task, "", true, &image), (std::vector<int64_t>{3, 2, 2}));
    EXPECT_EQ(choose_sizes(task, "", false, nullptr), (std::vector<int64_t>{640, 3, 480}));
    EXPECT_EQ(choose_sizes(task, "5x1x5", false, &image), (std::vector<int64_t>{5, 1, 5}));
    // Without an image input the image says nothing about the sizes.
    task.buffers = {buffer("x", ElementType::f32, "w*h")};
    EXPECT_EQ(choose_sizes(task, "", false, &image), (std::vector<int64_t>{640, 3, 480}));
}

// ---- Buffers

TEST(TaskInputs, LengthsShapesPoisonAndSizes) {
    const TaskData data = make_task_inputs(matmul_like(), {3, 4, 5}, 1, nullptr, "");
    ASSERT_EQ(data.buffers.size(), 3u);
    EXPECT_EQ(data.sizes, "3x4x5");
    EXPECT_EQ(data.values, (NamedValues{{"M", 3}, {"N", 4}, {"K", 5}}));
    EXPECT_EQ(data.description, "random inputs at M=3, N=4, K=5 (seed 1)");
    const HostBuffer& a = data.buffers[0];
    EXPECT_EQ(a.count, 15u);
    EXPECT_EQ(a.shape, (std::vector<int64_t>{3, 5}));
    EXPECT_EQ(a.data.size(), 60u);
    EXPECT_EQ(a.poison, (std::array<uint32_t, 2>{0, 0}));
    EXPECT_EQ(data.buffers[1].shape, (std::vector<int64_t>{20}));
    const HostBuffer& c = data.buffers[2];
    EXPECT_EQ(c.count, 12u);
    EXPECT_TRUE(c.data.empty());
    EXPECT_EQ(c.poison, (std::array<uint32_t, 2>{0x7FC00000u, 0xFFC0DEADu}));
    EXPECT_EQ(data.index_of("b"), 1);
    EXPECT_EQ(data.index_of("z"), -1);
    EXPECT_EQ(data.find("c"), &data.buffers[2]);
    EXPECT_EQ(data.find("z"), nullptr);
}

TEST(TaskInputs, InoutBuffersAreFilledAndPoisoned) {
    BufferSpec spec = buffer("acc", ElementType::i32, "n", InitKind::iota, {"1"});
    spec.role = BufferRole::inout;
    const TaskData data = make_one(spec, 4);
    const HostBuffer& acc = data.buffers[0];
    EXPECT_EQ(values_of<int32_t>(acc), (std::vector<int32_t>{1, 2, 3, 4}));
    EXPECT_EQ(acc.poison, (std::array<uint32_t, 2>{0x5A5A5A5Au, 0xA5A5A5A5u}));
}

TEST(TaskInputs, PoisonPatternsPerType) {
    EXPECT_EQ(poison_patterns(ElementType::u8), (std::array<uint32_t, 2>{0x5A5A5A5Au, 0xA5A5A5A5u}));
    EXPECT_EQ(poison_patterns(ElementType::u32), (std::array<uint32_t, 2>{0x5A5A5A5Au, 0xA5A5A5A5u}));
    EXPECT_EQ(poison_patterns(ElementType::f16), (std::array<uint32_t, 2>{0x7E007E00u, 0xFE01FE01u}));
    EXPECT_EQ(poison_patterns(ElementType::f64), (std::array<uint32_t, 2>{0xFFF8DEADu, 0x7FF4BEEFu}));
    // Every float poison is a NaN of its width, the word repeated over the element.
    for (uint32_t word : poison_patterns(ElementType::f32)) EXPECT_TRUE(std::isnan(std::bit_cast<float>(word)));
    for (uint32_t word : poison_patterns(ElementType::f64))
        EXPECT_TRUE(std::isnan(std::bit_cast<double>((uint64_t{word} << 32) | word)));
    for (uint32_t word : poison_patterns(ElementType::f16)) {
        EXPECT_TRUE(std::isnan(half_to_float(static_cast<uint16_t>(word))));
        EXPECT_TRUE(std::isnan(half_to_float(static_cast<uint16_t>(word >> 16))));
    }
    for (uint32_t word : poison_patterns(ElementType::bf16)) {
        EXPECT_TRUE(std::isnan(decode_narrow(ElementType::bf16, word & 0xFFFFu)));
        EXPECT_TRUE(std::isnan(decode_narrow(ElementType::bf16, word >> 16)));
    }
    // A byte type takes the word's low byte for every element, so all four bytes are the same NaN.
    for (const ElementType type : {ElementType::fp8_e4m3, ElementType::fp8_e5m2})
        for (uint32_t word : poison_patterns(type)) {
            EXPECT_EQ(word, (word & 0xFFu) * 0x01010101u);
            EXPECT_TRUE(std::isnan(decode_narrow(type, word & 0xFFu)));
        }
}

TEST(TaskInputs, LengthErrorsNameTheBuffer) {
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::f32, "n-1000"), 1000),
                   "buffer 'x' has length 'n-1000' = 0 at n=1000: a buffer needs at least 1 element");
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::f32, "n*n"), 100000),
                   "buffer 'x' has length 'n*n' = 10000000000 elements of f32: kplay allows at most 2^31 elements and "
                   "4 GiB per buffer");
    // 2^30 doubles are 8 GiB, though within the element count.
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::f64, "n"), int64_t{1} << 30), "at most 2^31 elements and 4 GiB");
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::f32, "n*q"), 4), "buffer 'x' length 'n*q': unknown name 'q'");
    BufferSpec shaped = buffer("m", ElementType::f32, "n");
    shaped.shape = {"2", "3"};
    EXPECT_MESSAGE(make_one(shaped, 5), "buffer 'm' has shape 2x3 ('2' x '3'), which does not hold its length 5");
    shaped.shape = {"n"};
    EXPECT_MESSAGE(make_one(shaped, 5), "buffer 'm' has a shape of 1 dimensions");
}

// ---- Init rules

TEST(InitRules, UniformFloatsStayInTheHalfOpenRange) {
    const auto values =
        values_of<float>(make_one(buffer("x", ElementType::f32, "n", InitKind::uniform, {"-1", "n/1000"}), 200000).buffers[0]);
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    EXPECT_GE(*lo, -1.0f);
    EXPECT_LT(*hi, 200.0f);
    EXPECT_GT(*hi, 199.9f);
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / values.size();
    EXPECT_NEAR(mean, 99.5, 0.5);
}

TEST(InitRules, UniformDefaultsPerType) {
    const auto floats = halves_of(make_one(buffer("x", ElementType::f16, "n"), 100000).buffers[0]);
    EXPECT_GE(*std::min_element(floats.begin(), floats.end()), 0.0f);
    EXPECT_LT(*std::max_element(floats.begin(), floats.end()), 1.0f);
    const auto bytes = values_of<uint8_t>(make_one(buffer("x", ElementType::u8, "n"), 100000).buffers[0]);
    EXPECT_EQ(*std::min_element(bytes.begin(), bytes.end()), 0);
    EXPECT_EQ(*std::max_element(bytes.begin(), bytes.end()), 255);
    const auto ints = values_of<int32_t>(make_one(buffer("x", ElementType::i32, "n"), 100000).buffers[0]);
    EXPECT_EQ(*std::min_element(ints.begin(), ints.end()), 0);
    EXPECT_EQ(*std::max_element(ints.begin(), ints.end()), 100);
    const auto unsigned_ints =
        values_of<uint32_t>(make_one(buffer("x", ElementType::u32, "n", InitKind::uniform, {"5", "7"}), 1000).buffers[0]);
    EXPECT_EQ(*std::min_element(unsigned_ints.begin(), unsigned_ints.end()), 5u);
    EXPECT_EQ(*std::max_element(unsigned_ints.begin(), unsigned_ints.end()), 7u);
}

TEST(InitRules, UniformNeedsAnOrderedRange) {
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::f32, "n", InitKind::uniform, {"2", "1"}, "uniform(2,1)"), 4),
                   "input 'x' (init=uniform(2,1)): needs lo < hi");
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::i32, "n", InitKind::uniform, {"5", "4"}), 4), "give lo <= hi");
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::f32, "n", InitKind::uniform, {"0", "1", "2"}), 4), "at most 2 parameters");
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::f32, "n", InitKind::uniform, {"0", "z"}), 4), "unknown name 'z'");
}

TEST(InitRules, NormalMeanAndVariance) {
    const auto values =
        values_of<double>(make_one(buffer("x", ElementType::f64, "n", InitKind::normal, {"2", "3"}), 1000000).buffers[0]);
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / values.size();
    double variance = 0;
    for (double v : values) variance += (v - mean) * (v - mean);
    variance /= values.size();
    EXPECT_NEAR(mean, 2.0, 0.02);
    EXPECT_NEAR(variance, 9.0, 0.1);
    const auto standard = values_of<float>(make_one(buffer("x", ElementType::f32, "n", InitKind::normal), 100000).buffers[0]);
    EXPECT_NEAR(std::accumulate(standard.begin(), standard.end(), 0.0) / standard.size(), 0.0, 0.02);
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::f32, "n", InitKind::normal, {"0", "-1"}), 4), "must not be negative");
}

TEST(InitRules, NormalIntegersRoundAndClamp) {
    const auto bytes =
        values_of<uint8_t>(make_one(buffer("x", ElementType::u8, "n", InitKind::normal, {"128", "1000"}), 10000).buffers[0]);
    EXPECT_GT(std::count(bytes.begin(), bytes.end(), 0), 1000);
    EXPECT_GT(std::count(bytes.begin(), bytes.end(), 255), 1000);
    const auto ints =
        values_of<int32_t>(make_one(buffer("x", ElementType::i32, "n", InitKind::normal, {"0", "0.3"}), 10000).buffers[0]);
    EXPECT_EQ(*std::min_element(ints.begin(), ints.end()), -1);
    EXPECT_EQ(*std::max_element(ints.begin(), ints.end()), 1);
    // A zero deviation is the mean itself.
    const auto fixed =
        values_of<int32_t>(make_one(buffer("x", ElementType::i32, "n", InitKind::normal, {"-2.6", "0"}), 3).buffers[0]);
    EXPECT_EQ(fixed, (std::vector<int32_t>{-3, -3, -3}));
}

TEST(InitRules, RandintIsInclusiveAndFloatsHoldIntegers) {
    const auto values =
        values_of<float>(make_one(buffer("x", ElementType::f32, "n", InitKind::randint, {"0", "n/1000-1"}), 10000).buffers[0]);
    for (float v : values) ASSERT_EQ(v, std::floor(v));
    EXPECT_EQ(*std::min_element(values.begin(), values.end()), 0.0f);
    EXPECT_EQ(*std::max_element(values.begin(), values.end()), 9.0f);
    const auto bytes = values_of<uint8_t>(make_one(buffer("x", ElementType::u8, "n", InitKind::randint), 100000).buffers[0]);
    EXPECT_EQ(*std::max_element(bytes.begin(), bytes.end()), 255);
    const auto ints =
        values_of<int32_t>(make_one(buffer("x", ElementType::i32, "n", InitKind::randint, {"-3", "-1"}), 1000).buffers[0]);
    EXPECT_EQ(*std::min_element(ints.begin(), ints.end()), -3);
    EXPECT_EQ(*std::max_element(ints.begin(), ints.end()), -1);
}

TEST(InitRules, IotaCountsAndIntegersWrap) {
    EXPECT_EQ(values_of<uint8_t>(make_one(buffer("x", ElementType::u8, "n", InitKind::iota, {"253", "1"}), 5).buffers[0]),
              (std::vector<uint8_t>{253, 254, 255, 0, 1}));
    EXPECT_EQ(values_of<uint8_t>(make_one(buffer("x", ElementType::u8, "n", InitKind::iota, {"0", "100"}), 4).buffers[0]),
              (std::vector<uint8_t>{0, 100, 200, 44}));
    EXPECT_EQ(values_of<int32_t>(make_one(buffer("x", ElementType::i32, "n", InitKind::iota, {"2147483646", "1"}), 3).buffers[0]),
              (std::vector<int32_t>{2147483646, 2147483647, -2147483648}));
    EXPECT_EQ(values_of<uint32_t>(make_one(buffer("x", ElementType::u32, "n", InitKind::iota, {"1", "-1"}), 3).buffers[0]),
              (std::vector<uint32_t>{1, 0, 4294967295u}));
    EXPECT_EQ(values_of<double>(make_one(buffer("x", ElementType::f64, "n", InitKind::iota, {"-1", "0.5"}), 4).buffers[0]),
              (std::vector<double>{-1, -0.5, 0, 0.5}));
    EXPECT_EQ(values_of<float>(make_one(buffer("x", ElementType::f32, "n", InitKind::iota), 3).buffers[0]),
              (std::vector<float>{0, 1, 2}));
}

TEST(InitRules, ConstantOnEveryType) {
    EXPECT_EQ(values_of<float>(make_one(buffer("x", ElementType::f32, "n", InitKind::constant, {"n/2"}), 3).buffers[0]),
              (std::vector<float>{1.5f, 1.5f, 1.5f}));
    EXPECT_EQ(values_of<uint16_t>(make_one(buffer("x", ElementType::f16, "n", InitKind::constant, {"2.5"}), 2).buffers[0]),
              (std::vector<uint16_t>{0x4100, 0x4100}));
    EXPECT_EQ(values_of<uint8_t>(make_one(buffer("x", ElementType::u8, "n", InitKind::constant, {"300"}), 2).buffers[0]),
              (std::vector<uint8_t>{255, 255}));
    EXPECT_EQ(values_of<int32_t>(make_one(buffer("x", ElementType::i32, "n", InitKind::constant, {"-7"}), 2).buffers[0]),
              (std::vector<int32_t>{-7, -7}));
    EXPECT_EQ(values_of<double>(make_one(buffer("x", ElementType::f64, "n", InitKind::constant, {"0.1"}), 1).buffers[0]),
              (std::vector<double>{0.1}));
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::f32, "n", InitKind::constant), 2), "give the value, like constant(1.5)");
}

TEST(InitRules, ImageLayouts) {
    const PlanarImage image = small_image();
    const auto planar = make_one(buffer("img", ElementType::u8, "3*n", InitKind::image), 6, 1, &image);
    EXPECT_EQ(planar.buffers[0].data, image.planes);
    EXPECT_EQ(planar.description, "test.png, 3x2");
    BufferSpec spec = buffer("img", ElementType::u8, "3*n", InitKind::image);
    spec.init.layout = ImageLayout::interleaved;
    EXPECT_EQ(make_one(spec, 6, 1, &image).buffers[0].data,
              (std::vector<unsigned char>{10, 1, 200, 20, 2, 210, 30, 3, 220, 40, 4, 230, 50, 5, 240, 60, 6, 250}));
    spec = buffer("img", ElementType::u8, "n", InitKind::image);
    spec.init.layout = ImageLayout::gray;
    // round(0.299 R + 0.587 G + 0.114 B): 10,1,200 -> 2.99 + 0.587 + 22.8 = 26.377 -> 26.
    EXPECT_EQ(make_one(spec, 6, 1, &image).buffers[0].data, (std::vector<unsigned char>{26, 31, 36, 41, 45, 50}));
}

TEST(InitRules, ImageErrors) {
    const PlanarImage image = small_image();
    BufferSpec spec = buffer("img", ElementType::u8, "3*n", InitKind::image, {}, "image(planar)");
    EXPECT_MESSAGE(make_one(spec, 6, 1, nullptr), "input 'img' (init=image(planar)): no image was given");
    const std::string lengths = ". An image of w x h pixels fills 3*w*h values (planar, interleaved), 4*w*h (rgba) or w*h (gray)";
    EXPECT_MESSAGE(make_one(spec, 5, 1, &image), "the 3x2 image needs 18 values (3*w*h), but the buffer has 15: make its length 3*w*h" + lengths);
    spec.init.layout = ImageLayout::gray;
    EXPECT_MESSAGE(make_one(spec, 6, 1, &image),
                   "needs 6 values (w*h), but the buffer has 18 = 3*w*h, which image(interleaved) fills: write init=image(interleaved), or "
                   "make its length w*h" + lengths);
    // An RGBA picture in a buffer declared for RGB: the message names image(rgba).
    spec = buffer("img", ElementType::u8, "4*n", InitKind::image, {}, "image(interleaved)");
    spec.init.layout = ImageLayout::interleaved;
    EXPECT_MESSAGE(make_one(spec, 6, 1, &image),
                   "input 'img' (init=image(interleaved)): the 3x2 image needs 18 values (3*w*h), but the buffer has 24 = 4*w*h, which "
                   "image(rgba) fills: write init=image(rgba), or make its length 3*w*h" + lengths);
    spec.init.layout = ImageLayout::rgba;
    EXPECT_EQ(make_one(spec, 6, 1, &image).buffers[0].count, 24u);
    spec = buffer("img", ElementType::i32, "3*n", InitKind::image);
    EXPECT_MESSAGE(make_one(spec, 6, 1, &image), "an image gives bytes or float values, but the buffer is i32; declare it u8 or f32");
    PlanarImage black = image;
    std::fill(black.planes.begin(), black.planes.end(), 0);
    EXPECT_MESSAGE(make_one(buffer("img", ElementType::u8, "3*n", InitKind::image), 6, 1, &black), "not all black");
}

// RGBA pixels with an opaque alpha; float images as the image's values over 0..1 or 0..255, in every
// layout; and each read back to the planes the window's input view shows.
TEST(InitRules, RgbaAndFloatImages) {
    const PlanarImage image = small_image();
    BufferSpec spec = buffer("img", ElementType::u8, "4*n", InitKind::image);
    spec.init.layout = ImageLayout::rgba;
    EXPECT_EQ(make_one(spec, 6, 1, &image).buffers[0].data,
              (std::vector<unsigned char>{10, 1, 200, 255, 20, 2, 210, 255, 30, 3, 220, 255, 40, 4, 230, 255, 50, 5, 240, 255, 60, 6, 250, 255}));

    spec = buffer("img", ElementType::f32, "3*n", InitKind::image);
    spec.init.layout = ImageLayout::interleaved;
    std::vector<float> values = values_of<float>(make_one(spec, 6, 1, &image).buffers[0]);
    ASSERT_EQ(values.size(), 18u);
    EXPECT_FLOAT_EQ(values[0], 10 / 255.0f);   // pixel 0 red
    EXPECT_FLOAT_EQ(values[2], 200 / 255.0f);  // pixel 0 blue
    EXPECT_FLOAT_EQ(values[3], 20 / 255.0f);   // pixel 1 red
    spec.init.params = {"255"};
    spec.init.layout = ImageLayout::planar;
    values = values_of<float>(make_one(spec, 6, 1, &image).buffers[0]);
    EXPECT_EQ(values, std::vector<float>(image.planes.begin(), image.planes.end()));
    spec = buffer("img", ElementType::f32, "4*n", InitKind::image);
    spec.init.layout = ImageLayout::rgba;
    values = values_of<float>(make_one(spec, 6, 1, &image).buffers[0]);
    EXPECT_FLOAT_EQ(values[1], 1 / 255.0f);
    EXPECT_EQ(values[3], 1.0f);  // alpha: opaque is 1 in 0..1
    EXPECT_EQ(values[23], 1.0f);
    spec = buffer("img", ElementType::f16, "n", InitKind::image);
    spec.init.layout = ImageLayout::gray;
    EXPECT_NEAR(halves_of(make_one(spec, 6, 1, &image).buffers[0])[0], 26 / 255.0, 1e-3);

    // Back to planes: the image itself, whichever layout and type the kernel reads; gray in all three.
    struct Form {
        ElementType type;
        ImageLayout layout;
        const char* length;
        std::vector<std::string> params;
    };
    for (const Form& form : {Form{ElementType::u8, ImageLayout::planar, "3*n", {}}, Form{ElementType::u8, ImageLayout::interleaved, "3*n", {}},
                             Form{ElementType::u8, ImageLayout::rgba, "4*n", {}}, Form{ElementType::f32, ImageLayout::interleaved, "3*n", {}},
                             Form{ElementType::f32, ImageLayout::rgba, "4*n", {"255"}}, Form{ElementType::f16, ImageLayout::planar, "3*n", {}},
                             Form{ElementType::bf16, ImageLayout::interleaved, "3*n", {"255"}}}) {
        spec = buffer("img", form.type, form.length, InitKind::image, form.params);
        spec.init.layout = form.layout;
        SCOPED_TRACE(std::string(spec_name(form.type)) + " " + spec_name(form.layout));
        EXPECT_EQ(image_input_planes(make_one(spec, 6, 1, &image).buffers[0], spec.init), image.planes);
    }
    spec = buffer("img", ElementType::f32, "n", InitKind::image);
    spec.init.layout = ImageLayout::gray;
    const std::vector<unsigned char> gray{26, 31, 36, 41, 45, 50};
    std::vector<unsigned char> planes = gray;
    planes.insert(planes.end(), gray.begin(), gray.end());
    planes.insert(planes.end(), gray.begin(), gray.end());
    EXPECT_EQ(image_input_planes(make_one(spec, 6, 1, &image).buffers[0], spec.init), planes);
}

// ---- Seeds, zeros and identity

TEST(Seeds, DeterministicAndDifferentPerSeedAndBuffer) {
    const TaskSpec task = vector_task({buffer("a", ElementType::f32, "n"), buffer("b", ElementType::f32, "n")});
    const TaskData first = make_task_inputs(task, {1000}, 7, nullptr, "");
    const TaskData again = make_task_inputs(task, {1000}, 7, nullptr, "");
    const TaskData next = make_task_inputs(task, {1000}, 8, nullptr, "");
    EXPECT_EQ(first.buffers[0].data, again.buffers[0].data);
    EXPECT_EQ(first.buffers[1].data, again.buffers[1].data);
    EXPECT_NE(first.buffers[0].data, first.buffers[1].data);
    EXPECT_NE(first.buffers[0].data, next.buffers[0].data);
    EXPECT_NE(first.buffers[1].data, next.buffers[1].data);
    EXPECT_EQ(first.identity, again.identity);
    EXPECT_NE(first.identity, next.identity);
    EXPECT_EQ(first.identity.size(), 32u);
}

TEST(Seeds, ABufferWithItsOwnSeedIgnoresTheRunSeed) {
    BufferSpec spec = buffer("a", ElementType::f64, "n", InitKind::normal);
    spec.seed = 42;
    EXPECT_EQ(make_one(spec, 100, 1).buffers[0].data, make_one(spec, 100, 2).buffers[0].data);
    BufferSpec other = spec;
    other.seed = 43;
    EXPECT_NE(make_one(spec, 100, 1).buffers[0].data, make_one(other, 100, 1).buffers[0].data);
}

TEST(Identity, ChangesWithEveryPartOfTheInputs) {
    const TaskSpec task = matmul_like();
    const std::string base = make_task_inputs(task, {3, 4, 5}, 1, nullptr, "").identity;
    EXPECT_NE(base, make_task_inputs(task, {3, 4, 6}, 1, nullptr, "").identity);
    TaskSpec changed = task;
    changed.buffers[1].init = {InitKind::normal, {}, ImageLayout::planar, "normal"};
    EXPECT_NE(base, make_task_inputs(changed, {3, 4, 5}, 1, nullptr, "").identity);
    changed = task;
    changed.buffers[0].type = ElementType::f64;
    EXPECT_NE(base, make_task_inputs(changed, {3, 4, 5}, 1, nullptr, "").identity);
    changed = task;
    changed.name = "mm2";
    EXPECT_NE(base, make_task_inputs(changed, {3, 4, 5}, 1, nullptr, "").identity);
    const BufferSpec img = buffer("img", ElementType::u8, "3*n", InitKind::image);
    PlanarImage image = small_image();
    const std::string with_image = make_one(img, 6, 1, &image).identity;
    image.planes[4] ^= 1;
    EXPECT_NE(with_image, make_one(img, 6, 1, &image).identity);
}

TEST(Zeros, AnInputThatCanOnlyBeZeroIsRefused) {
    EXPECT_EQ(kplay::test::input_error_of([] { make_one(buffer("x", ElementType::f32, "n", InitKind::constant, {"0"}, "constant(0)"), 8); }),
              "input 'x' would be all zeros (init=constant(0)) at n=8: kplay never tests on zeros, since they hide unwritten "
              "outputs and ignored inputs; give values that are not all zero, or declare the input zeros=ok");
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::i32, "n", InitKind::iota, {"0", "0"}, "iota(0,0)"), 8),
                   "input 'x' would be all zeros (init=iota(0,0))");
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::u8, "n", InitKind::randint, {"0", "0"}, "randint(0,0)"), 8),
                   "would be all zeros (init=randint(0,0))");
    // Without the declared text the rule is named from its parts.
    EXPECT_MESSAGE(make_one(buffer("x", ElementType::u8, "n", InitKind::constant, {"0.2"}), 8), "(init=constant(0.2))");
}

TEST(Zeros, AnInputDeclaredZerosOkMayBeAllZeros) {
    BufferSpec targets = buffer("t", ElementType::i32, "n", InitKind::randint, {"0", "0"}, "randint(0,0)");
    targets.zeros_allowed = true;
    const auto data = make_one(targets, 8);
    EXPECT_EQ(values_of<int32_t>(data.buffers[0]), std::vector<int32_t>(8, 0));
}

TEST(NarrowTypes, InitsRoundOnceIntoBf16AndFp8AndSaturate) {
    // uniform(-1,1) in bf16: every value a bf16 (its low 16 bits of a float are zero) inside [-1, 1).
    const auto bf16 = make_one(buffer("x", ElementType::bf16, "n", InitKind::uniform, {"-1", "1"}), 1000);
    ASSERT_EQ(bf16.buffers[0].data.size(), 2000u);
    for (uint16_t bits : values_of<uint16_t>(bf16.buffers[0])) {
        const float value = std::bit_cast<float>(uint32_t{bits} << 16);
        EXPECT_GE(value, -1.0f);
        EXPECT_LT(value, 1.0f);
    }
    // constant(1.1) is 1.125 in e4m3 (0x39) and 1.0 in e5m2 (0x3c); 1000 saturates to 448 (0x7e) and 57344 (0x7b).
    EXPECT_EQ(values_of<uint8_t>(make_one(buffer("q", ElementType::fp8_e4m3, "n", InitKind::constant, {"1.1"}), 2).buffers[0]),
              (std::vector<uint8_t>{0x39, 0x39}));
    EXPECT_EQ(values_of<uint8_t>(make_one(buffer("q", ElementType::fp8_e5m2, "n", InitKind::constant, {"1.1"}), 1).buffers[0]),
              std::vector<uint8_t>{0x3c});
    EXPECT_EQ(values_of<uint8_t>(make_one(buffer("q", ElementType::fp8_e4m3, "n", InitKind::constant, {"-1000"}), 1).buffers[0]),
              std::vector<uint8_t>{0xfe});
    EXPECT_EQ(values_of<uint8_t>(make_one(buffer("q", ElementType::fp8_e5m2, "n", InitKind::constant, {"1e6"}), 1).buffers[0]),
              std::vector<uint8_t>{0x7b});
    // bf16 rounds to nearest even: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 and goes to 1 (0x3f80).
    EXPECT_EQ(values_of<uint16_t>(make_one(buffer("x", ElementType::bf16, "n", InitKind::constant, {"1.00390625"}), 1).buffers[0]),
              std::vector<uint16_t>{0x3f80});
}

TEST(NarrowTypes, IntegerInitsFitI8AndI64) {
    const auto i8 = make_one(buffer("a", ElementType::i8, "n", InitKind::randint, {"-500", "500"}), 2000);
    for (int8_t v : values_of<int8_t>(i8.buffers[0])) EXPECT_TRUE(v >= -128 && v <= 127);
    const auto wrapped = make_one(buffer("a", ElementType::i8, "n", InitKind::iota, {"126", "1"}), 4);
    EXPECT_EQ(values_of<int8_t>(wrapped.buffers[0]), (std::vector<int8_t>{126, 127, -128, -127}));
    const auto i64 = make_one(buffer("b", ElementType::i64, "n", InitKind::iota, {"4000000000", "3000000000"}), 3);
    EXPECT_EQ(values_of<int64_t>(i64.buffers[0]), (std::vector<int64_t>{4000000000, 7000000000, 10000000000}));
    EXPECT_EQ(values_of<int64_t>(make_one(buffer("b", ElementType::i64, "n", InitKind::constant, {"1e30"}), 1).buffers[0]),
              std::vector<int64_t>{9223372036854774784});
}

TEST(Zeros, ARandomFillThatComesOutZeroIsDrawnAgain) {
    // One element from {0, 1}: half the seeds draw 0; the retry always finds a 1.
    for (uint64_t seed = 1; seed <= 64; ++seed) {
        const auto data = make_one(buffer("x", ElementType::u8, "n", InitKind::randint, {"0", "1"}), 1, seed);
        ASSERT_EQ(data.buffers[0].data, std::vector<unsigned char>{1}) << "seed " << seed;
    }
}

// ---- binary16

TEST(Half, KnownValues) {
    EXPECT_EQ(float_to_half(1.0f), 0x3C00);
    EXPECT_EQ(float_to_half(-2.0f), 0xC000);
    EXPECT_EQ(float_to_half(0.0f), 0x0000);
    EXPECT_EQ(float_to_half(-0.0f), 0x8000);
    EXPECT_EQ(float_to_half(65504.0f), 0x7BFF);
    EXPECT_EQ(float_to_half(0.333333343f), 0x3555);
    EXPECT_EQ(float_to_half(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
    EXPECT_EQ(float_to_half(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
    EXPECT_EQ(float_to_half(std::ldexp(1023.0f, -24)), 0x03FF);
    EXPECT_EQ(float_to_half(std::ldexp(1.0f, -30)), 0x0000);
    EXPECT_EQ(float_to_half(1e-45f), 0x0000);  // a float subnormal
    EXPECT_EQ(float_to_half(INFINITY), 0x7C00);
    EXPECT_EQ(float_to_half(-INFINITY), 0xFC00);
    EXPECT_EQ(float_to_half(1e10f), 0x7C00);
}

TEST(Half, RoundsToNearestEven) {
    EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3C00);                          // tie, 0x3C00 is even
    EXPECT_EQ(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);                      // tie, 0x3C01 is odd
    EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3C01);  // just past the tie
    EXPECT_EQ(float_to_half(65519.0f), 0x7BFF);
    EXPECT_EQ(float_to_half(65520.0f), 0x7C00);               // the tie above the largest finite goes to infinity
    EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);  // half the smallest subnormal: tie to 0
    EXPECT_EQ(float_to_half(std::ldexp(1.5f, -25)), 0x0001);
    EXPECT_EQ(float_to_half(std::ldexp(3.0f, -25)), 0x0002);     // 1.5 subnormal units: tie to 2
    EXPECT_EQ(float_to_half(std::ldexp(5.0f, -25)), 0x0002);     // 2.5 units: tie to 2
    EXPECT_EQ(float_to_half(std::ldexp(2047.0f, -25)), 0x0400);  // rounds up into the normals
    EXPECT_EQ(float_to_half(-std::ldexp(3.0f, -25)), 0x8002);
}

TEST(Half, NaNStaysNaN) {
    EXPECT_TRUE(std::isnan(half_to_float(float_to_half(NAN))));
    // A payload only in the bits a half drops must not become infinity.
    const uint16_t low_payload = float_to_half(std::bit_cast<float>(0x7F800001u));
    EXPECT_TRUE(std::isnan(half_to_float(low_payload)));
    EXPECT_EQ(float_to_half(std::bit_cast<float>(0xFFC00000u)) & 0x8000, 0x8000);
    EXPECT_TRUE(std::isinf(half_to_float(0x7C00)));
    EXPECT_TRUE(std::isnan(half_to_float(0x7C01)));
}

TEST(Half, EveryHalfRoundTrips) {
    for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
        const float value = half_to_float(static_cast<uint16_t>(bits));
        if (std::isnan(value)) {
            ASSERT_TRUE(std::isnan(half_to_float(float_to_half(value)))) << bits;
            continue;
        }
        ASSERT_EQ(float_to_half(value), bits) << bits;
    }
    EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));
    EXPECT_EQ(half_to_float(0x3555), 0.333251953125f);
    EXPECT_EQ(half_to_float(0xFBFF), -65504.0f);
}

}  // namespace
}  // namespace kplay
