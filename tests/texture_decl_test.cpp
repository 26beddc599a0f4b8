// kplay-texture and kplay-surface lines: read, checked against what CUDA does (with the reason when it
// does not), planned at a run's sizes against the buffer, bound as 8-byte arguments that hold the buffer's
// address for the host reference, carried in the spec over the wire, and the reference's parameter
// checked as a pointer. Pure: no GPU, no compiler.
#include <gtest/gtest.h>

#include <cstring>

#include "base/error.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/task_sizes.hpp"
#include "kernel_file/texture_decl.hpp"
#include "plan/plan.hpp"
#include "test_support.hpp"
#include "values/codec.hpp"

using namespace kplay;

namespace {

const char* const kResize =
    "// kplay-sizes: h,w default=480x640 test=1x1\n"
    "// kplay-buffer: img u8[4*h*w] in init=randint(0,255)\n"
    "// kplay-buffer: out f32[16*h*w] out\n"
    "// kplay-texture: tex buffer=img shape=h, w channels=4 filter=linear address=clamp normalized=no read=normalized-float\n"
    "// kplay-surface: out_surf buffer=out shape=2*h,2*w channels=4\n"
    "// kplay: args=tex,out_surf,h,w launch=2d\n"
    "__global__ void resize(cudaTextureObject_t tex, cudaSurfaceObject_t out_surf, int h, int w) {}\n"
    "#ifdef KPLAY_REFERENCE\n"
    "void kplay_reference(const unsigned char* img, float* out, int h, int w) {}\n"
    "#endif\n";

std::vector<TextureDecl> read(const std::string& lines) { return read_texture_lines(lines, "t.cu"); }
std::string read_error(const std::string& lines) {
    return test::input_error_of([&] { read(lines); });
}
std::string spec_error(const std::string& source) {
    return test::input_error_of([&] { resolve_kernel_spec(source, "t.cu"); });
}
std::string with(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

struct Planned {
    KernelSpec spec;
    NamedValues values;
    std::vector<PlanBuffer> buffers;
    FunctionAttributes function;
};
Planned planned(const std::string& source, const std::string& sizes) {
    Planned p;
    p.spec = resolve_kernel_spec(source, "t.cu");
    p.values = size_values(p.spec.task, parse_size_values(p.spec.task, sizes));
    for (const auto& buffer : p.spec.task.buffers)
        p.buffers.push_back({buffer.name, buffer.type, evaluate_int_expr(buffer.length, p.values), {}, buffer.is_output()});
    p.function.max_threads_per_block = 1024;
    p.function.params = {{0, 8}, {8, 8}, {16, 4}, {20, 4}};
    return p;
}
DeviceInfo device() {
    DeviceInfo info;
    info.name = "G";
    info.sm_count = 10;
    return info;
}
std::string plan_error(const Planned& p) {
    return test::input_error_of([&] { make_plan(p.spec, p.values, p.buffers, {}, device(), &p.function); });
}

}  // namespace

TEST(TextureDecl, ReadsEveryKeyAndTheDefaults) {
    const auto images = read(kResize);
    ASSERT_EQ(images.size(), 2u);
    const TextureDecl& tex = images[0];
    EXPECT_EQ(tex.kind, ImageKind::texture);
    EXPECT_EQ(tex.name, "tex");
    EXPECT_EQ(tex.buffer, "img");
    EXPECT_EQ(tex.shape, (std::vector<std::string>{"h", "w"})) << "a value with a space reads as one";
    EXPECT_EQ(tex.channels, 4);
    EXPECT_EQ(tex.filter, TextureFilter::linear);
    EXPECT_EQ(tex.address, TextureAddress::clamp);
    EXPECT_FALSE(tex.normalized);
    EXPECT_EQ(tex.read, TextureRead::normalized_float);
    EXPECT_EQ(tex.layout, TextureLayout::standard);
    EXPECT_FALSE(tex.in_array());
    EXPECT_EQ(tex.line, 4);
    const TextureDecl& surf = images[1];
    EXPECT_EQ(surf.kind, ImageKind::surface);
    EXPECT_EQ(surf.shape, (std::vector<std::string>{"2*h", "2*w"}));
    EXPECT_TRUE(surf.in_array()) << "a surface always lives in a CUDA array";
    const TextureDecl plain = read("// kplay-texture: t buffer=x shape=n\n").at(0);
    EXPECT_EQ(plain.filter, TextureFilter::point);
    EXPECT_EQ(plain.address, TextureAddress::clamp);
    EXPECT_EQ(plain.read, TextureRead::element);
    EXPECT_EQ(plain.channels, 1);
    EXPECT_FALSE(plain.in_array()) << "1D: linear memory, for tex1Dfetch";
    EXPECT_TRUE(read("// kplay-texture: t buffer=x shape=n layout=array filter=linear\n").at(0).in_array());
    EXPECT_TRUE(read("// kplay-texture: t buffer=x shape=h,w layers=L\n").at(0).in_array());
    EXPECT_TRUE(read("// kplay-texture: t buffer=x shape=d,h,w\n").at(0).in_array());
}

TEST(TextureDecl, WhatCudaDoesNotDoIsRefusedWithTheReason) {
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=h,w address=wrap\n"),
              "t.cu:1: kplay-texture: address=wrap needs normalized coordinates (CUDA wraps and mirrors only coordinates in [0,1)): add "
              "normalized=yes, or use clamp or border");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=h,w address=mirror normalized=no\n"),
              "t.cu:1: kplay-texture: address=mirror needs normalized coordinates (CUDA wraps and mirrors only coordinates in [0,1)): add "
              "normalized=yes, or use clamp or border");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=n filter=linear\n"),
              "t.cu:1: kplay-texture: filter=linear over 1D linear memory: tex1Dfetch reads linear memory by index, unfiltered and without "
              "address modes. Add layout=array to put it in a CUDA array and sample it with tex1D");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=n address=border\n"),
              "t.cu:1: kplay-texture: address=border over 1D linear memory: tex1Dfetch reads linear memory by index, unfiltered and without "
              "address modes. Add layout=array to put it in a CUDA array and sample it with tex1D");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=d,h,w layers=4\n"),
              "t.cu:1: kplay-texture: layers= goes with a 1D or 2D shape (a layered 3D texture does not exist in CUDA); write shape=h,w layers=d");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=a,b,c,d\n"),
              "t.cu:1: kplay-texture: shape= gives 4 extents; a texture has 1 (n), 2 (h,w) or 3 (d,h,w), outermost first");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=h,w layers=2 layout=linear\n"),
              "t.cu:1: kplay-texture: layout=linear: a layered or 3D texture lives in a CUDA array; leave layout= out");
}

