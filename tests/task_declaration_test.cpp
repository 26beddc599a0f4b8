// Tasks declared in the kernel file: what each line means, what is filled in by default, and the exact
// message for each mistake (with its line), including a missing or mismatched host reference.
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/task_declaration.hpp"

using namespace kplay;

namespace {

const char* const kVectorAdd =
    "// kplay-sizes: n default=4096 cpu=1000 test=1,1000,1025 bench=67108864\n"
    "// kplay-buffer: a f32[n] in init=uniform(-1, 1)\n"
    "// kplay-buffer: b f32[n] in init=normal(0,2) seed=7\n"
    "// kplay-buffer: c f32[n] out check=exact\n"
    "// kplay-cost: bytes=12*n ceiling=copy\n"
    "__global__ void vector_add(const float* a, const float* b, float* c, int n) {}\n"
    "#ifdef KPLAY_REFERENCE\n"
    "void kplay_reference(const float* a, const float* b, float* c, int n) {}\n"
    "#endif\n";

std::string declaration_error(const std::string& source, const std::string& path = "tasks/mine.cu") {
    try {
        parse_task_declaration(source, path);
    } catch (const InputError& error) {
        return error.what();
    }
    return "(no error)";
}

std::string spec_error(const std::string& source, const std::string& path = "tasks/mine.cu") {
    try {
        resolve_kernel_spec(source, path);
    } catch (const InputError& error) {
        return error.what();
    }
    return "(no error)";
}

std::string with_reference(const std::string& declaration, const std::string& kernel, const std::string& reference) {
    return declaration + kernel + "\n#ifdef KPLAY_REFERENCE\n" + reference + "\n#endif\n";
}

const char* const kSum =
    "// kplay-sizes: n default=1024\n"
    "// kplay-buffer: x f32[n] in\n"
    "// kplay-buffer: total f32[1] out init=zero check=rel:1e-6*sqrt(n)\n";

}  // namespace

TEST(TaskDeclaration, AFileWithoutTaskLinesDeclaresNone) {
    EXPECT_FALSE(parse_task_declaration("// kplay: task=matmul\n__global__ void k() {}\n", "x.cu").has_value());
}

TEST(TaskDeclaration, ReadsSizesBuffersCostAndDefaults) {
    std::vector<std::string> notes;
    const auto task = parse_task_declaration(kVectorAdd, "kernels/vector_add.cu", &notes);
    ASSERT_TRUE(task.has_value());
    EXPECT_EQ(task->name, "vector_add");  // the file's stem
    EXPECT_FALSE(task->builtin);
    EXPECT_EQ(task->declaration_line, 1);
    EXPECT_EQ(task->sizes.names, std::vector<std::string>{"n"});
    EXPECT_EQ(task->sizes.gpu_default, std::vector<int64_t>{4096});
    EXPECT_EQ(task->sizes.cpu_default, std::vector<int64_t>{1000});
    EXPECT_EQ(task->sizes.test, (std::vector<std::vector<int64_t>>{{1}, {1000}, {1025}}));
    EXPECT_EQ(task->sizes.gpu_bench, (std::vector<std::vector<int64_t>>{{67108864}}));
    EXPECT_EQ(task->sizes.cpu_bench, (std::vector<std::vector<int64_t>>{{1000}}));  // the CPU default when not given
    ASSERT_EQ(task->buffers.size(), 3u);
    const BufferSpec& a = task->buffers[0];
    EXPECT_EQ(a.type, ElementType::f32);
    EXPECT_EQ(a.length, "n");
    EXPECT_EQ(a.role, BufferRole::in);
    EXPECT_EQ(a.init.kind, InitKind::uniform);
    EXPECT_EQ(a.init.params, (std::vector<std::string>{"-1", "1"}));
    EXPECT_EQ(a.line, 2);
    EXPECT_EQ(task->buffers[1].seed.value_or(0), 7u);
    EXPECT_EQ(task->buffers[2].check.kind, CheckKind::exact);
    EXPECT_EQ(task->cost.bytes, "12*n");
    EXPECT_EQ(task->cost.ceiling, CeilingKind::copy);
    EXPECT_EQ(task->reference.kind, ReferenceKind::host);
    EXPECT_EQ(task->reference.function, "kplay_reference");
    EXPECT_EQ(task->presentation.output, OutputKind::series);
    EXPECT_EQ(task->presentation.rate, RateUnit::bytes);
    EXPECT_TRUE(notes.empty());
}

