// Binding spec arguments to a kernel's real parameter layout, and the messages for wrong bindings.
#include <gtest/gtest.h>

#include <cstring>

#include "plan/argument_binding.hpp"
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

TEST(ArgumentBinding, FloatParametersTakeRealLiteralsAndExpressions) {
    const KernelDecl decl = declaration("__global__ void k(float* p, float lr, double scale, int step, float half_n) {}");
    const std::vector<std::string> args{"p", "lr=1e-3", "1/sqrt(d)", "step=3", "n/2"};
    const NamedValues values{{"n", 5}, {"d", 64}};
    const NamedValues literals = literal_arguments(args, {}, values);
    EXPECT_EQ(literals.count("lr"), 0u);  // a real literal is no name for the integer expressions
    EXPECT_EQ(literals.at("step"), 3);
    NamedValues names = values;
    names.insert(literals.begin(), literals.end());
    const auto bound = bind_arguments("k", args, names, {{"p", ElementType::f32}}, layout({8, 4, 8, 4, 4}), &decl);
    float lr = 0, half_n = 0;
    double scale = 0;
    int32_t step = 0;
    std::memcpy(&lr, bound[1].storage, 4);
    std::memcpy(&scale, bound[2].storage, 8);
    std::memcpy(&step, bound[3].storage, 4);
    std::memcpy(&half_n, bound[4].storage, 4);
    EXPECT_EQ(lr, 1e-3f);
    EXPECT_EQ(bound[1].kind, "float32");
    EXPECT_EQ(bound[1].value, "0.001");
    EXPECT_DOUBLE_EQ(scale, 0.125);
    EXPECT_EQ(step, 3);
    EXPECT_EQ(half_n, 2.5f);  // a float parameter gets real arithmetic
    // --arg replaces a real literal's text too.
    const auto overridden = bind_arguments("k", with_overrides(args, {{"lr", "2e-3"}}), names, {{"p", ElementType::f32}}, layout({8, 4, 8, 4, 4}), &decl);
    std::memcpy(&lr, overridden[1].storage, 4);
    EXPECT_EQ(lr, 2e-3f);
    EXPECT_NO_THROW(literal_arguments(args, {{"lr", "2e-3"}}, values));
}

TEST(ArgumentBinding, ABadValueNamesItsArgument) {
    const KernelDecl decl = declaration("__global__ void k(float* p, float lr, int step) {}");
    std::string message = kplay::test::input_error_of(
        [&] { bind_arguments("k", {"p", "lr=1e-3", "step=1e-3"}, {}, {{"p", ElementType::f32}}, layout({8, 4, 4}), &decl); });
    EXPECT_NE(message.find("argument 3 (step) of k ('int') takes an integer"), std::string::npos) << message;
    message = kplay::test::input_error_of([&] { bind_arguments("k", {"p", "log(0-n)", "1"}, {{"n", 2}}, {{"p", ElementType::f32}}, layout({8, 4, 4}), &decl); });
    EXPECT_NE(message.find("argument 2 (lr) of k ('float') cannot take 'log(0-n)'"), std::string::npos) << message;
    message = kplay::test::input_error_of([] { literal_arguments({"lr=1e-3x"}, {}, {}); });
    EXPECT_NE(message.find("Literal argument 'lr=1e-3x'"), std::string::npos) << message;
}

TEST(ArgumentBinding, PointersTakeNullAndOffsetsWithinTheBuffer) {
    const KernelDecl decl = declaration("__global__ void k(const float* x, float* y, int* sums, int n) {}");
    const std::vector<BindableBuffer> buffers{{"x", ElementType::f32, 2000}, {"y", ElementType::f32, 1000}};
    const auto unplaced = bind_arguments("k", {"x+n", "y", "null", "n"}, {{"n", 1000}}, buffers, layout({8, 8, 8, 4}), &decl);
    EXPECT_EQ(unplaced[0].value, "x+1000");
    EXPECT_EQ(unplaced[2].kind, "null pointer");
    const auto bound = with_addresses(unplaced, [](size_t index) { return 0x10000u * (index + 1); });
    uint64_t x = 0, sums = 1;
    std::memcpy(&x, bound[0].storage, 8);
    std::memcpy(&sums, bound[2].storage, 8);
    EXPECT_EQ(x, 0x10000u + 4000u);  // 1000 floats in
    EXPECT_EQ(sums, 0u);
    EXPECT_EQ(bind_arguments("k", {"x", "y", "0", "n"}, {{"n", 1}}, buffers, layout({8, 8, 8, 4}), &decl)[2].kind, "null pointer");
    std::string message =
        kplay::test::input_error_of([&] { bind_arguments("k", {"x+2*n+1", "y", "null", "n"}, {{"n", 1000}}, buffers, layout({8, 8, 8, 4}), &decl); });
    EXPECT_NE(message.find("argument 1 (x) of k is 'x+2*n+1', 2001 elements into 'x', which holds 2000"), std::string::npos) << message;
    message = kplay::test::input_error_of([&] { bind_arguments("k", {"x", "y", "7", "n"}, {{"n", 1}}, buffers, layout({8, 8, 8, 4}), &decl); });
    EXPECT_NE(message.find("argument 3 (sums) of k is a pointer ('int*'), but '7' is a number"), std::string::npos) << message;
    EXPECT_NE(message.find("or null"), std::string::npos) << message;
}