TEST(TextureDecl, BadLinesAreExactMessages) {
    EXPECT_EQ(read_error("// kplay-texture: buffer=x shape=n\n"),
              "t.cu:1: kplay-texture: name the kernel argument first, e.g. '// kplay-texture: tex buffer=img shape=h,w filter=linear'");
    EXPECT_EQ(read_error("// kplay-texture: 2t buffer=x shape=n\n"), "t.cu:1: kplay-texture: '2t' is not an argument name (letters, digits and _)");
    EXPECT_EQ(read_error("// kplay-texture: t shape=n\n"),
              "t.cu:1: kplay-texture: needs buffer= (keys: buffer, shape, layers, channels, filter, address, normalized, read, layout)");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=n filter=cubic\n"), "t.cu:1: kplay-texture: filter must be point, linear, not 'cubic'");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=n channels=3\n"), "t.cu:1: kplay-texture: channels must be 1, 2, 4, not '3'");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=n read=float\n"),
              "t.cu:1: kplay-texture: read must be element, normalized-float, not 'float'");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=n buffer=y\n"), "t.cu:1: kplay-texture: 'buffer' is given twice");
    EXPECT_EQ(read_error("// kplay-texture: t buffer=x shape=n box=4\n"),
              "t.cu:1: kplay-texture: unknown key 'box' (keys: buffer, shape, layers, channels, filter, address, normalized, read, layout)");
    EXPECT_EQ(read_error("// kplay-surface: s buffer=x shape=n filter=linear\n"),
              "t.cu:1: kplay-surface: 'filter' is a texture's key: a surface reads and writes whole elements at integer coordinates (keys: buffer, "
              "shape, layers, channels)");
    EXPECT_EQ(read_error("// kplay-surface: s buffer=x shape=n\n// kplay-texture: s buffer=x shape=n\n"),
              "t.cu:2: kplay-texture: 's' is declared twice (first at line 1)");
}