// A file saved with CRLF line endings declares what the same file with LF does (its declaration lines
// were silently ignored: the CR before each newline made them no declaration).
TEST(TaskDeclaration, CrlfLineEndingsReadAsLf) {
    std::string crlf;
    for (const char c : std::string(kVectorAdd)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const auto task = parse_task_declaration(crlf, "kernels/vector_add.cu");
    ASSERT_TRUE(task.has_value());
    EXPECT_EQ(task->sizes.gpu_default, std::vector<int64_t>{4096});
    ASSERT_EQ(task->buffers.size(), 3u);
    EXPECT_EQ(task->buffers[2].name, "c");
}

TEST(TaskDeclaration, DefaultsForChecksCostAndViews) {
    std::vector<std::string> notes;
    const auto task = parse_task_declaration(
        "// kplay-sizes: R,C default=64x32\n"
        "// kplay-buffer: x f32[R*C] in\n"
        "// kplay-buffer: y f32[R*C] out shape=R,C\n"
        "// kplay-buffer: counts u32[C] out\n",
        "02_rows.cu", &notes);
    ASSERT_TRUE(task.has_value());
    EXPECT_EQ(task->buffers[1].check.text, "rel:1e-5,abs:1e-6");  // floats: a relative tolerance
    EXPECT_EQ(task->buffers[2].check.kind, CheckKind::exact);     // integers: exact
    EXPECT_EQ(task->cost.bytes, "4*(R*C)+4*(R*C)+4*(C)");         // every buffer moved once
    EXPECT_EQ(task->presentation.output, OutputKind::matrix);     // the primary output has a 2D shape
    EXPECT_EQ(notes.size(), 4u);  // x's init, y's check, counts' check, the cost
    const auto scalar = parse_task_declaration(kSum, "sum.cu");
    ASSERT_TRUE(scalar.has_value());
    EXPECT_EQ(scalar->presentation.output, OutputKind::scalar);
    EXPECT_TRUE(scalar->buffers[1].prefill);
    EXPECT_EQ(scalar->buffers[1].init.kind, InitKind::constant);
    EXPECT_EQ(scalar->buffers[1].check.rel, "1e-6*sqrt(n)");
}

TEST(TaskDeclaration, TheTaskLineNamesAReferenceAViewAndAnExtent) {
    const auto task = parse_task_declaration(
        "// kplay-task: name=softmax reference=naive.cu:softmax_naive view=matrix rate=flops extent=R coverage=per-thread\n"
        "// kplay-sizes: R,C default=8x4\n// kplay-buffer: x f32[R*C] in\n// kplay-buffer: y f32[R*C] out\n",
        "any/03_step.cu");
    ASSERT_TRUE(task.has_value());
    EXPECT_EQ(task->name, "softmax");
    EXPECT_EQ(task->reference.kind, ReferenceKind::kernel);
    EXPECT_EQ(task->reference.file, "naive.cu");
    EXPECT_EQ(task->reference.kernel, "softmax_naive");
    EXPECT_EQ(task->presentation.output, OutputKind::matrix);
    EXPECT_EQ(task->presentation.rate, RateUnit::flops);
    EXPECT_EQ(task->presentation.coverage, CoverageKind::per_thread_work);
    EXPECT_EQ(task->extent_1d, "R");
    // Without a name, a numbered ladder step takes its folder's name.
    EXPECT_EQ(parse_task_declaration("// kplay-sizes: n default=4\n// kplay-buffer: y f32[n] out\n", "reduction/03_warp.cu")->name,
              "reduction");
}

TEST(TaskDeclaration, ExactMessagesForMistakes) {
    // An unknown element type.
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: x f8[n] in\n"),
              "mine.cu:2: kplay-buffer 'x': unknown element type 'f8' (known: u8, i8, i32, u32, i64, f16, bf16, fp8_e4m3, fp8_e5m2, f32, f64)");
    // A size expression with an unknown name.
    EXPECT_EQ(declaration_error("// kplay-sizes: R,C default=8x4\n// kplay-buffer: x f32[R*Q] in\n"),
              "mine.cu:2: kplay-buffer 'x': length 'R*Q': unknown name 'Q' (known: C, R) at position 3 in 'R*Q'");
    // A buffer without a role.
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: x f32[n] init=normal(0,1)\n"),
              "mine.cu:2: kplay-buffer 'x': has no role: write in, out, inout or scratch after its type, e.g. 'x f32[n] in'");
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: x f32 in\n"),
              "mine.cu:2: kplay-buffer 'x': write its element type and length as TYPE[LENGTH], e.g. f32[n]");
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: x f32[n] in colour=red\n"),
              "mine.cu:2: kplay-buffer 'x': unknown key 'colour' (keys: init, seed, shape, check, zeros)");
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: x f32[n] in init=gauss(0,1)\n"),
              "mine.cu:2: kplay-buffer 'x': unknown init 'gauss' (known: uniform, normal, randint, iota, constant, image)");
    EXPECT_NE(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: x f32[n] in init=constant(0)\n// kplay-buffer: y f32[n] out\n")
                  .find("would make the input all zeros"),
              std::string::npos);
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: y f32[n] out check=close\n"),
              "mine.cu:2: kplay-buffer 'y': check=close: a check is exact, none, abs:X, rel:X, rel:X,abs:Y or ulp:N");
    EXPECT_NE(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: y f32[n] out init=uniform\n").find("init=zero or init=constant(v)"),
              std::string::npos);
    EXPECT_EQ(declaration_error("// kplay-sizes: M,N default=8\n// kplay-buffer: y f32[M] out\n"),
              "mine.cu:1: kplay-sizes: default=8 gives 1 value, but the sizes are M, N: give one per size, like 64x64");
    EXPECT_EQ(declaration_error("// kplay-sizes: n test=1\n// kplay-buffer: y f32[n] out\n"),
              "mine.cu:1: kplay-sizes: kplay-sizes needs default=... (the sizes a run uses when none are given)");
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: x f32[n] in\n"),
              "mine.cu:1: the task has no checked output: give a buffer the role out or inout");
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffr: y f32[n] out\n"),
              "mine.cu:2: unknown line 'kplay-buffr:' (known: kplay-task, kplay-sizes, kplay-buffer, kplay-constant, kplay-cost, kplay-launch, "
              "kplay-tma, kplay-texture, kplay-surface, kplay-struct, kplay-sweep, kplay-torch)");
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: y f32[n] out\n// kplay-cost: ceiling=gpu\n"),
              "mine.cu:3: kplay-cost: unknown ceiling 'gpu' (known: copy, read-only, cublas, none)");
    EXPECT_NE(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: y f32[n] out\n// kplay-cost: ceiling=cublas\n")
                  .find("ceiling=cublas needs gemm=A,B,C,M,N,K"),
              std::string::npos);
    EXPECT_EQ(declaration_error("// kplay-sizes: w,h default=8x8\n// kplay-buffer: img i32[3*w*h] in init=image(planar)\n"
                                "// kplay-buffer: y f32[w*h] out\n"),
              "mine.cu:2: kplay-buffer 'img': an image fills a u8 buffer (its bytes) or a float one (f32, f16, bf16, f64: values 0..1, "
              "or 0..255 with init=image(planar,255)), not i32: make it u8, or f32 for float values");
}

