// One output against its reference: every check rule passing and failing, unwritten elements caught
// through both poison patterns (byte order included), nondeterminism, NaN and Inf, overrides, the texts
// a user reads, the metrics, and the window's views of each kind.
#include "tasks/buffer_check.hpp"
#include "tasks/kept_view.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "base/error.hpp"
#include "tasks/task_inputs.hpp"

namespace kplay {
namespace {

template <typename T>
std::vector<unsigned char> bytes_of(const std::vector<T>& values) {
    std::vector<unsigned char> bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

CheckSpec exact() { return {CheckKind::exact, "", "", "", "", "exact"}; }
CheckSpec tolerance(std::string abs, std::string rel, std::string text) {
    return {CheckKind::tolerance, std::move(abs), std::move(rel), "", "", std::move(text)};
}
CheckSpec ulp(std::string units) { return {CheckKind::ulp, "", "", units, "", "ulp:" + units}; }
CheckSpec bound(std::string factor) { return {CheckKind::bound, "", "", "", factor, "bound:" + factor}; }

// An output as the two checked launches left it, its reference and how it is checked.
struct Case {
    BufferSpec spec;
    HostBuffer first, final;
    std::vector<unsigned char> expected;
    std::vector<double> bounds;
    NamedValues values;
    std::optional<double> override_value;
    OutputKind kind = OutputKind::series;
    double image_white = 255;

    BufferCheckInput input() const {
        BufferCheckInput in;
        in.spec = &spec;
        in.first = &first;
        in.final = &final;
        in.expected = &expected;
        in.bound = bounds.empty() ? nullptr : &bounds;
        in.values = values;
        in.tolerance_override = override_value;
        in.kind = kind;
        in.image_white = image_white;
        return in;
    }
    BufferCheck check() const { return check_buffer(input()); }
    OutputView view(OutputKind view_kind, int view_side = 0) const { return make_output_view(input(), view_kind, view_side); }
};

template <typename T>
Case make_case(ElementType type, const std::vector<T>& got, const std::vector<T>& ref, CheckSpec check,
               std::vector<int64_t> shape = {}, std::string name = "y") {
    Case c;
    c.spec.name = name;
    c.spec.type = type;
    c.spec.role = BufferRole::out;
    c.spec.check = std::move(check);
    c.final.name = name;
    c.final.type = type;
    c.final.role = BufferRole::out;
    c.final.count = got.size();
    c.final.shape = shape.empty() ? std::vector<int64_t>{static_cast<int64_t>(got.size())} : shape;
    c.final.data = bytes_of(got);
    c.final.poison = poison_patterns(type);
    c.first = c.final;
    c.expected = bytes_of(ref);
    return c;
}

// The device's fill: the 32-bit word repeated little-endian over the buffer; u8 takes the low byte.
void lay_poison(HostBuffer& buffer, uint32_t word, size_t i) {
    const size_t size = element_size(buffer.type);
    for (size_t k = 0; k < size; ++k) {
        const size_t at = i * size + k;
        buffer.data[at] = static_cast<unsigned char>(size == 1 ? word & 0xFF : (word >> (8 * (at % 4))) & 0xFF);
    }
}

void unwrite(Case& c, size_t i) {
    lay_poison(c.first, c.first.poison[0], i);
    lay_poison(c.final, c.final.poison[1], i);
}

template <typename T>
void set(HostBuffer& buffer, size_t i, T value) {
    std::memcpy(buffer.data.data() + i * sizeof(T), &value, sizeof(T));
}

std::vector<float> iota_floats(size_t count) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i);
    return values;
}

// ---- Rules

TEST(CheckExact, PassesWhenEqual) {
    const BufferCheck check = make_case<float>(ElementType::f32, {1, 2, 3, 4}, {1, 2, 3, 4}, exact()).check();
    EXPECT_TRUE(check.passed);
    EXPECT_TRUE(check.checked);
    EXPECT_EQ(check.rule, "exact");
    EXPECT_EQ(check.tolerance, 0);
    EXPECT_EQ(check.elements, 4);
    EXPECT_EQ(check.first_bad.index, -1);
    EXPECT_EQ(check.max_error_ratio, 0);
    EXPECT_EQ(check.summary, "PASS: all 4 elements of 'y' match exactly");
}

TEST(CheckExact, OneWrongElementIn1D) {
    const BufferCheck check = make_case<float>(ElementType::f32, {1, 2, 3.5, 4}, {1, 2, 3.25, 4}, exact()).check();
    EXPECT_FALSE(check.passed);
    EXPECT_EQ(check.over_tolerance, 1);
    EXPECT_EQ(check.first_bad.index, 2);
    EXPECT_EQ(check.first_bad.coords, (std::vector<int64_t>{2}));
    EXPECT_EQ(check.first_bad.got, 3.5);
    EXPECT_EQ(check.first_bad.expected, 3.25);
    EXPECT_EQ(check.first_bad.text, "y[2] = 3.5, expected 3.25 (allowed error 0)");
    EXPECT_EQ(check.summary, "FAIL: 1 of 4 elements of 'y' are wrong");
    EXPECT_EQ(check.max_abs_error, 0.25);
    EXPECT_TRUE(std::isinf(check.max_error_ratio));
}

TEST(CheckExact, IntegersIn2DAreNamedByRowAndColumn) {
    const BufferCheck check =
        make_case<int32_t>(ElementType::i32, {0, 1, 2, 3, 4, -7}, {0, 1, 2, 3, 4, 7}, exact(), {2, 3}).check();
    EXPECT_EQ(check.first_bad.index, 5);
    EXPECT_EQ(check.first_bad.coords, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(check.first_bad.text, "y[1][2] = -7, expected 7 (allowed error 0)");
    EXPECT_EQ(check.max_abs_error, 14);
}

TEST(CheckTolerance, AbsPlusRel) {
    const CheckSpec rule = tolerance("1e-7", "1e-5", "rel:1e-5,abs:1e-7");
    const BufferCheck pass = make_case<double>(ElementType::f64, {1, 2, 100.0009}, {1, 2, 100}, rule).check();
    EXPECT_TRUE(pass.passed);
    EXPECT_EQ(pass.rule, "|got - ref| <= 1e-07 + 1e-05 |ref|");
    EXPECT_EQ(pass.tolerance, 1e-5);
    EXPECT_EQ(pass.summary, "PASS: all 3 elements of 'y' within |got - ref| <= 1e-07 + 1e-05 |ref| (max abs error 0.0009)");
    EXPECT_NEAR(pass.max_error_ratio, 0.0009 / 0.0010001, 1e-9);
    const BufferCheck fail = make_case<double>(ElementType::f64, {1, 2, 100.0011}, {1, 2, 100}, rule).check();
    EXPECT_FALSE(fail.passed);
    EXPECT_EQ(fail.first_bad.text, "y[2] = 100.0011, expected 100 (allowed error 0.001)");
    EXPECT_NEAR(fail.first_bad.allowed, 0.0010001, 1e-12);
}

TEST(CheckTolerance, ExpressionsOverTheSizes) {
    Case c = make_case<float>(ElementType::f32, {1, 2}, {1, 2.000008f}, tolerance("1e-6*sqrt(n)", "", "abs:1e-6*sqrt(n)"));
    c.values = {{"n", 100}};
    const BufferCheck check = c.check();
    EXPECT_TRUE(check.passed);
    EXPECT_EQ(check.rule, "|got - ref| <= 1e-05");
    EXPECT_DOUBLE_EQ(check.tolerance, 1e-5);
    c.spec.check.abs = "1e-6*q";
    try {
        c.check();
        FAIL() << "expected an error";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("check of 'y' (abs:1e-6*sqrt(n)): abs '1e-6*q'"), std::string::npos)
            << error.what();
    }
    c.spec.check.abs = "-1";
    EXPECT_THROW(c.check(), InputError);
}

TEST(CheckTolerance, RuleTextLeavesOutZeroTerms) {
    EXPECT_EQ(make_case<float>(ElementType::f32, {1, 1}, {1, 1}, tolerance("1", "", "abs:1")).check().rule, "|got - ref| <= 1");
    const BufferCheck rel = make_case<float>(ElementType::f32, {1, 1}, {1, 1}, tolerance("", "1e-5", "rel:1e-5")).check();
    EXPECT_EQ(rel.rule, "|got - ref| <= 1e-05 |ref|");
    EXPECT_EQ(rel.tolerance, 1e-5);
}

TEST(CheckOverride, ReplacesTheLeadingNumber) {
    Case c = make_case<double>(ElementType::f64, {1.4, 2}, {1, 2}, exact());
    c.override_value = 0.5;
    BufferCheck check = c.check();
    EXPECT_TRUE(check.passed);
    EXPECT_EQ(check.rule, "|got - ref| <= 0.5");
    EXPECT_EQ(check.tolerance, 0.5);

    c.spec.check = tolerance("1e-7", "1e-5", "abs:1e-7,rel:1e-5");
    c.override_value = 1e-3;
    EXPECT_EQ(c.check().rule, "|got - ref| <= 0.001 + 1e-05 |ref|");
    EXPECT_EQ(c.check().tolerance, 1e-3);
    c.spec.check = tolerance("1e-7", "1e-5", "rel:1e-5,abs:1e-7");
    EXPECT_EQ(c.check().rule, "|got - ref| <= 1e-07 + 0.001 |ref|");

    c.spec.check = ulp("4");
    c.override_value = 2;
    EXPECT_EQ(c.check().rule, "within 2 ulp");
    EXPECT_EQ(c.check().tolerance, 2);

    c.spec.check = bound("2");
    c.bounds = {1, 1};
    c.override_value = 3;
    EXPECT_EQ(c.check().rule, "|got - ref| <= 3 x the reference's error bound");
    EXPECT_EQ(c.check().tolerance, 3);
    c.override_value = -1;
    EXPECT_THROW(c.check(), InputError);
}

TEST(CheckUlp, Float32UnitsIncludingAcrossZero) {
    float four = 1.0f, five = 1.0f;
    for (int i = 0; i < 4; ++i) four = std::nextafter(four, 2.0f);
    five = std::nextafter(four, 2.0f);
    const float tiny = std::numeric_limits<float>::denorm_min();
    const BufferCheck check =
        make_case<float>(ElementType::f32, {four, five, -tiny, -0.0f}, {1, 1, tiny, 0.0f}, ulp("4")).check();
    EXPECT_EQ(check.rule, "within 4 ulp");
    EXPECT_EQ(check.tolerance, 4);
    EXPECT_EQ(check.over_tolerance, 1);
    EXPECT_EQ(check.first_bad.index, 1);
    EXPECT_EQ(check.first_bad.text, "y[1] = 1.0000006, expected 1 (allowed error 4.77e-07 = 4 ulp)");
    EXPECT_DOUBLE_EQ(check.max_error_ratio, 1.25);
}

TEST(CheckUlp, Float16Float64AndIntegers) {
    Case half = make_case<uint16_t>(ElementType::f16, {0x3C03, 0x3C00}, {0x3C00, 0x3C00}, ulp("2"));
    BufferCheck check = half.check();
    EXPECT_EQ(check.over_tolerance, 1);
    EXPECT_DOUBLE_EQ(check.max_error_ratio, 1.5);
    EXPECT_DOUBLE_EQ(check.first_bad.got, 1.0 + 3.0 / 1024);

    const double two_up = std::nextafter(std::nextafter(1.0, 2.0), 2.0);
    EXPECT_TRUE(make_case<double>(ElementType::f64, {two_up}, {1.0}, ulp("2")).check().passed);
    EXPECT_FALSE(make_case<double>(ElementType::f64, {two_up}, {1.0}, ulp("1")).check().passed);

    check = make_case<int32_t>(ElementType::i32, {13, 14}, {10, 10}, ulp("3")).check();
    EXPECT_EQ(check.over_tolerance, 1);
    EXPECT_EQ(check.first_bad.index, 1);
    EXPECT_EQ(check.first_bad.allowed, 3);
}

TEST(CheckBound, ScalesTheReferencesOwnBound) {
    Case c = make_case<double>(ElementType::f64, {1.1, 2.5, 0, 5}, {1, 2, 0, 5}, bound("2"));
    c.bounds = {0.1, 0.2, 0, 1};
    const BufferCheck check = c.check();
    EXPECT_EQ(check.rule, "|got - ref| <= 2 x the reference's error bound");
    EXPECT_EQ(check.tolerance, 2);
    EXPECT_EQ(check.over_tolerance, 1);
    EXPECT_EQ(check.first_bad.index, 1);
    EXPECT_NEAR(check.first_bad.allowed, 0.4, 1e-12);
    EXPECT_DOUBLE_EQ(check.max_rel_error, 0.25);
    c.bounds.clear();
    EXPECT_THROW(c.check(), InputError);
}

TEST(CheckNone, IsNotChecked) {
    CheckSpec none;
    none.kind = CheckKind::none;
    const BufferCheck check = make_case<float>(ElementType::f32, {1}, {2}, none).check();
    EXPECT_FALSE(check.checked);
    EXPECT_TRUE(check.passed);
    EXPECT_EQ(check.summary, "not checked (check=none)");
    EXPECT_EQ(check.over_tolerance, 0);
}

// ---- Unwritten and nondeterministic elements

TEST(CheckPoison, UnwrittenElementsAreCaught) {
    Case c = make_case<float>(ElementType::f32, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}, tolerance("0.1", "", "abs:0.1"));
    unwrite(c, 1);
    unwrite(c, 3);
    const BufferCheck check = c.check();
    EXPECT_FALSE(check.passed);
    EXPECT_EQ(check.unwritten, 2);
    EXPECT_EQ(check.over_tolerance, 2);
    EXPECT_EQ(check.nan_inf, 0);
    EXPECT_EQ(check.nondeterministic, 0);
    EXPECT_EQ(check.max_abs_error, 0);
    EXPECT_TRUE(check.first_bad.unwritten);
    EXPECT_TRUE(std::isnan(check.first_bad.got));
    EXPECT_EQ(check.first_bad.text, "y[1] was never written");
    EXPECT_EQ(check.summary, "FAIL: 2 of 5 elements of 'y' are wrong (2 never written)");
}

