// Binding spec arguments to a kernel's real parameter layout, and the messages for wrong bindings.
#include <gtest/gtest.h>

#include <cstring>

#include "launch/argument_binding.hpp"
#include "base/error.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {
std::vector<ParamLayout> layout(std::initializer_list<size_t> sizes) {
    std::vector<ParamLayout> params;
    size_t offset = 0;
    for (size_t size : sizes) {
        offset = (offset + size - 1) / size * size;
        params.push_back({offset, size});
        offset += size;
    }
    return params;
}
KernelDecl declaration(const std::string& source) { return find_kernels(source).front(); }
}  // namespace

TEST(ArgumentBinding, BindsPointersScalarsAndLiterals) {
    const KernelDecl decl = declaration("__global__ void k(float *m, float *n, float *out, int h, int w, int k, int tw) {}");
    const NamedValues values{{"M", 100}, {"N", 50}, {"K", 30}};
    const std::vector<std::string> args{"a", "b", "c", "M", "N", "K", "tw=16"};
    NamedValues names = values;
    const NamedValues literals = literal_arguments(args, {{"tw", "32"}}, values);
    EXPECT_EQ(literals.at("tw"), 32);
    names.insert(literals.begin(), literals.end());
    const std::vector<BindableBuffer> buffers{{"a", ElementType::f32}, {"b", ElementType::f32}, {"c", ElementType::f32}};
    const auto unplaced = bind_arguments("k", args, names, buffers, layout({8, 8, 8, 4, 4, 4, 4}), &decl);
    ASSERT_EQ(unplaced.size(), 7u);
    EXPECT_EQ(unplaced[1].buffer, 1);
    EXPECT_EQ(unplaced[3].buffer, -1);
    // Buffers are bound by index; each set of device buffers fills in its addresses.
    const auto bound = with_addresses(unplaced, [](size_t index) { return 0x1000u * (index + 1); });
    EXPECT_EQ(bound[0].kind, "pointer");
    uint64_t pointer = 0;
    std::memcpy(&pointer, bound[1].storage, 8);
    EXPECT_EQ(pointer, 0x2000u);
    EXPECT_EQ(bound[3].kind, "int32");
    EXPECT_EQ(bound[3].param, "h");
    int32_t tw = 0;
    std::memcpy(&tw, bound[6].storage, 4);
    EXPECT_EQ(tw, 32);
}

TEST(ArgumentBinding, FloatAndWideScalarsFollowTheDeclaration) {
    const KernelDecl decl = declaration("__global__ void k(float* a, float scale, long long n) {}");
    const auto bound = bind_arguments("k", {"a", "3", "n*2"}, {{"n", 5}}, {{"a", ElementType::f32}}, layout({8, 4, 8}), &decl);
    float scale = 0;
    std::memcpy(&scale, bound[1].storage, 4);
    EXPECT_EQ(scale, 3.0f);
    EXPECT_EQ(bound[2].kind, "int64");
    EXPECT_EQ(bound[2].value, "10");
}

TEST(ArgumentBinding, WrongCountAndSizesAreMessages) {
    const KernelDecl decl = declaration("__global__ void k(unsigned char* x, unsigned char* out, int n) {}");
    const std::vector<BindableBuffer> buffers{{"in", ElementType::u8}, {"out", ElementType::u8}};
    std::string message = kplay::test::input_error_of([&] { bind_arguments("k", {"in", "out"}, {{"n", 3}}, buffers, layout({8, 8, 4}), &decl); });
    EXPECT_NE(message.find("takes 3 parameters but 2 arguments"), std::string::npos) << message;
    message = kplay::test::input_error_of([&] { bind_arguments("k", {"in", "n", "out"}, {{"n", 3}}, buffers, layout({8, 8, 4}), &decl); });
    EXPECT_NE(message.find("is a pointer"), std::string::npos) << message;
    message = kplay::test::input_error_of([&] { bind_arguments("k", {"in", "out", "out"}, {{"n", 3}}, buffers, layout({8, 8, 4}), nullptr); });
    EXPECT_NE(message.find("4 bytes, but 'out' is a device pointer"), std::string::npos) << message;
    message = kplay::test::input_error_of([&] { bind_arguments("k", {"in", "out", "q"}, {{"n", 3}}, buffers, layout({8, 8, 4}), &decl); });
    EXPECT_NE(message.find("unknown name 'q'"), std::string::npos) << message;
    message = kplay::test::input_error_of([&] { bind_arguments("k", {"in", "out", "n"}, {{"n", 1ll << 40}}, buffers, layout({8, 8, 4}), &decl); });
    EXPECT_NE(message.find("does not fit"), std::string::npos) << message;
}

TEST(ArgumentBinding, APointerMustFitItsBuffersElements) {
    const KernelDecl decl = declaration("__global__ void k(const double* x, const float4* y, int n) {}");
    const std::vector<BindableBuffer> buffers{{"x", ElementType::f32}, {"y", ElementType::f32}};
    const std::string message = kplay::test::input_error_of([&] { bind_arguments("k", {"x", "y", "n"}, {{"n", 3}}, buffers, layout({8, 8, 4}), &decl); });
    EXPECT_NE(message.find("argument 1 (x) of k points to 'const double*' (8-byte elements), but buffer 'x' holds f32 (4 bytes each)"),
              std::string::npos)
        << message;
    // A wider view of the same bytes (float4 over f32) is a kernel's choice, not a mistake.
    const std::vector<BindableBuffer> doubles{{"x", ElementType::f64}, {"y", ElementType::f32}};
    EXPECT_EQ(bind_arguments("k", {"x", "y", "n"}, {{"n", 3}}, doubles, layout({8, 8, 4}), &decl).size(), 3u);
}

TEST(ArgumentBinding, OverridesMustNameALiteral) {
    const std::string message = kplay::test::input_error_of([] { literal_arguments({"a", "tw=16"}, {{"tx", "8"}}, {}); });
    EXPECT_NE(message.find("no literal argument 'tx'"), std::string::npos) << message;
    EXPECT_NE(message.find("it has: tw"), std::string::npos) << message;
    EXPECT_NE(kplay::test::input_error_of([] { literal_arguments({"M=3"}, {}, {{"M", 1}}); }).find("reuses the task's value"), std::string::npos);
}