TEST(TextureDecl, TheSpecChecksBuffersBindingsAndTheReferencesPointer) {
    const KernelSpec spec = resolve_kernel_spec(kResize, "t.cu");
    ASSERT_EQ(spec.textures.size(), 2u);
    ASSERT_NE(spec.texture("out_surf"), nullptr);
    EXPECT_EQ(spec.texture("img"), nullptr);
    EXPECT_TRUE(spec.gpu_only_features().empty()) << "both devices run textures";
    EXPECT_EQ(spec_error(with(kResize, "buffer=img", "buffer=image")),
              "t.cu:4: kplay-texture: tex: buffer=image is not one of the task's buffers (img, out)");
    EXPECT_EQ(spec_error(with(kResize, "args=tex,", "args=img,")), "t.cu:4: kplay-texture: tex: no launch passes it: name it in args= where the "
                                                                   "kernel takes it (args=img,out_surf,h,w)");
    EXPECT_EQ(spec_error(with(with(kResize, "kplay-surface: out_surf", "kplay-surface: out"), "args=tex,out_surf", "args=tex,out")),
              "t.cu:5: kplay-surface: out: an object cannot have the name of a buffer (the reference gets the buffer in its place); call it "
              "e.g. out_surf");
    // The spec travels to the window and over a remote link with its textures.
    const KernelSpec back = nlohmann::json(spec).get<KernelSpec>();
    ASSERT_EQ(back.textures.size(), 2u);
    EXPECT_EQ(back.textures[0].read, TextureRead::normalized_float);
    EXPECT_EQ(back.textures[0].shape, spec.textures[0].shape);
    EXPECT_EQ(back.textures[1].kind, ImageKind::surface);

    // A host reference takes the buffer where the kernel takes the object.
    EXPECT_EQ(spec_error(with(kResize, "const unsigned char* img,", "cudaTextureObject_t img,")),
              "t.cu:9: the reference kplay_reference: parameter 1 ('cudaTextureObject_t img') is a value, but the kernel's ('cudaTextureObject_t "
              "tex') is kplay-texture tex over buffer img, and the reference gets that buffer: take a pointer to its elements.");
}