TEST(CheckPoison, BytesAndAValueThatEqualsOnePattern) {
    Case c = make_case<uint8_t>(ElementType::u8, {0x5A, 7, 0xA5}, {0x5A, 7, 0xA5}, exact());
    EXPECT_TRUE(c.check().passed);  // right values that happen to be a poison byte are written, not missing
    set<uint8_t>(c.first, 1, 0x5A);
    set<uint8_t>(c.final, 1, 0xA5);
    const BufferCheck check = c.check();
    EXPECT_EQ(check.unwritten, 1);
    EXPECT_EQ(check.first_bad.index, 1);
}

TEST(CheckPoison, Float16HalvesFollowTheWordsByteOrder) {
    Case c = make_case<uint16_t>(ElementType::f16, {0x3C00, 0x4000, 0x4200}, {0x3C00, 0x4000, 0x4200}, exact());
    c.first.poison = c.final.poison = {0x11112222u, 0x33334444u};
    // Even elements get the word's low half, odd ones its high half.
    set<uint16_t>(c.first, 0, 0x2222);
    set<uint16_t>(c.final, 0, 0x4444);
    set<uint16_t>(c.first, 1, 0x1111);
    set<uint16_t>(c.final, 1, 0x3333);
    EXPECT_EQ(c.check().unwritten, 2);
    set<uint16_t>(c.first, 2, 0x1111);  // the odd half at an even element: a value, not the poison
    set<uint16_t>(c.final, 2, 0x3333);
    const BufferCheck check = c.check();
    EXPECT_EQ(check.unwritten, 2);
    EXPECT_EQ(check.nondeterministic, 1);
    EXPECT_EQ(check.over_tolerance, 3);
}