TEST(TaskDeclaration, AMissingReferenceSaysWhatToWrite) {
    const std::string message = spec_error("// kplay-sizes: n default=8\n// kplay-buffer: y f32[n] out\n__global__ void k(float* y, int n) {}\n");
    EXPECT_EQ(message,
              "mine.cu: no reference for task mine: kplay checks the kernel against it. Add a host function `void kplay_reference(...)` "
              "taking the kernel's arguments, under `#ifdef KPLAY_REFERENCE` (NVRTC skips it), or name a trusted kernel with "
              "'// kplay-task: reference=FILE.cu:KERNEL'.");
    // Outside the guard NVRTC would compile it too.
    EXPECT_EQ(spec_error("// kplay-sizes: n default=8\n// kplay-buffer: y f32[n] out\n__global__ void k(float* y, int n) {}\n"
                         "void kplay_reference(float* y, int n) {}\n"),
              "mine.cu:4: kplay_reference is not under `#ifdef KPLAY_REFERENCE`, so NVRTC would compile it too; wrap it in #ifdef "
              "KPLAY_REFERENCE ... #endif.");
}

TEST(TaskDeclaration, AReferenceWhoseSignatureDiffersIsAnExactMessage) {
    const std::string declaration = "// kplay-sizes: n default=8\n// kplay-buffer: x f32[n] in\n// kplay-buffer: y f32[n] out\n";
    const std::string kernel = "__global__ void scale(const float* x, float* y, int n) {}";
    EXPECT_EQ(spec_error(with_reference(declaration, kernel, "void kplay_reference(const float* x, float* y) {}")),
              "mine.cu:6: the reference kplay_reference takes 2 parameters, but kernel scale takes 3 (x, y, n): the reference is called "
              "with the kernel's arguments, and may take the task's sizes after them (n).");
    EXPECT_EQ(spec_error(with_reference(declaration, kernel, "void kplay_reference(const float* x, float* y, int* n) {}")),
              "mine.cu:6: the reference kplay_reference: parameter 3 ('int* n') is a pointer, but the kernel's ('int n') is a value.");
    EXPECT_EQ(spec_error(with_reference(declaration, kernel, "void kplay_reference(const double* x, float* y, int n) {}")),
              "mine.cu:6: the reference kplay_reference: parameter 1 ('const double* x') has type 'double*', but the kernel's ('const "
              "float* x') has 'float*'.");
    // const and __restrict__ do not change how an argument is passed.
    EXPECT_EQ(spec_error(with_reference(declaration, "__global__ void scale(const float* __restrict__ x, float* y, int n) {}",
                                        "void kplay_reference(float* x, float* y, const int n) {}")),
              "(no error)");
}