TEST(ArgumentBinding, AStructIsLaidOutAsC) {
    const std::string source =
        "struct CSR { int* rows; const int *cols; float* values; int n; double scale; };\n"
        "// kplay-struct: A rows=r cols=c+1 values=null n=N scale=1/sqrt(N)\n"
        "__global__ void k(CSR A, float* y) {}\n";
    const auto kernels = find_kernels(source);
    const auto structs = read_struct_lines(source, "f.cu", kernels);
    ASSERT_EQ(structs.size(), 1u);
    const std::vector<BindableBuffer> buffers{{"r", ElementType::i32, 5}, {"c", ElementType::i32, 9}, {"y", ElementType::f32, 4}};
    const auto unplaced = bind_arguments("k", {"A", "y"}, {{"N", 4}}, buffers, layout({40, 8}), &kernels.front(), {}, structs);
    EXPECT_EQ(unplaced[0].kind, "struct");
    EXPECT_EQ(unplaced[0].size, 40u);
    EXPECT_EQ(unplaced[0].value, "CSR{rows=r, cols=c+1, values=null, n=4, scale=0.5}");
    const auto bound = with_addresses(unplaced, [](size_t index) { return 0x1000u * (index + 1); });
    uint64_t rows = 0, cols = 0, values = 1;
    int32_t n = 0;
    double scale = 0;
    std::memcpy(&rows, bound[0].storage, 8);
    std::memcpy(&cols, bound[0].storage + 8, 8);
    std::memcpy(&values, bound[0].storage + 16, 8);
    std::memcpy(&n, bound[0].storage + 24, 4);
    std::memcpy(&scale, bound[0].storage + 32, 8);
    EXPECT_EQ(rows, 0x1000u);
    EXPECT_EQ(cols, 0x2000u + 4);
    EXPECT_EQ(values, 0u);
    EXPECT_EQ(n, 4);
    EXPECT_EQ(scale, 0.5);
    // The size the driver reports must be the one kplay laid out.
    const std::string message =
        kplay::test::input_error_of([&] { bind_arguments("k", {"A", "y"}, {{"N", 4}}, buffers, layout({32, 8}), &kernels.front(), {}, structs); });
    EXPECT_NE(message.find("argument 1 (A) of k is 32 bytes, but struct CSR as kplay lays it out"), std::string::npos) << message;
}

TEST(ArgumentBinding, AStructLineNamesWhatIsMissing) {
    const std::string source = "struct P { float* a; int n; };\n__global__ void k(P p, int q) {}\n";
    const auto kernels = find_kernels(source);
    auto error_of = [&](const std::string& line) {
        return kplay::test::input_error_of([&] { read_struct_lines("// kplay-struct: " + line + "\n" + source, "f.cu", kernels); });
    };
    EXPECT_NE(error_of("p a=x").find("f.cu:1: kplay-struct: p: field 'n' (int) of struct P has no value"), std::string::npos) << error_of("p a=x");
    EXPECT_NE(error_of("p a=x n=1 m=2").find("'m=2' names no field of struct P (fields: a, n)"), std::string::npos) << error_of("p a=x n=1 m=2");
    EXPECT_NE(error_of("r a=x n=1").find("no kernel in the file has a parameter named 'r'"), std::string::npos);
    EXPECT_NE(error_of("q a=x n=1").find("the file defines no `struct int"), std::string::npos) << error_of("q a=x n=1");
}