TEST(CheckPoison, Float64HoldsTheWordTwice) {
    Case c = make_case<double>(ElementType::f64, {1, 2}, {1, 2}, exact());
    unwrite(c, 0);
    uint64_t bits = 0;
    std::memcpy(&bits, c.final.data.data(), 8);
    EXPECT_EQ(bits, 0x7FF4BEEF7FF4BEEFull);
    EXPECT_EQ(c.check().unwritten, 1);
    // Written only by the second launch: not unwritten, but not the same twice either.
    lay_poison(c.first, c.final.poison[0], 1);
    const BufferCheck check = c.check();
    EXPECT_EQ(check.unwritten, 1);
    EXPECT_EQ(check.nondeterministic, 1);
    EXPECT_EQ(check.summary, "FAIL: 2 of 2 elements of 'y' are wrong (1 never written, 1 differ between two runs)");
}

TEST(CheckNondeterminism, ElementsThatDifferBetweenLaunchesFail) {
    Case c = make_case<float>(ElementType::f32, {1, 2, 3, 4}, {1, 2, 3, 4}, exact());
    set<float>(c.first, 2, 9);
    const BufferCheck check = c.check();
    EXPECT_FALSE(check.passed);
    EXPECT_EQ(check.nondeterministic, 1);
    EXPECT_EQ(check.over_tolerance, 0);
    EXPECT_EQ(check.first_bad.index, 2);
    EXPECT_EQ(check.first_bad.text, "y[2] differs between two runs: 9 then 3 (expected 3)");
    EXPECT_EQ(check.summary, "FAIL: 1 of 4 elements of 'y' are wrong (1 differ between two runs)");
}