TEST(TaskDeclaration, ArgumentsAreInferredFromParameterNames) {
    const KernelSpec spec = resolve_kernel_spec(kVectorAdd, "kernels/vector_add.cu");
    EXPECT_EQ(spec.task.name, "vector_add");
    EXPECT_EQ(spec.args, (std::vector<std::string>{"a", "b", "c", "n"}));
    EXPECT_EQ(spec.launch_dims, 1);
    EXPECT_EQ(spec.block, std::vector<std::string>{"256"});
    ASSERT_TRUE(spec.reference_function.has_value());
    EXPECT_EQ(spec.reference_function->line, 8);
    EXPECT_EQ(spec_error(with_reference("// kplay-sizes: n default=8\n// kplay-buffer: y f32[n] out\n",
                                        "__global__ void k(float* y, int count) {}", "void kplay_reference(float* y, int count) {}")),
              "mine.cu: cannot infer the arguments of k: its parameter 'count' is neither a buffer (y) nor a size (n). Name the "
              "parameters after them, add '// kplay: args=...', or, for a struct of buffers and sizes, '// kplay-struct: count FIELD=VALUE...'.");
}

TEST(TaskDeclaration, ABuiltInNameAndADeclarationDoNotMix) {
    EXPECT_NE(spec_error(std::string("// kplay: task=matmul\n") + kVectorAdd).find("declares its own task (line 2)"), std::string::npos);
    EXPECT_NE(spec_error("// kplay: task=reduction\n__global__ void k(float* x) {}\n").find("unknown task 'reduction' (built in: grayscale, "
                                                                                          "matmul). To declare your own"),
              std::string::npos);
}

TEST(TaskDeclaration, RequiresIsKept) {
    const KernelSpec spec = resolve_kernel_spec(std::string("// kplay: requires=n%4==0 && n>=4\n") + kVectorAdd, "vector_add.cu");
    EXPECT_EQ(spec.requirement, "n%4==0&&n>=4");  // an annotation value's tokens are joined
}

// The task library's extensions: scratch space, bars, interleaved images, launches after the first.
TEST(TaskDeclaration, ScratchBarsAndInterleavedImages) {
    const auto task = parse_task_declaration(
        "// kplay-task: view=bars\n"
        "// kplay-sizes: w,h default=64x32\n"
        "// kplay-buffer: img u8[3*w*h] in init=image(interleaved)\n"
        "// kplay-buffer: flags u32[cdiv(w*h,256)] scratch init=zero\n"
        "// kplay-buffer: sums f32[cdiv(w*h,256)] scratch\n"
        "// kplay-buffer: out u8[3*w*h] out shape=h,w,3\n",
        "tasks/t.cu");
    ASSERT_TRUE(task);
    EXPECT_EQ(task->presentation.output, OutputKind::bars);
    const BufferSpec* flags = task->find_buffer("flags");
    ASSERT_TRUE(flags);
    EXPECT_EQ(flags->role, BufferRole::scratch);
    EXPECT_FALSE(flags->is_input());
    EXPECT_FALSE(flags->is_output());
    EXPECT_TRUE(flags->prefill);
    EXPECT_EQ(flags->check.kind, CheckKind::none);
    EXPECT_FALSE(task->find_buffer("sums")->prefill);  // poisoned before each run of the launches
    EXPECT_EQ(task->primary_output()->name, "out");
    EXPECT_EQ(task->find_buffer("out")->shape, (std::vector<std::string>{"h", "w", "3"}));
    // Scratch is the kernels' own space, not the task's traffic: the default bytes leave it out.
    EXPECT_EQ(task->cost.bytes, "1*(3*w*h)+1*(3*w*h)");

    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: s f32[n] scratch check=exact\n// kplay-buffer: y f32[n] out\n"),
              "mine.cu:2: kplay-buffer 's': is scratch, so it has no check (only out and inout buffers are compared with the reference)");
    EXPECT_NE(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: s f32[n] scratch init=uniform\n// kplay-buffer: y f32[n] out\n")
                  .find("is a scratch buffer, so kplay fills it with poison"),
              std::string::npos);
    EXPECT_EQ(declaration_error("// kplay-sizes: h,w default=8x8\n// kplay-buffer: y u8[5*w*h] out shape=h,w,5\n"),
              "mine.cu:2: kplay-buffer 'y': shape=h,w,5: an image has 1 to 4 channels, not 5");
}