TEST(TexturePlan, EvaluatesExtentsInnermostFirstAndBindsTheBuffersAddress) {
    const Planned p = planned(kResize, "480x640");
    const LaunchPlan plan = make_plan(p.spec, p.values, p.buffers, {}, device(), &p.function);
    ASSERT_EQ(plan.textures.size(), 2u);
    const TexturePlan& tex = plan.textures[0];
    EXPECT_EQ(tex.argument, 0u);
    EXPECT_EQ(tex.buffer, 0);
    EXPECT_EQ(tex.type, ElementType::u8);
    EXPECT_EQ(tex.extent, (std::array<int64_t, 3>{640, 480, 1}));
    EXPECT_EQ(tex.layers, 0);
    EXPECT_EQ(tex.element_bytes(), 4u);
    EXPECT_EQ(tex.row_bytes(), 2560u);
    EXPECT_EQ(tex.text(), "480x640 u8x4, linear, clamp, normalized-float reads");
    EXPECT_EQ(plan.textures[1].text(), "960x1280 f32x4 surface");
    EXPECT_EQ(plan.textures[1].argument, 1u);
    const BoundArgument& bound = plan.arguments[0];
    EXPECT_EQ(bound.kind, "texture");
    EXPECT_EQ(bound.texture, 0);
    EXPECT_EQ(bound.size, 8u);
    EXPECT_EQ(bound.buffer, 0);
    EXPECT_EQ(bound.value, "img 480x640 u8x4, linear, clamp, normalized-float reads");
    EXPECT_EQ(plan.arguments[1].kind, "surface");
    // Until the device puts its handle there, the argument holds the buffer's address: the reference's.
    const std::vector<BoundArgument> addressed = with_addresses(plan.arguments, [](size_t index) { return 0x1000 * (index + 1); });
    uint64_t address = 0;
    std::memcpy(&address, addressed[1].storage, 8);
    EXPECT_EQ(address, 0x2000u);
}

TEST(TexturePlan, WhatTheBufferCannotHoldOrCudaCannotReadIsAnExactMessage) {
    Planned p = planned(kResize, "480x640");
    p.buffers[0].count -= 1;
    EXPECT_EQ(plan_error(p), "kplay-texture tex (line 4): 480x640 elements of 4 channels is 1228800 values, but buffer img holds 1228799");
    const auto refused = [](const std::string& from, const std::string& to) { return plan_error(planned(with(kResize, from, to), "480x640")); };
    EXPECT_EQ(refused("img u8[4*h*w]", "img f64[4*h*w]"),
              "kplay-texture tex (line 4): buffer img holds f64, and CUDA's textures and surfaces have no 64-bit formats: read it through a pointer "
              "(or declare it i32 with twice the length, read int2 and join the halves with __hiloint2double)");
    EXPECT_EQ(refused("img u8[4*h*w]", "img bf16[4*h*w]"),
              "kplay-texture tex (line 4): buffer img holds bf16; CUDA's textures and surfaces read u8, i8, i32, u32, f16 and f32 elements: read "
              "it through a pointer");
    EXPECT_EQ(refused("img u8[4*h*w]", "img f32[4*h*w]"),
              "kplay-texture tex (line 4): read=normalized-float maps 8-bit integers to [0,1] (u8) or [-1,1] (i8), but buffer img holds f32, "
              "which reads as float already: leave read= out");
    EXPECT_EQ(refused(" read=normalized-float", ""),
              "kplay-texture tex (line 4): filter=linear: CUDA filters only what a texture returns as float, and buffer img holds u8 read as "
              "elements: add read=normalized-float");
    EXPECT_EQ(refused("img u8[4*h*w]", "img i32[4*h*w]"),
              "kplay-texture tex (line 4): read=normalized-float maps 8-bit integers to [0,1] (u8) or [-1,1] (i8), but buffer img holds i32, "
              "and CUDA never promotes 32-bit integers: leave read= out");
    EXPECT_EQ(refused("shape=h, w", "shape=h-h, w"), "kplay-texture tex (line 4): shape extent 'h-h' is 0; it must be 1 to 2^31");
}

TEST(TexturePlan, AnArgumentThatIsNotAnObjectSaysHowToDeclareIt) {
    Planned p = planned(kResize, "480x640");
    p.function.params[0].size = 4;
    EXPECT_EQ(plan_error(p), "argument 1 (tex) of resize is 4 bytes, but 'tex' is a texture object (8 bytes): declare it `cudaTextureObject_t tex`.");
    Planned pointer = planned(with(kResize, "cudaSurfaceObject_t out_surf", "float* out_surf"), "480x640");
    EXPECT_EQ(plan_error(pointer),
              "argument 2 (out_surf) of resize is a pointer ('float*'), but 'out_surf' is a surface object, passed by value: declare it "
              "`cudaSurfaceObject_t out_surf`.");
}