TEST(CheckNondeterminism, TwoDifferentNaNsAreTheSame) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Case c = make_case<float>(ElementType::f32, {std::bit_cast<float>(0x7FC00002u)}, {nan}, exact());
    set<float>(c.first, 0, std::bit_cast<float>(0x7FC00001u));
    const BufferCheck check = c.check();
    EXPECT_TRUE(check.passed);
    EXPECT_EQ(check.nondeterministic, 0);
}

// ---- NaN, Inf and statistics

TEST(CheckSpecialValues, NaNAndInfinity) {
    const float nan = NAN, inf = INFINITY;
    const BufferCheck check = make_case<float>(ElementType::f32, {nan, 1, inf, -inf, nan, inf, 2.5f},
                                               {nan, nan, inf, inf, 1, 1, 2}, tolerance("1", "", "abs:1"))
                                  .check();
    EXPECT_EQ(check.over_tolerance, 4);
    EXPECT_EQ(check.nan_inf, 2);
    EXPECT_EQ(check.max_abs_error, 0.5);
    EXPECT_EQ(check.first_bad.index, 1);
    EXPECT_EQ(check.first_bad.text, "y[1] = 1, expected nan (allowed error 0)");
    EXPECT_EQ(check.summary, "FAIL: 4 of 7 elements of 'y' are wrong (2 NaN/Inf)");
}