TEST(TaskDeclaration, LaunchesAfterTheFirstAreReadInOrder) {
    const std::string declaration =
        "// kplay: kernel=first block=128\n"
        "// kplay-sizes: n default=1000\n"
        "// kplay-buffer: x f32[n] in\n"
        "// kplay-buffer: part f32[cdiv(n,128)] scratch\n"
        "// kplay-buffer: y f32[1] out\n"
        "// kplay-launch: second grid=1 args=part,y,grid_x\n"
        "// kplay-launch: third\n";
    const std::string kernels =
        "__global__ void first(const float* x, float* part, float* y, int n) {}\n"
        "__global__ void second(const float* part, float* y, int count) {}\n"
        "__global__ void third(float* y, int n) {}\n";
    const KernelSpec spec = resolve_kernel_spec(
        with_reference(declaration, kernels, "void kplay_reference(const float* x, float* part, float* y, int n) {}"), "tasks/t.cu");
    ASSERT_EQ(spec.following.size(), 2u);
    EXPECT_EQ(spec.following[0].kernel, "second");
    EXPECT_EQ(spec.following[0].grid, (std::vector<std::string>{"1"}));
    EXPECT_EQ(spec.following[0].args, (std::vector<std::string>{"part", "y", "grid_x"}));
    EXPECT_EQ(spec.following[0].block, (std::vector<std::string>{"128"}));  // the first launch's, by default
    EXPECT_EQ(spec.following[0].line, 6);
    EXPECT_EQ(spec.following[1].args, (std::vector<std::string>{"y", "n"}));  // by parameter name
    EXPECT_TRUE(spec.following[1].grid.empty());                             // auto
    EXPECT_EQ(spec.kernel_expressions(), (std::vector<std::string>{"first", "second", "third"}));

    const auto error_with = [&](const std::string& line) {
        return spec_error(with_reference(declaration + line, kernels, "void kplay_reference(const float* x, float* part, float* y, int n) {}"));
    };
    EXPECT_EQ(error_with("// kplay-launch: fourth\n"),
              "mine.cu:8: kplay-launch: no kernel named 'fourth'. The file has: first (line 9), second (line 10), third (line 11).");
    EXPECT_EQ(error_with("// kplay-launch: grid=1\n"),
              "mine.cu:8: kplay-launch: name the kernel first, e.g. '// kplay-launch: add_block_sums grid=cdiv(n,1024)'");
    EXPECT_EQ(error_with("// kplay-launch: third colour=red\n"),
              "mine.cu:8: kplay-launch: expected key=value, got 'colour=red' (keys: block, grid, smem, args)");
}

// Found by tests/fuzz (fuzz_spec): a long kplay-*, #ifdef or #include line overflowed the stack inside
// std::regex. They read as before.
TEST(TaskDeclaration, LongLinesAreReadAsShortOnes) {
    const std::string pad(200000, ' ');
    std::string source = kVectorAdd;
    source.replace(source.find("ceiling=copy\n"), 13, "ceiling=copy" + pad + "\n");
    source.replace(source.find("#ifdef KPLAY_REFERENCE\n"), 23, "#ifdef KPLAY_REFERENCE" + pad + "\n");
    const auto task = parse_task_declaration(source, "kernels/vector_add.cu");
    ASSERT_TRUE(task.has_value());
    EXPECT_EQ(task->buffers.size(), 3u);
    EXPECT_EQ(spec_error(source), "(no error)");
    std::string include = source;
    include.insert(include.find("void kplay_reference"), "#include \"missing.h\"  // " + std::string(200000, 'x') + "\n");
    EXPECT_NE(spec_error(include).find("the reference includes \"missing.h\""), std::string::npos) << spec_error(include).substr(0, 300);
    const std::string launch = with_reference(std::string(kSum) + "// kplay-launch: finish" + pad + "\n",
                                              "__global__ void sum(const float* x, float* total, int n) {}\n"
                                              "__global__ void finish(float* total) {}",
                                              "void kplay_reference(const float* x, float* total, int n) {}");
    const std::string annotated = "// kplay: kernel=sum\n" + launch;
    const KernelSpec spec = resolve_kernel_spec(annotated, "tasks/mine.cu");
    ASSERT_EQ(spec.following.size(), 1u);
    EXPECT_EQ(spec.following[0].kernel, "finish");
}

