// runtime/export: kplay expressions as Python, and the PyTorch snippet of each kind of task. Without a
// GPU or PyTorch: the snippet is valid Python (py_compile), names the buffers in order with their
// dtypes and lengths, carries the launch settings, and its launch_settings() -- run by python3 against
// a stand-in torch module that only reports an SM count -- gives the launch kplay's plan gives at the
// task's default size.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/text.hpp"
#include "export/python_expression.hpp"
#include "export/standalone_source.hpp"
#include "export/torch_export.hpp"
#include "kernel_file/source_scan.hpp"
#include "kernel_file/task_sizes.hpp"
#include "test_support.hpp"

namespace {

using kplay::LaunchSettings;
using kplay::PythonArithmetic;

bool have_python() { return kplay::test::run_shell("python3 -c pass").first == 0; }

struct Exported {
    kplay::KernelSpec spec;
    std::string python;
};

Exported export_file(const std::string& relative, const LaunchSettings& settings = {},
                     const std::vector<std::pair<std::string, std::string>>& defines = {}) {
    const auto path = kplay::test::kernels_dir() / relative;
    const std::string source = kplay::read_source_file(path);
    Exported result{kplay::resolve_kernel_spec(source, path), ""};
    result.python = kplay::torch_snippet(kplay::prepare_torch_export(path, source, result.spec, settings, defines));
    return result;
}

// kplay's own plan at the task's default size on a device with 132 SMs.
kplay::LaunchPlan plan_at_default(const kplay::KernelSpec& spec, const LaunchSettings& settings) {
    const kplay::NamedValues values = kplay::size_values(spec.task, spec.task.sizes.gpu_default);
    std::vector<kplay::PlanBuffer> buffers;
    for (const auto& buffer : spec.task.buffers) {
        kplay::PlanBuffer planned{buffer.name, buffer.type, kplay::evaluate_int_expr(buffer.length, values), {}, buffer.is_output()};
        for (const auto& side : buffer.shape) planned.shape.push_back(kplay::evaluate_int_expr(side, values));
        if (planned.shape.empty()) planned.shape = {planned.count};
        buffers.push_back(planned);
    }
    kplay::DeviceInfo device;
    device.sm_count = 132;
    device.limits.max_smem_per_block_optin = 227 * 1024;
    return kplay::make_plan(spec, values, buffers, settings, device, nullptr);
}

// launch_settings() of the snippet at the default size, run by python3 with a stand-in torch module.
nlohmann::json python_launches(const Exported& exported) {
    kplay::test::TempDir dir;
    dir.write("torch/__init__.py",
              "class _Properties:\n    multi_processor_count = 132\n\n\n"
              "class cuda:\n    @staticmethod\n    def current_device():\n        return 0\n\n"
              "    @staticmethod\n    def get_device_properties(device):\n        return _Properties()\n");
    const auto snippet = dir.write("snippet.py", exported.python);
    std::string sizes;
    const auto& task = exported.spec.task;
    for (size_t i = 0; i < task.sizes.names.size(); ++i)
        sizes += (i ? ", " : "") + kplay::python_name(task.sizes.names[i]) + "=" + std::to_string(task.sizes.gpu_default[i]);
    const auto script = dir.write("launches.py",
                                  "import importlib.util, json, sys\n"
                                  "spec = importlib.util.spec_from_file_location('snippet', sys.argv[1])\n"
                                  "module = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(module)\n"
                                  "print(json.dumps(module.launch_settings(" + sizes + ")))\n");
    const auto [code, output] = kplay::test::run_shell("cd " + dir.path().string() + " && PYTHONPATH=" + dir.path().string() + " python3 " +
                                      script.string() + " " + snippet.string());
    EXPECT_EQ(code, 0) << output;
    return code == 0 ? nlohmann::json::parse(output) : nlohmann::json::array();
}

void expect_valid_python(const std::string& python) {
    kplay::test::TempDir dir;
    const auto file = dir.write("snippet.py", python);
    const auto [code, output] = kplay::test::run_shell("python3 -m py_compile " + file.string());
    EXPECT_EQ(code, 0) << output << "\n" << python;
}

// The snippet's first launch is kplay's plan at the default size: grid, block, shared memory.
void expect_plan_matches(const Exported& exported, const LaunchSettings& settings = {},
                         const std::vector<std::pair<std::string, std::string>>& defines = {}) {
    kplay::KernelSpec spec = exported.spec;
    spec.defines = kplay::merge_defines(spec.defines, defines);  // as a run merges the window's -D
    const kplay::LaunchPlan plan = plan_at_default(spec, settings);
    const nlohmann::json launches = python_launches(exported);
    ASSERT_FALSE(launches.empty());
    const auto& first = launches[0];
    const auto& l = plan.launch;
    EXPECT_EQ(first[0], nlohmann::json({l.grid.x, l.grid.y, l.grid.z})) << exported.python;
    EXPECT_EQ(first[1], nlohmann::json({l.block.x, l.block.y, l.block.z}));
    EXPECT_EQ(first[2], l.dynamic_smem);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(PythonExpression, WritesKplayArithmeticAsPython) {
    EXPECT_EQ(kplay::python_expression("cdiv(n,256)", PythonArithmetic::integer), "cdiv(n, 256)");
    EXPECT_EQ(kplay::python_expression("(TILE_M/THREAD_M)*(TILE_N/THREAD_N)", PythonArithmetic::integer),
              "(TILE_M // THREAD_M) * (TILE_N // THREAD_N)");
    EXPECT_EQ(kplay::python_expression("2*tw*tw*4", PythonArithmetic::integer), "((2 * tw) * tw) * 4");
    EXPECT_EQ(kplay::python_expression("256*(C<=1024)", PythonArithmetic::integer), "256 * (int(C <= 1024))");
    EXPECT_EQ(kplay::python_expression("n%4==0 && n>=256", PythonArithmetic::integer),
              "int(bool(int((n % 4) == 0)) and bool(int(n >= 256)))");
    EXPECT_EQ(kplay::python_expression("!a || b!=2", PythonArithmetic::integer), "int(bool(int(not a)) or bool(int(b != 2)))");
    EXPECT_EQ(kplay::python_expression("1e-6*sqrt(n)", PythonArithmetic::real), "1e-6 * math.sqrt(n)");
    EXPECT_EQ(kplay::python_expression("x/2", PythonArithmetic::real), "x / 2");
    EXPECT_EQ(kplay::python_expression("-in+max(a,b)", PythonArithmetic::integer), "(-in_) + max(a, b)");
}

TEST(PythonExpression, NamesWhatItCannotRead) {
    EXPECT_THROW(kplay::python_expression("cdiv(n,", PythonArithmetic::integer), kplay::InputError);
    EXPECT_THROW(kplay::python_expression("sqrt(n)", PythonArithmetic::integer), kplay::InputError);
    const std::string message = kplay::test::input_error_of([] { kplay::python_expression("n $ 2", PythonArithmetic::integer); });
    EXPECT_TRUE(contains(message, "unexpected '$' at position 3 in 'n $ 2'")) << message;
}

TEST(TorchExport, GrayscaleSeedNamesItsBuffersAndLaunch) {
    if (!have_python()) GTEST_SKIP() << "python3 is not installed";
    const Exported exported = export_file("grayscale/01_seed_1d.cu");
    const std::string& py = exported.python;
    expect_valid_python(py);
    // Buffers in order, with dtypes and lengths; `in` is a Python keyword.
    const size_t in = py.find("#   in_: torch.uint8[3*n] in");
    const size_t out = py.find("#   out: torch.uint8[n] out");
    ASSERT_NE(in, std::string::npos) << py;
    ASSERT_NE(out, std::string::npos) << py;
    EXPECT_LT(in, out);
    EXPECT_TRUE(contains(py, "def rgb_to_grayscale_kernel(in_, out, *, w, h):")) << py;
    EXPECT_TRUE(contains(py, "_kplay_check_tensor(\"in_\", in_, torch.uint8, 3 * n)")) << py;
    EXPECT_TRUE(contains(py, "_kplay_check_tensor(\"out\", out, torch.uint8, n, in_.device)")) << py;
    EXPECT_TRUE(contains(py, "#   rgb_to_grayscale_kernel: block 256, grid auto over n, dynamic shared memory 0 bytes")) << py;
    EXPECT_TRUE(contains(py, "KERNEL_NAMES = [r'''rgb_to_grayscale_kernel''']")) << py;
    EXPECT_TRUE(contains(py, "out[i] = 0.2989*x[i] + 0.5870*x[i+n] + 0.1140*x[i+2*n];")) << "the kernel's source, verbatim";
    EXPECT_TRUE(contains(py, "expected_out = (0.2989 * in_[:n].double()")) << py;
    EXPECT_TRUE(contains(py, "atol_out = 1\n")) << py;  // check=abs:1
    EXPECT_TRUE(contains(py, "COMPILE_KERNEL_FITS = True")) << py;
    EXPECT_TRUE(contains(py, "hasattr(torch.cuda, \"_compile_kernel\")")) << py;
    EXPECT_TRUE(contains(py, "load_inline(")) << py;
    EXPECT_TRUE(contains(py, "    w = 1280\n    h = 800\n")) << "the check runs at the task's default size";
    expect_plan_matches(exported);
}

TEST(TorchExport, GrayscaleFollowsTheSettingsItIsGiven) {
    if (!have_python()) GTEST_SKIP() << "python3 is not installed";
    LaunchSettings settings;
    settings.block = std::vector<int64_t>{96};
    const Exported exported = export_file("grayscale/01_seed_1d.cu", settings);
    EXPECT_TRUE(contains(exported.python, "block = (96, 1, 1)")) << exported.python;
    expect_plan_matches(exported, settings);
    settings.grid = std::vector<int64_t>{7, 2};
    const Exported by_hand = export_file("grayscale/01_seed_1d.cu", settings);
    EXPECT_TRUE(contains(by_hand.python, "grid = (7, 2, 1)")) << by_hand.python;
    expect_plan_matches(by_hand, settings);
}

TEST(TorchExport, MatmulCarriesItsLiteralSharedMemoryAndBound) {
    if (!have_python()) GTEST_SKIP() << "python3 is not installed";
    LaunchSettings settings;
    settings.arg_overrides["tw"] = "32";
    const Exported exported = export_file("matmul/02_tiled_dynamic_smem.cu", settings);
    const std::string& py = exported.python;
    expect_valid_python(py);
    EXPECT_TRUE(contains(py, "tw = 32  # literal argument")) << py;
    EXPECT_TRUE(contains(py, "smem = ((2 * tw) * tw) * 4")) << py;
    EXPECT_TRUE(contains(py, "# literal arguments: tw=16, tw=32 (set)")) << py;
    EXPECT_TRUE(contains(py, "def matmul_k(a, b, c, *, M, N, K):")) << py;
    EXPECT_TRUE(contains(py, "expected_c = a.view(M, K).double() @ b.view(K, N).double()")) << py;
    EXPECT_TRUE(contains(py, "atol_c = 2 * 2.0**-24 * math.sqrt(K)")) << py;
    EXPECT_TRUE(contains(py, "// ---- kplay.cuh (inlined from kplay.cuh) ----")) << "kplay's header travels with the kernel";
    EXPECT_FALSE(contains(py, "#include \"kplay.cuh\""));
    expect_plan_matches(exported, settings);
}

TEST(TorchExport, MatmulTemplateWithDefines) {
    if (!have_python()) GTEST_SKIP() << "python3 is not installed";
    const Exported exported = export_file("matmul/04_2d_register_blocking.cu", {}, {{"THREAD_M", "4"}});
    const std::string& py = exported.python;
    expect_valid_python(py);
    EXPECT_TRUE(contains(py, "'-DTHREAD_M=4'")) << py;
    EXPECT_TRUE(contains(py, "THREAD_M = 4  # -DTHREAD_M")) << py;
    EXPECT_TRUE(contains(py, "KERNEL_NAMES = [r'''sgemm_2d<TILE_M,TILE_N,TILE_K,THREAD_M,THREAD_N>''']")) << py;
    EXPECT_TRUE(contains(py, "sgemm_2d<TILE_M,TILE_N,TILE_K,THREAD_M,THREAD_N><<<dim3(grid_x, grid_y, grid_z)")) << py;
    expect_plan_matches(exported, {}, {{"THREAD_M", "4"}});
}

TEST(TorchExport, ReductionGridStrideRequiresAndAccumulator) {
    if (!have_python()) GTEST_SKIP() << "python3 is not installed";
    const Exported exported = export_file("reduction/06_float4.cu");
    const std::string& py = exported.python;
    expect_valid_python(py);
    EXPECT_TRUE(contains(py, "grid = (sms * 8, 1, 1)")) << py;
    EXPECT_TRUE(contains(py, "if not (int(block_x == 256)):")) << py;
    EXPECT_TRUE(contains(py, "total.fill_(0)  # the kernel accumulates into it (zero)")) << py;
    EXPECT_TRUE(contains(py, "expected_total = x.double().sum()")) << py;
    EXPECT_TRUE(contains(py, "// ---- block_sum.cuh (inlined from block_sum.cuh) ----")) << py;
    EXPECT_FALSE(contains(py, "kplay_reference(")) << "the host reference stays out";
    expect_plan_matches(exported);
}

TEST(TorchExport, SoftmaxBlockRuleAndExpectation) {
    if (!have_python()) GTEST_SKIP() << "python3 is not installed";
    for (const char* file : {"softmax/03_online_warp_per_row.cu", "softmax/04_float4_row_in_registers.cu"}) {
        SCOPED_TRACE(file);
        const Exported exported = export_file(file);
        expect_valid_python(exported.python);
        EXPECT_TRUE(contains(exported.python, "expected_y = torch.softmax(x.view(R, C).double(), dim=1)")) << exported.python;
        EXPECT_TRUE(contains(exported.python, "atol_y = 9.9999999999999995e-08")) << exported.python;
        EXPECT_TRUE(contains(exported.python, "_kplay_compare(\"y\", y, expected_y, atol_y, 1.0000000000000001e-05")) << exported.python;
        expect_plan_matches(exported);
    }
}

TEST(TorchExport, MultiLaunchScanWithScratch) {
    if (!have_python()) GTEST_SKIP() << "python3 is not installed";
    const Exported exported = export_file("scan/03_hierarchical_three_kernels.cu");
    const std::string& py = exported.python;
    expect_valid_python(py);
    const nlohmann::json launches = python_launches(exported);
    EXPECT_EQ(launches.size(), 1 + exported.spec.following.size());
    EXPECT_TRUE(contains(py, "kplay_launch_2")) << py;
    EXPECT_TRUE(contains(py, "# scratch")) << py;
    EXPECT_TRUE(contains(py, "expected_y = torch.cumsum(x.double(), 0)")) << py;
    EXPECT_TRUE(contains(py, "launch(2, *launches[2][:3], [y, work, launches[2][3][0]])")) << py;
    expect_plan_matches(exported);
}

TEST(TorchExport, AnOutputWithoutAnExpressionIsRunAndSaidSo) {
    if (!have_python()) GTEST_SKIP() << "python3 is not installed";
    const Exported exported = export_file("blur/01_naive_global.cu");
    expect_valid_python(exported.python);
    EXPECT_TRUE(contains(exported.python, "failures += _kplay_written(\"out\", out)")) << exported.python;
    EXPECT_TRUE(contains(exported.python, "add '// kplay-torch: {name} = ...' to the file")) << exported.python;
    expect_plan_matches(exported);
}

TEST(TorchExport, RefusesWhatASnippetCannotLaunch) {
    const auto path = kplay::test::kernels_dir() / "matmul/11_tma_wgmma.cu";
    const std::string source = kplay::read_source_file(path);
    const kplay::KernelSpec spec = kplay::resolve_kernel_spec(source, path);
    const std::string message = kplay::test::input_error_of(
        [&] { kplay::torch_snippet(kplay::prepare_torch_export(path, source, spec, {}, {})); });
    EXPECT_TRUE(contains(message, "cluster") || contains(message, "TMA descriptor")) << message;
}

TEST(TorchExport, AWrongTorchLineNamesTheBuffer) {
    kplay::test::TempDir dir;
    const std::string source = kplay::test::vector_add_task("default=1000", "// kplay-torch: a = a + b\n");
    const auto path = dir.write("vadd.cu", source);
    const kplay::KernelSpec spec = kplay::resolve_kernel_spec(source, path);
    const std::string message = kplay::test::input_error_of(
        [&] { kplay::prepare_torch_export(path, source, spec, {}, {}); });
    EXPECT_TRUE(contains(message, "vadd.cu:")) << message;
    EXPECT_TRUE(contains(message, "'a' is not an output of the task (its outputs: c)")) << message;
}

// The export leaves the host reference out, with the #ifdef KPLAY_REFERENCE that held it and the #endif
// that closed it: every shipped kernel file's standalone source opens and closes as many conditionals as
// it did (an #endif left behind stopped nvcc in PyTorch's load_inline). An #else branch is kept, opened
// as an #if of its own.
TEST(TorchExport, TheStandaloneSourceKeepsItsConditionalsBalanced) {
    auto count = [](const std::string& text, int& opened, int& closed) {
        opened = closed = 0;
        for (std::string_view line : kplay::split_lines(text)) {
            const std::string t = kplay::trim(line);
            if (t.rfind("#if", 0) == 0) ++opened;
            if (t.rfind("#endif", 0) == 0) ++closed;
        }
    };
    int files = 0, with_reference = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kplay::test::kernels_dir())) {
        if (entry.path().extension() != ".cu") continue;
        const std::string source = kplay::read_source_file(entry.path());
        const std::string standalone = kplay::standalone_kernel_source(source, entry.path(), {});
        int opened = 0, closed = 0;
        count(standalone, opened, closed);
        EXPECT_EQ(opened, closed) << entry.path();
        EXPECT_EQ(standalone.find("KPLAY_REFERENCE"), std::string::npos) << entry.path();
        with_reference += source.find("#ifdef KPLAY_REFERENCE") != std::string::npos;
        ++files;
    }
    EXPECT_GT(files, 50);
    EXPECT_GT(with_reference, 5);
    const std::string with_else = "__global__ void k(float* y) { y[0] = 1; }\n#ifdef KPLAY_REFERENCE\nvoid ref(float* y) { y[0] = 1; }\n"
                                  "#else\nint device_side = 1;\n#endif\n";
    const std::string kept = kplay::standalone_kernel_source(with_else, "/tmp/k.cu", {});
    EXPECT_EQ(kept.find("void ref"), std::string::npos) << kept;
    EXPECT_NE(kept.find("#if 1"), std::string::npos) << kept;
    EXPECT_NE(kept.find("int device_side = 1;\n#endif"), std::string::npos) << kept;
}