TEST(CheckStatistics, ErrorsOverFiniteElements) {
    BufferCheck check = make_case<double>(ElementType::f64, {1, 2, 3}, {1, 2, 4}, tolerance("2", "", "abs:2")).check();
    EXPECT_EQ(check.max_abs_error, 1);
    EXPECT_EQ(check.max_rel_error, 0.25);
    EXPECT_DOUBLE_EQ(check.rel_frobenius_error, std::sqrt(1.0 / 21));
    EXPECT_EQ(check.max_error_ratio, 0.5);
    // A reference a millionth of the largest is too small to divide by.
    check = make_case<double>(ElementType::f64, {1000, 2e-6}, {1000, 1e-6}, tolerance("1", "", "abs:1")).check();
    EXPECT_EQ(check.max_rel_error, 0);
    EXPECT_EQ(check.max_abs_error, 1e-6);
    check = make_case<double>(ElementType::f64, {0.5, 0}, {0, 0}, tolerance("1", "", "abs:1")).check();
    EXPECT_EQ(check.rel_frobenius_error, 0.5);
}

TEST(CheckSummary, EveryKindOfFailureIsCounted) {
    Case c = make_case<float>(ElementType::f32, {1, 2, NAN, 4, 5, 6}, {1, 2, 3, 4, 5, 6}, exact());
    unwrite(c, 0);
    set<float>(c.first, 2, NAN);
    set<float>(c.first, 4, 7);
    const BufferCheck check = c.check();
    EXPECT_EQ(check.summary, "FAIL: 3 of 6 elements of 'y' are wrong (1 never written, 1 NaN/Inf, 1 differ between two runs)");
    EXPECT_EQ(check.first_bad.text, "y[0] was never written");
}

TEST(CheckTexts, ImagePixels) {
    Case c = make_case<uint8_t>(ElementType::u8, {1, 2, 3, 4, 5, 12}, {1, 2, 3, 4, 5, 13}, exact(), {2, 3}, "gray");
    c.kind = OutputKind::image;
    EXPECT_EQ(c.check().first_bad.text, "pixel (x=2, y=1): got 12, expected 13");
    unwrite(c, 0);
    EXPECT_EQ(c.check().first_bad.text, "pixel (x=0, y=0): never written");
    EXPECT_EQ(c.check().first_bad.coords, (std::vector<int64_t>{0, 0}));
    c.kind = OutputKind::matrix;
    EXPECT_EQ(c.check().first_bad.text, "gray[0][0] was never written");
}

TEST(CheckTexts, OneElementBuffers) {
    const CheckSpec rule = tolerance("1e-5", "", "abs:1e-5");
    BufferCheck check = make_case<float>(ElementType::f32, {3.25f}, {3.25f}, rule, {}, "s").check();
    EXPECT_EQ(check.summary, "PASS: s = 3.25, expected 3.25 (within |got - ref| <= 1e-05)");
    check = make_case<float>(ElementType::f32, {3.5f}, {3.25f}, rule, {}, "s").check();
    EXPECT_EQ(check.summary, "FAIL: s = 3.5, expected 3.25 (allowed error 1e-05)");
    EXPECT_EQ(check.first_bad.text, "s = 3.5, expected 3.25 (allowed error 1e-05)");
    EXPECT_EQ(check.first_bad.coords, (std::vector<int64_t>{0}));
    Case c = make_case<float>(ElementType::f32, {3.5f}, {3.25f}, rule, {}, "s");
    unwrite(c, 0);
    EXPECT_EQ(c.check().summary, "FAIL: s was never written");
    EXPECT_EQ(make_case<int32_t>(ElementType::i32, {3}, {3}, exact(), {}, "s").check().summary,
              "PASS: s = 3, expected 3 (exact)");
    EXPECT_EQ(make_case<float>(ElementType::f32, {2}, {2}, ulp("4"), {}, "s").check().summary,
              "PASS: s = 2, expected 2 (within 4 ulp)");
}

TEST(CheckTexts, PassWithinUlpReadsOnce) {
    EXPECT_EQ(make_case<float>(ElementType::f32, {1, 2}, {1, 2}, ulp("4")).check().summary,
              "PASS: all 2 elements of 'y' within 4 ulp (max abs error 0)");
}