// Found by tests/fuzz (fuzz_spec): the location of a mismatched reference after a `#line` past INT_MAX
// threw std::out_of_range, and one after `#line 2147483647` overflowed. Such a directive is ignored; a
// valid one still maps the location.
TEST(TaskDeclaration, LineDirectivesPastIntMaxAreIgnored) {
    const std::string declaration = "// kplay-sizes: n default=8\n// kplay-buffer: x f32[n] in\n// kplay-buffer: y f32[n] out\n";
    const std::string kernel = "__global__ void scale(const float* x, float* y, int n) {}";
    const std::string wrong = "void kplay_reference(const float* x, float* y) {}";
    EXPECT_EQ(spec_error(with_reference(declaration, kernel, "#line 99999999999 \"x.h\"\n" + wrong)).substr(0, 9), "mine.cu:7");
    EXPECT_EQ(spec_error(with_reference(declaration, kernel, "#line 2147483647 \"x.h\"\n\n" + wrong)).substr(0, 15), "x.h:2147483648:");
    EXPECT_EQ(spec_error(with_reference(declaration, kernel, "#line 40 \"x.h\"\n" + wrong)).substr(0, 7), "x.h:40:");
}

TEST(TaskDeclaration, NonFiniteInitsAndAZeroInoutAccumulator) {
    const std::string head = "// kplay-sizes: n default=4096 test=1\n// kplay-buffer: y f32[n] out\n";
    const auto task = parse_task_declaration(head +
                                                 "// kplay-buffer: running_max f32[n] inout init=-inf\n"
                                                 "// kplay-buffer: partial f32[n] scratch init=constant(inf)\n"
                                                 "// kplay-buffer: counts i32[n] inout init=zero\n",
                                             "t.cu");
    ASSERT_TRUE(task);
    const BufferSpec* running = task->find_buffer("running_max");
    ASSERT_TRUE(running);
    EXPECT_EQ(running->init.kind, InitKind::constant);
    EXPECT_EQ(running->init.params, std::vector<std::string>{"-inf"});
    EXPECT_EQ(task->find_buffer("partial")->init.params, std::vector<std::string>{"inf"});
    const BufferSpec* counts = task->find_buffer("counts");
    EXPECT_TRUE(counts->prefill);  // zero, filled as given instead of refused as an all-zero input
    EXPECT_EQ(counts->init.text, "zero");
    EXPECT_NE(declaration_error(head + "// kplay-buffer: m i32[n] inout init=-inf\n").find("only a floating-point buffer holds inf or nan, and this one is i32"),
              std::string::npos);
    EXPECT_NE(declaration_error(head + "// kplay-buffer: m f32[n] in init=constant(0)\n").find("all zeros"), std::string::npos);
}

TEST(TaskDeclaration, AConstantArrayIsAnInputTheFileMustDeclare) {
    const std::string head = "// kplay-sizes: n default=4096 test=1\n// kplay-buffer: y f32[n] out\n";
    const auto task = parse_task_declaration(head + "// kplay-constant: taps f32[9] init=normal(0,1) seed=3\n__constant__ float taps[9];\n", "t.cu");
    ASSERT_TRUE(task);
    const BufferSpec* taps = task->find_buffer("taps");
    ASSERT_TRUE(taps);
    EXPECT_TRUE(taps->constant);
    EXPECT_EQ(taps->role, BufferRole::in);
    EXPECT_EQ(taps->length, "9");
    EXPECT_EQ(declaration_error(head + "// kplay-constant: taps f32[9]\n// __constant__ float taps[9];\n"),
              "mine.cu:3: kplay-constant 'taps': the file declares no `__constant__` array named 'taps'; declare it at namespace scope, e.g. "
              "`__constant__ float taps[9];` (a fixed length that holds it)");
    EXPECT_NE(declaration_error(head + "// kplay-constant: taps\n").find("kplay-constant needs a name and TYPE[LENGTH]"), std::string::npos);
}

TEST(TaskDeclaration, NarrowTypesHaveTheirOwnDefaultTolerances) {
    const TaskSpec task = *parse_task_declaration("// kplay-sizes: n default=8\n// kplay-buffer: q fp8_e4m3[n] in\n"
                                                  "// kplay-buffer: a bf16[n] out\n// kplay-buffer: b fp8_e4m3[n] out\n"
                                                  "// kplay-buffer: c fp8_e5m2[n] out\n// kplay-buffer: d i8[n] out\n// kplay-buffer: e i64[n] out\n",
                                                  "tasks/mine.cu");
    ASSERT_EQ(task.buffers.size(), 6u);
    EXPECT_EQ(task.buffers[0].type, ElementType::fp8_e4m3);
    EXPECT_EQ(task.buffers[1].check.text, "rel:1e-2,abs:1e-2");
    EXPECT_EQ(task.buffers[2].check.text, "rel:0.125,abs:2e-3");
    EXPECT_EQ(task.buffers[3].check.text, "rel:0.25,abs:2e-5");
    EXPECT_EQ(task.buffers[4].check.kind, CheckKind::exact);
    EXPECT_EQ(task.buffers[5].check.kind, CheckKind::exact);
    EXPECT_EQ(element_size(ElementType::i64), 8u);
    EXPECT_EQ(element_size(ElementType::bf16), 2u);
    EXPECT_EQ(element_size(ElementType::fp8_e5m2), 1u);
}