TEST(CheckMetrics, FixedOrderAndLookup) {
    Case c = make_case<float>(ElementType::f32, {1, 2, 3.5f, NAN}, {1, 2, 3, 4}, tolerance("1", "", "abs:1"));
    unwrite(c, 1);
    const auto metrics = c.check().metrics();
    ASSERT_EQ(metrics.size(), 8u);
    const std::vector<std::string> names{"max_abs_error", "max_rel_error", "rel_frobenius_error", "over_tolerance",
                                         "unwritten",     "nan_inf",       "nondeterministic",    "elements"};
    for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(metrics[i].name, names[i]);
    EXPECT_EQ(metrics[0].value, 0.5);
    EXPECT_DOUBLE_EQ(metrics[1].value, 0.5 / 3);
    EXPECT_EQ(metrics[3].value, 2);
    EXPECT_EQ(metrics[4].value, 1);
    EXPECT_EQ(metrics[5].value, 1);
    EXPECT_EQ(metrics[6].value, 0);
    EXPECT_EQ(metrics[7].value, 4);
    CheckReport report;
    report.metrics = metrics;
    EXPECT_EQ(report.metric("elements"), 4);
    EXPECT_EQ(report.metric("absent"), 0);
}

TEST(CheckInput, SizesMustAgree) {
    Case c = make_case<float>(ElementType::f32, {1, 2}, {1, 2}, exact());
    c.expected.pop_back();
    EXPECT_THROW(c.check(), InputError);
    c = make_case<float>(ElementType::f32, {1, 2}, {1, 2}, exact());
    c.first.data.clear();  // no first launch: nothing to compare with, the final content is still checked
    EXPECT_TRUE(c.check().passed);
}

// ---- Views

TEST(OutputViews, ImageShowsPixelsAndDifferences) {
    Case c = make_case<uint8_t>(ElementType::u8, {1, 2, 3, 4, 5, 12}, {1, 2, 3, 4, 5, 13}, exact(), {2, 3});
    unwrite(c, 0);
    const OutputView view = c.view(OutputKind::image);
    EXPECT_EQ(view.kind, OutputKind::image);
    EXPECT_EQ(view.buffer, "y");
    EXPECT_EQ(view.width, 3);
    EXPECT_EQ(view.height, 2);
    EXPECT_EQ(view.output, c.final.data);
    ASSERT_EQ(view.map.size(), 6u);
    EXPECT_TRUE(std::isnan(view.map[0]));
    EXPECT_EQ(view.map[1], 0);
    EXPECT_EQ(view.map[5], -1);
}

// A 5x7 gray image viewed at most 3 pixels a side: 3x3 blocks (2x3, 3x1 at the edges), each its mean
// value (a never-written pixel counts as 0) and the block's difference furthest from zero, a
// never-written pixel (NaN) winning over any number.
TEST(OutputViews, ALargeImageIsDownsampledWithoutHidingAWrongPixel) {
    std::vector<uint8_t> got(35), want(35);
    for (size_t i = 0; i < got.size(); ++i) got[i] = want[i] = static_cast<uint8_t>(10 + i);
    got[1 * 7 + 4] += 9;   // block (1, 0): +9 ...
    got[2 * 7 + 5] -= 20;  // ... and -20 further from zero
    got[4 * 7 + 1] += 2;   // block (0, 1): +2
    Case c = make_case<uint8_t>(ElementType::u8, got, want, exact(), {5, 7}, "gray");
    unwrite(c, 4 * 7 + 6);  // block (2, 1)
    const OutputView view = c.view(OutputKind::image, 3);
    EXPECT_EQ(view.step, 3);
    EXPECT_EQ(view.width, 3);
    EXPECT_EQ(view.height, 2);
    EXPECT_EQ(view.cols, 7);
    EXPECT_EQ(view.rows, 5);
    // Block (0, 0): 10 + {0, 1, 2, 7, 8, 9, 14, 15, 16}, 162 / 9 = 18; block (2, 1): (37 + 0) / 2 rounded.
    EXPECT_EQ(view.output, (std::vector<unsigned char>{18, 20, 23, 36, 39, 19}));
    ASSERT_EQ(view.map.size(), 6u);
    EXPECT_EQ(view.map[0], 0);
    EXPECT_EQ(view.map[1], -20);
    EXPECT_EQ(view.map[2], 0);
    EXPECT_EQ(view.map[3], 2);
    EXPECT_EQ(view.map[4], 0);
    EXPECT_TRUE(std::isnan(view.map[5]));

    // No limit, or one the image fits in: the whole image, its bytes as they are.
    for (const int side : {0, 7, 100}) {
        const OutputView whole = c.view(OutputKind::image, side);
        EXPECT_EQ(whole.step, 1) << side;
        EXPECT_EQ(whole.width, 7);
        EXPECT_EQ(whole.output, c.final.data);
    }
}