TEST(TaskDeclaration, TestSizesOfTheCpuAndInputsThatMayBeZero) {
    const TaskSpec task = *parse_task_declaration("// kplay-sizes: N,V default=64x10 test=1x1,4096x50 test-cpu=1x1,33x50\n"
                                                  "// kplay-buffer: t i32[N] in init=randint(0,V-1) zeros=ok\n"
                                                  "// kplay-buffer: z f32[N] in init=constant(0) zeros=ok\n// kplay-buffer: y f32[N] out\n",
                                                  "tasks/mine.cu");
    EXPECT_EQ(task.sizes.test, (std::vector<std::vector<int64_t>>{{1, 1}, {4096, 50}}));
    EXPECT_EQ(task.sizes.cpu_test, (std::vector<std::vector<int64_t>>{{1, 1}, {33, 50}}));
    EXPECT_TRUE(task.buffers[0].zeros_allowed);
    EXPECT_TRUE(task.buffers[1].zeros_allowed);
    EXPECT_FALSE(task.buffers[2].zeros_allowed);
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: x f32[n] in zeros=yes\n// kplay-buffer: y f32[n] out\n"),
              "mine.cu:2: kplay-buffer 'x': zeros=yes: write zeros=ok for an input that may be all zeros");
    EXPECT_EQ(declaration_error("// kplay-sizes: n default=8\n// kplay-buffer: y f32[n] out zeros=ok\n"),
              "mine.cu:2: kplay-buffer 'y': zeros=ok is for inputs: an output starts as poison, or from its init=");
}

TEST(TaskDeclaration, CublasCeilingsForF32F16AndBf16AndARefusalByNameElsewhere) {
    const std::string sizes = "// kplay-sizes: M,N,K default=64x64x64\n";
    auto gemm = [&](const char* in, const char* out) {
        return sizes + "// kplay-buffer: a " + in + "[M*K] in\n// kplay-buffer: b " + in + "[K*N] in\n// kplay-buffer: c " + out +
               "[M*N] out\n// kplay-cost: flops=2*M*N*K ceiling=cublas gemm=a,b,c,M,N,K\n";
    };
    const TaskSpec bf16 = *parse_task_declaration(gemm("bf16", "f32"), "tasks/mine.cu");
    EXPECT_EQ(bf16.gemm_types().input, ElementType::bf16);
    EXPECT_EQ(bf16.gemm_types().output, ElementType::f32);
    EXPECT_EQ(declaration_error(gemm("bf16", "bf16")), "(no error)");
    EXPECT_EQ(declaration_error(gemm("f16", "f16")), "(no error)");
    EXPECT_EQ(declaration_error(gemm("fp8_e4m3", "f32")),
              "mine.cu:5: kplay-cost: ceiling=cublas: kplay times cuBLAS's GEMM for f32, f16 and bf16 inputs, not fp8_e4m3 "
              "(fp8_e4m3 x fp8_e4m3 -> f32); give ceiling=copy, read-only or none");
    EXPECT_EQ(declaration_error(gemm("bf16", "f16")),
              "mine.cu:5: kplay-cost: ceiling=cublas: cuBLAS's GEMM takes A and B of one type and C of that type or f32, not bf16 x bf16 -> f16");
}