TEST(OutputViews, ADownsampledColourImageKeepsItsChannels) {
    std::vector<float> got(4 * 4 * 3), want(4 * 4 * 3);
    for (size_t i = 0; i < got.size(); ++i) got[i] = want[i] = static_cast<float>(i);
    got[(1 * 4 + 3) * 3 + 2] = 100.5f;  // pixel (3, 1), blue: in block (1, 0)
    const OutputView view = make_case<float>(ElementType::f32, got, want, tolerance("0.5", "", "abs:0.5"), {4, 4, 3}, "rgb")
                                .view(OutputKind::image, 2);
    EXPECT_EQ(view.step, 2);
    EXPECT_EQ(view.channels, 3);
    ASSERT_EQ(view.output.size(), 2u * 2u * 3u);
    // Block (1, 0) holds pixels (2, 0), (3, 0), (2, 1), (3, 1): red 6, 9, 18, 21; blue 8, 11, 20, 101.
    EXPECT_EQ(view.output[3], 14);
    EXPECT_EQ(view.output[5], 35);
    EXPECT_FLOAT_EQ(view.map[1], 100.5f - 23.0f);
    EXPECT_EQ(view.map[0], 0);
}

// A float image in 0..1 is drawn as bytes scaled by 255 (clamped, rounded), RGBA's four channels kept; its
// differences stay in its own units. The kept full-resolution view draws it the same way.
TEST(OutputViews, AFloatImageInZeroToOneIsDrawnAsBytes) {
    const std::vector<float> want{0, 0.5f, 1, 1, 0.25f, 0.75f, 0.1f, 1};
    std::vector<float> got = want;
    got[1] = 0.6f;   // pixel 0 green, 0.1 too bright
    got[4] = -0.5f;  // pixel 1 red, below black: clamped
    got[6] = 2.0f;   // pixel 1 blue, past white
    Case c = make_case<float>(ElementType::f32, got, want, tolerance("0.01", "", "abs:0.01"), {1, 2, 4}, "rgba");
    c.image_white = 1;
    const OutputView view = c.view(OutputKind::image);
    EXPECT_EQ(view.channels, 4);
    EXPECT_EQ(view.output, (std::vector<unsigned char>{0, 153, 255, 255, 0, 191, 255, 255}));
    ASSERT_EQ(view.map.size(), 2u);
    EXPECT_FLOAT_EQ(view.map[0], 0.1f);
    EXPECT_FLOAT_EQ(view.map[1], 1.9f);
    // Values in 0..255 are bytes as they are, rounded.
    c.image_white = 255;
    EXPECT_EQ(c.view(OutputKind::image).output, (std::vector<unsigned char>{0, 1, 1, 1, 0, 1, 2, 1}));

    c.image_white = 1;
    KeptView kept;
    const std::string key = kept.next_key();
    auto reference = std::make_shared<ExpectedOutputs>();
    reference->outputs = {c.expected};
    BufferCheckInput input = c.input();
    input.expected = &reference->outputs[0];
    kept.keep(input, OutputKind::image, reference, nullptr, 0);
    EXPECT_EQ(kept.full_view(key).output, view.output);
}

// The engine keeps a downsampled view's output and makes its full resolution when asked by its key.
TEST(KeptViews, TheFullResolutionIsTheWholeViewAndOnlyForItsKey) {
    std::vector<uint8_t> got(35, 7), want(35, 7);
    got[33] = 9;
    Case c = make_case<uint8_t>(ElementType::u8, got, want, exact(), {5, 7}, "gray");
    KeptView kept;
    EXPECT_THROW(kept.full_view(""), InputError);
    const std::string key = kept.next_key();
    auto reference = std::make_shared<ExpectedOutputs>();
    reference->outputs = {c.expected};
    BufferCheckInput input = c.input();
    EXPECT_THROW(kept.keep(input, OutputKind::image, reference, nullptr, 0), std::invalid_argument) << "not the reference it points into";
    input.expected = &reference->outputs[0];
    kept.keep(input, OutputKind::image, reference, nullptr, 0);
    reference.reset();  // the kept view holds it
    const OutputView full = kept.full_view(key), whole = c.view(OutputKind::image);
    EXPECT_EQ(full.step, 1);
    EXPECT_EQ(full.output, whole.output);
    EXPECT_EQ(full.map, whole.map);
    EXPECT_EQ(full.map[33], 2);
    const std::string next = kept.next_key();
    EXPECT_NE(next, key);
    try {
        (void)kept.full_view(key);
        ADD_FAILURE() << "an older key's view was made";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("no longer keeps this output"), std::string::npos) << error.what();
    }
}

TEST(OutputViews, MatrixRatiosAndNaN) {
    const OutputView view =
        make_case<float>(ElementType::f32, {1, 2, 3.25f, NAN}, {1, 2.25f, 3, 4}, tolerance("0.5", "", "abs:0.5"), {2, 2})
            .view(OutputKind::matrix);
    EXPECT_EQ(view.width, 2);
    EXPECT_EQ(view.height, 2);
    ASSERT_EQ(view.map.size(), 4u);
    EXPECT_EQ(view.map[0], 0);
    EXPECT_EQ(view.map[1], 0.5f);
    EXPECT_EQ(view.map[2], 0.5f);
    EXPECT_TRUE(std::isnan(view.map[3]));
}