// Images as courses hand them: RGBA bytes (uchar4), and float pictures in 0..1 or 0..255.
TEST(TaskDeclaration, RgbaAndFloatImages) {
    const auto rgba = parse_task_declaration(
        "// kplay-sizes: w,h default=64x32\n"
        "// kplay-buffer: rgba u8[4*w*h] in init=image(rgba)\n"
        "// kplay-buffer: out u8[4*w*h] out shape=h,w,4\n",
        "tasks/t.cu");
    ASSERT_TRUE(rgba);
    EXPECT_EQ(rgba->find_buffer("rgba")->init.layout, ImageLayout::rgba);
    EXPECT_TRUE(rgba->find_buffer("rgba")->init.params.empty());
    EXPECT_EQ(rgba->presentation.output, OutputKind::image);
    EXPECT_EQ(rgba->image_white(*rgba->find_buffer("out")), 255);

    // A float image: 0..1 unless the init says 255; a float output beside it is an image in the same range.
    const std::string float_task = "// kplay-sizes: w,h default=64x32\n// kplay-buffer: img f32[3*w*h] in init=image(interleaved)\n"
                                   "// kplay-buffer: out f32[w*h] out shape=h,w\n";
    auto task = parse_task_declaration(float_task, "tasks/t.cu");
    ASSERT_TRUE(task);
    EXPECT_EQ(task->find_buffer("img")->init.layout, ImageLayout::interleaved);
    EXPECT_EQ(task->presentation.output, OutputKind::image);
    EXPECT_EQ(task->image_white(*task->find_buffer("out")), 1);
    EXPECT_EQ(image_white(task->find_buffer("img")->init, ElementType::f32), 1);
    std::string in_255 = float_task;
    in_255.replace(in_255.find("image(interleaved)"), 18, "image(interleaved,255)");
    task = parse_task_declaration(in_255, "tasks/t.cu");
    ASSERT_TRUE(task);
    EXPECT_EQ(task->find_buffer("img")->init.params, std::vector<std::string>{"255"});
    EXPECT_EQ(task->image_white(*task->find_buffer("out")), 255);
    task = parse_task_declaration("// kplay-sizes: w,h default=8x8\n// kplay-buffer: img f16[w*h] in init=image(gray,1)\n"
                                  "// kplay-buffer: out u8[w*h] out shape=h,w\n",
                                  "tasks/t.cu");
    ASSERT_TRUE(task);
    EXPECT_EQ(task->presentation.output, OutputKind::image);
    EXPECT_EQ(task->image_white(*task->find_buffer("out")), 255);  // bytes are bytes, whatever the input

    // Beside a u8 image a float output is an image when it has channels, else a matrix (as before).
    const std::string u8_input = "// kplay-sizes: w,h default=8x8\n// kplay-buffer: img u8[3*w*h] in init=image(interleaved)\n";
    task = parse_task_declaration(u8_input + "// kplay-buffer: out f32[3*w*h] out shape=h,w,3\n", "tasks/t.cu");
    ASSERT_TRUE(task);
    EXPECT_EQ(task->presentation.output, OutputKind::image);
    EXPECT_EQ(task->image_white(*task->find_buffer("out")), 255);
    task = parse_task_declaration(u8_input + "// kplay-buffer: out f32[w*h] out shape=h,w\n", "tasks/t.cu");
    ASSERT_TRUE(task);
    EXPECT_EQ(task->presentation.output, OutputKind::matrix);

    const std::string out = "// kplay-buffer: y u8[w*h] out\n";
    EXPECT_EQ(declaration_error("// kplay-sizes: w,h default=8x8\n// kplay-buffer: img u8[3*w*h] in init=image(interleaved,255)\n" + out),
              "mine.cu:2: kplay-buffer 'img': init=image(interleaved,255): a u8 image holds the bytes 0..255 as they are; the range after "
              "the layout is for a float buffer (f32, f16, bf16, f64): write init=image(interleaved)");
    EXPECT_EQ(declaration_error("// kplay-sizes: w,h default=8x8\n// kplay-buffer: img f32[3*w*h] in init=image(rgba,100)\n" + out),
              "mine.cu:2: kplay-buffer 'img': init=image(rgba,100): an image's values range over 0..1 or 0..255: write image(rgba,1) or "
              "image(rgba,255), not '100'");
    EXPECT_EQ(declaration_error("// kplay-sizes: w,h default=8x8\n// kplay-buffer: img u8[3*w*h] in init=image(bgr)\n" + out),
              "mine.cu:2: kplay-buffer 'img': init=image(bgr): an image is image(planar), image(interleaved), image(rgba) or image(gray), "
              "with a float buffer's range after it: image(interleaved,255) for values 0..255 (0..1 without)");

    // --init takes the same rules.
    task = parse_task_declaration(float_task, "tasks/t.cu");
    ASSERT_TRUE(task);
    override_input_init(*task, "img", "image(rgba,255)");
    EXPECT_EQ(task->find_buffer("img")->init.layout, ImageLayout::rgba);
    EXPECT_EQ(task->image_white(*task->find_buffer("out")), 255);
    try {
        task = parse_task_declaration("// kplay-sizes: w,h default=8x8\n// kplay-buffer: img i8[w*h] in\n" + out, "tasks/t.cu");
        override_input_init(*task, "img", "image(gray)");
        ADD_FAILURE() << "an i8 image was taken";
    } catch (const InputError& error) {
        EXPECT_EQ(std::string(error.what()), "--init img=image(gray): an image fills a u8 buffer (its bytes) or a float one (f32, f16, bf16, "
                                             "f64: values 0..1, or 0..255 with init=image(gray,255)), not i8: make it u8, or f32 for float values");
    }
}