TEST(OutputViews, MatrixIsMaxPooledTo1024ASide) {
    const size_t rows = 3000, cols = 10;
    std::vector<float> ref = iota_floats(rows * cols), got = ref;
    got[1500 * cols + 7] += 2;  // ratio 2 in cell (500, 7)
    got[1501 * cols + 7] += 1;  // the same cell's smaller error
    Case c = make_case<float>(ElementType::f32, got, ref, tolerance("1", "", "abs:1"), {3000, 10});
    unwrite(c, 2999 * cols);
    const OutputView view = c.view(OutputKind::matrix);
    EXPECT_EQ(view.height, 1000);
    EXPECT_EQ(view.width, 10);
    ASSERT_EQ(view.map.size(), 10000u);
    EXPECT_EQ(view.map[500 * 10 + 7], 2);
    EXPECT_EQ(view.map[500 * 10 + 6], 0);
    EXPECT_TRUE(std::isnan(view.map[999 * 10]));

    const std::vector<float> wide(2048 * 2049, 1.0f);
    const OutputView big = make_case<float>(ElementType::f32, wide, wide, exact(), {2048, 2049}).view(OutputKind::matrix);
    EXPECT_EQ(big.height, 1024);
    EXPECT_EQ(big.width, 683);
    EXPECT_EQ(big.map.size(), 1024u * 683);
}

TEST(OutputViews, SeriesOnePerEntryWhenItFits) {
    Case c = make_case<float>(ElementType::f32, {1, 2, 4, 4}, {1, 2, 3, 4}, tolerance("0.5", "", "abs:0.5"));
    unwrite(c, 3);
    const Series series = c.view(OutputKind::series).series;
    EXPECT_EQ(series.count, 4);
    EXPECT_EQ(series.bucket, 1);
    EXPECT_EQ(series.entries(), 4u);
    EXPECT_TRUE(series.got_max.empty());
    EXPECT_TRUE(series.want_max.empty());
    EXPECT_EQ(series.got_min[2], 4);
    EXPECT_EQ(series.want_min[2], 3);
    EXPECT_EQ(series.ratio_max[2], 2);
    EXPECT_TRUE(std::isnan(series.got_min[3]));
    EXPECT_TRUE(std::isnan(series.ratio_max[3]));
    EXPECT_EQ(series.want_min[3], 4);
}

TEST(OutputViews, LongSeriesBecomeEnvelopes) {
    const size_t count = 5000000;
    std::vector<float> got = iota_floats(count), ref = got;
    ref[4] = 3;  // entry 1 holds elements 3, 4, 5
    Case c = make_case<float>(ElementType::f32, got, ref, tolerance("0.5", "", "abs:0.5"));
    unwrite(c, 7);
    const Series series = c.view(OutputKind::series).series;
    EXPECT_EQ(series.count, 5000000);
    EXPECT_EQ(series.bucket, 3);
    ASSERT_EQ(series.entries(), 1666667u);
    ASSERT_EQ(series.got_max.size(), 1666667u);
    ASSERT_EQ(series.want_max.size(), 1666667u);
    EXPECT_EQ(series.got_min[1], 3);
    EXPECT_EQ(series.got_max[1], 5);
    EXPECT_EQ(series.want_min[1], 3);
    EXPECT_EQ(series.want_max[1], 5);
    EXPECT_EQ(series.ratio_max[1], 2);
    EXPECT_EQ(series.ratio_max[0], 0);
    EXPECT_TRUE(std::isnan(series.got_min[2]));
    EXPECT_TRUE(std::isnan(series.ratio_max[2]));
    EXPECT_EQ(series.got_min[1666666], 4999998);
    EXPECT_EQ(series.got_max[1666666], 4999999);
}

TEST(OutputViews, AScalarCarriesItsValueAndTheReferences) {
    const OutputView view = make_case<float>(ElementType::f32, {1.5f}, {2}, exact()).view(OutputKind::scalar);
    EXPECT_EQ(view.kind, OutputKind::scalar);
    EXPECT_EQ(view.buffer, "y");
    EXPECT_TRUE(view.empty());  // no arrays
    EXPECT_TRUE(view.drawable());
    EXPECT_EQ(view.value, "1.5");
    EXPECT_EQ(view.expected, "2");
    // A double prints every digit it has, not rounded through float.
    const OutputView wide = make_case<double>(ElementType::f64, {0.1 + 0.2}, {0.3}, exact()).view(OutputKind::scalar);
    EXPECT_EQ(wide.value, "0.30000000000000004");
    EXPECT_EQ(wide.expected, "0.3");
}

}  // namespace
}  // namespace kplay
