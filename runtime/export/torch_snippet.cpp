// The Python snippet: header, helpers, the source, launch_settings(), the build, the wrapper, the check.
#include "export/torch_export.hpp"

#include <cctype>
#include <cstdio>
#include <sstream>

#include "base/content_hash.hpp"
#include "base/error.hpp"
#include "base/text.hpp"
#include "export/python_expression.hpp"
#include "export/standalone_source.hpp"
#include "export/torch_expected.hpp"
#include "export/torch_launch_rule.hpp"
#include "kernel_file/task_sizes.hpp"

namespace kplay {

namespace {

const char* torch_dtype(ElementType type) {
    switch (type) {
        case ElementType::u8: return "torch.uint8";
        case ElementType::i32: return "torch.int32";
        case ElementType::u32: return "torch.uint32";
        case ElementType::f16: return "torch.float16";
        case ElementType::f32: return "torch.float32";
        case ElementType::f64: return "torch.float64";
        case ElementType::i8: return "torch.int8";
        case ElementType::i64: return "torch.int64";
        case ElementType::bf16: return "torch.bfloat16";
        case ElementType::fp8_e4m3: return "torch.float8_e4m3fn";
        case ElementType::fp8_e5m2: return "torch.float8_e5m2";
    }
    return "torch.float32";
}

std::string py(const std::string& expression) { return python_expression(expression, PythonArithmetic::integer); }
std::string py_real(const std::string& expression) { return python_expression(expression, PythonArithmetic::real); }

// A Python string literal holding `text` as it is: raw where that is safe, escaped otherwise.
std::string python_string(const std::string& text) {
    if (text.find("'''") == std::string::npos && text.find("\\'") == std::string::npos && (text.empty() || text.back() != '\\'))
        return "r'''" + text + "'''";
    std::string escaped = "'''";
    for (char c : text) {
        if (c == '\\' || c == '\'') escaped += '\\';
        escaped += c;
    }
    return escaped + "'''";
}

std::string indent(const std::vector<std::string>& lines, const std::string& by = "    ") {
    std::string out;
    for (const auto& line : lines) out += by + line + "\n";
    return out;
}

std::string size_parameters(const TaskSpec& task) {
    std::vector<std::string> names;
    for (const auto& name : task.sizes.names) names.push_back(python_name(name));
    return join(names);
}

std::string size_keywords(const TaskSpec& task) {
    std::vector<std::string> names;
    for (const auto& name : task.sizes.names) names.push_back(python_name(name) + "=" + python_name(name));
    return join(names);
}

bool is_int32(std::string type) {
    for (const char* word : {"const ", "volatile "})
        for (size_t at; (at = type.find(word)) != std::string::npos;) type.erase(at, std::string(word).size());
    type = trim(type);
    return type == "int" || type == "unsigned" || type == "unsigned int" || type == "int32_t" || type == "uint32_t" || type == "signed int";
}

// torch.cuda._compile_kernel passes a Python int as a C int: it fits only where every value parameter is one.
bool compile_kernel_fits(const LaunchRule& rule) {
    for (const auto& launch : rule.launches) {
        if (!launch.declaration || launch.declaration->params.size() != launch.arguments.size()) return false;
        for (size_t i = 0; i < launch.arguments.size(); ++i)
            if (launch.arguments[i].buffer < 0 && !is_int32(launch.declaration->params[i].type)) return false;
    }
    return true;
}

// load_inline's side: one host function per launch that launches with <<<>>> on the caller's stream.
// It takes only integers (pointers as addresses, converted to whatever pointer the kernel's parameter
// is), so the binding needs no tensor types and works for any kernel signature.
const char* kLauncherPrologue =
    "// ---- added by kplay's export: what the host launchers below need ----\n"
    "#include <cstdint>\n#include <string>\n#include <cuda_runtime.h>\n"
    "struct kplay_pointer {\n    int64_t address;\n"
    "    template <typename T> operator T*() const { return reinterpret_cast<T*>(address); }\n};\n"
    "// ---- the kernel file ----\n";

std::string launcher_source(const LaunchRule& rule, std::string& declarations) {
    std::ostringstream out;
    out << "\n// ---- added by kplay's export: one host launcher per launch, called from Python ----\n";
    for (size_t i = 0; i < rule.launches.size(); ++i) {
        const ExportedLaunch& launch = rule.launches[i];
        std::string parameters = "int64_t grid_x, int64_t grid_y, int64_t grid_z, int64_t block_x, int64_t block_y, int64_t block_z, int64_t smem, int64_t stream";
        std::vector<std::string> arguments;
        for (size_t a = 0; a < launch.arguments.size(); ++a) {
            parameters += ", int64_t a" + std::to_string(a);
            arguments.push_back(launch.arguments[a].buffer >= 0 ? "kplay_pointer{a" + std::to_string(a) + "}" : "a" + std::to_string(a));
        }
        const std::string name = "kplay_launch_" + std::to_string(i);
        declarations += "std::string " + name + "(" + parameters + ");\n";
        out << "std::string " << name << "(" << parameters << ") {\n"
            << "    if (smem >= 48 * 1024) {\n"
            << "        const cudaError_t set = cudaFuncSetAttribute(" << launch.kernel << ", cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));\n"
            << "        if (set != cudaSuccess) return std::string(\"cudaFuncSetAttribute: \") + cudaGetErrorString(set);\n    }\n"
            << "    " << launch.kernel << "<<<dim3(grid_x, grid_y, grid_z), dim3(block_x, block_y, block_z), static_cast<size_t>(smem),\n"
            << "        reinterpret_cast<cudaStream_t>(stream)>>>(" << join(arguments) << ");\n"
            << "    const cudaError_t error = cudaGetLastError();\n"
            << "    return error == cudaSuccess ? std::string() : std::string(cudaGetErrorString(error));\n}\n";
    }
    return out.str();
}

const char* kHelpers = R"PY(import math
import os

import torch


def cdiv(a, b):
    return -(-a // b)


def _kplay_check_tensor(name, tensor, dtype, length, device=None):
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(tensor).__name__}")
    if tensor.dtype != dtype:
        raise TypeError(f"{name}: dtype {tensor.dtype}, but the kernel takes {dtype}")
    if not tensor.is_cuda:
        raise ValueError(f"{name}: on {tensor.device}, but the kernel needs a CUDA tensor")
    if device is not None and tensor.device != device:
        raise ValueError(f"{name}: on {tensor.device}, but the first tensor is on {device}")
    if not tensor.is_contiguous():
        raise ValueError(f"{name}: not contiguous; pass {name}.contiguous()")
    if tensor.numel() != length:
        raise ValueError(f"{name}: {tensor.numel()} elements, but the kernel uses {length} at these sizes")


def _kplay_compare(name, got, expected, atol, rtol, check):
    got = got.reshape(-1).double()
    expected = torch.as_tensor(expected).to(device=got.device, dtype=torch.float64).reshape(-1)
    if expected.numel() != got.numel():
        print(f"{name}: FAIL, the PyTorch expression gives {expected.numel()} elements, the output has {got.numel()}")
        return 1
    if isinstance(atol, torch.Tensor):
        atol = atol.to(device=got.device, dtype=torch.float64).reshape(-1)
    allowed = torch.broadcast_to(atol + rtol * expected.abs(), got.shape)
    good = ((got - expected).abs() <= allowed) | (got.isnan() & expected.isnan())
    bad = int((~good).sum())
    if bad:
        i = int((~good).nonzero()[0])
        print(f"{name}: FAIL, {bad} of {got.numel()} elements off ({check}); first {name}[{i}] = {got[i].item()!r}, "
              f"expected {expected[i].item()!r}, allowed error {allowed[i].item():.3g}")
        return 1
    print(f"{name}: PASS, all {got.numel()} elements match ({check})")
    return 0


def _kplay_written(name, got):
    if got.is_floating_point() and not bool(torch.isfinite(got).all()):
        print(f"{name}: FAIL, NaN or Inf in the output (elements never written keep the NaN they started with)")
        return 1
    print(f"{name}: not compared (no PyTorch expression: add '// kplay-torch: {name} = ...' to the file)")
    return 0
)PY";

void write_header(std::ostringstream& out, const TorchExport& input, const LaunchRule& rule) {
    const TaskSpec& task = input.spec.task;
    out << "# Exported by kplay from " << input.file_name << " (kplay-cli export --torch, or the window's Copy as PyTorch).\n"
        << "# The kernel, its launch as kplay sets it up, a PyTorch wrapper, and one call checked against PyTorch.\n"
        << "# Build: torch.cuda._compile_kernel where this PyTorch has it, else torch.utils.cpp_extension.load_inline\n"
        << "# (KPLAY_TORCH_BUILD=load_inline or compile_kernel picks one).\n#\n"
        << "# task " << task.name << (task.summary.empty() ? "" : ": " + task.summary) << "\n"
        << "# sizes: " << join(task.sizes.names) << " (default " << named_sizes_text(task.sizes.names, task.sizes.gpu_default, ", ") << ")\n"
        << "# buffers, in the wrapper's order:\n";
    for (const auto& buffer : task.buffers)
        out << "#   " << python_name(buffer.name) << ": " << torch_dtype(buffer.type) << "[" << buffer.length << "] " << spec_name(buffer.role)
            << (buffer.role == BufferRole::scratch ? " (allocated by the wrapper)" : "") << "\n";
    out << "# launches:\n";
    for (const auto& line : rule.summary) out << "#   " << line << "\n";
    std::vector<std::string> literals;
    for (const auto& arg : input.spec.args)
        if (arg.find('=') != std::string::npos) literals.push_back(arg);
    for (const auto& [name, value] : input.settings.arg_overrides) literals.push_back(name + "=" + value + " (set)");
    if (!literals.empty()) out << "# literal arguments: " << join(literals) << "\n";
    std::vector<std::string> defines;
    for (const auto& [name, value] : merge_defines(input.spec.defines, input.defines)) defines.push_back("-D" + name + "=" + value);
    if (!defines.empty()) out << "# defines: " << join(defines, " ") << "\n";
    out << "\n";
}

void write_sources(std::ostringstream& out, const TorchExport& input, const LaunchRule& rule) {
    std::vector<std::string> options;
    for (const auto& [name, value] : merge_defines(input.spec.defines, input.defines)) options.push_back(python_string("-D" + name + "=" + value));
    for (const auto& option : input.spec.nvrtc_options) options.push_back(python_string(option));
    std::vector<std::string> names;
    for (const auto& launch : rule.launches) names.push_back(python_string(launch.kernel));
    std::string declarations;
    const std::string launchers = launcher_source(rule, declarations);
    std::string stem = input.file_name.substr(0, input.file_name.find('.'));
    for (char& c : stem)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    const std::string extension = "kplay_" + stem + "_" + hash_hex(input.kernel_source + launchers + join(options)).substr(0, 12);
    out << "KERNEL_SOURCE = " << python_string(input.kernel_source) << "\n\n"
        << "KERNEL_NAMES = [" << join(names) << "]\n"
        << "NVCC_OPTIONS = [" << join(options) << "]\n"
        << "COMPILE_KERNEL_FITS = " << (compile_kernel_fits(rule) ? "True" : "False")
        << "  # every value parameter a 32-bit int, as _compile_kernel passes Python ints\n"
        << "EXTENSION_NAME = \"" << extension << "\"\n"
        << "LAUNCHERS_PROLOGUE = " << python_string(kLauncherPrologue) << "\n"
        << "LAUNCHERS_SOURCE = " << python_string(launchers) << "\n"
        << "LAUNCHERS_DECLARATIONS = " << python_string("#include <cstdint>\n#include <string>\n" + declarations) << "\n\n\n";
}

void write_launch_settings(std::ostringstream& out, const TaskSpec& task, const LaunchRule& rule) {
    out << "def launch_settings(*, " << size_parameters(task) << "):\n"
        << "    \"\"\"Each launch as kplay sets it up at these sizes: (grid, block, dynamic shared memory, value arguments).\"\"\"\n"
        << indent(rule.lines) << "\n\n";
}

const char* kBuild = R"PY(_kplay_launch = None


def _kplay_build():
    """Compiles the kernels once and returns launch(index, grid, block, smem, args)."""
    global _kplay_launch
    if _kplay_launch is not None:
        return _kplay_launch
    way = os.environ.get("KPLAY_TORCH_BUILD", "auto")
    if way == "compile_kernel" and not (COMPILE_KERNEL_FITS and hasattr(torch.cuda, "_compile_kernel")):
        raise RuntimeError("torch.cuda._compile_kernel cannot build this kernel here (missing in this PyTorch, "
                           "or a value parameter that is not a 32-bit int)")
    if way != "load_inline" and COMPILE_KERNEL_FITS and hasattr(torch.cuda, "_compile_kernel"):
        try:
            kernels = [torch.cuda._compile_kernel(KERNEL_SOURCE, name, nvcc_options=list(NVCC_OPTIONS)) for name in KERNEL_NAMES]

            def launch(index, grid, block, smem, args):
                if smem:
                    kernels[index].set_shared_memory_config(smem)
                kernels[index](grid=grid, block=block, args=args, shared_mem=smem)

            print("kplay: built with torch.cuda._compile_kernel")
            _kplay_launch = launch
            return launch
        except Exception as error:
            if way == "compile_kernel":
                raise
            print(f"kplay: torch.cuda._compile_kernel failed ({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}); "
                  "building with load_inline")
    from torch.utils.cpp_extension import load_inline

    module = load_inline(name=EXTENSION_NAME, cpp_sources=[LAUNCHERS_DECLARATIONS],
                         cuda_sources=[LAUNCHERS_PROLOGUE + KERNEL_SOURCE + LAUNCHERS_SOURCE],
                         functions=[f"kplay_launch_{i}" for i in range(len(KERNEL_NAMES))],
                         extra_cuda_cflags=list(NVCC_OPTIONS))

    def launch(index, grid, block, smem, args):
        values = [arg.data_ptr() if isinstance(arg, torch.Tensor) else int(arg) for arg in args]
        error = getattr(module, f"kplay_launch_{index}")(*grid, *block, smem, torch.cuda.current_stream().cuda_stream, *values)
        if error:
            raise RuntimeError(f"{KERNEL_NAMES[index]}: {error}")

    print("kplay: built with torch.utils.cpp_extension.load_inline")
    _kplay_launch = launch
    return launch


)PY";

std::string fill_value(const BufferSpec& buffer) {
    return buffer.init.params.empty() ? "0" : py_real(buffer.init.params[0]);
}

void write_wrapper(std::ostringstream& out, const TorchExport& input, const LaunchRule& rule, const std::string& wrapper) {
    const TaskSpec& task = input.spec.task;
    std::vector<std::string> parameters, outputs;
    std::string first;
    for (const auto& buffer : task.buffers)
        if (buffer.role != BufferRole::scratch) {
            parameters.push_back(python_name(buffer.name));
            if (buffer.is_output()) outputs.push_back(python_name(buffer.name));
        }
    out << "def " << wrapper << "(" << join(parameters) << ", *, " << size_parameters(task) << "):\n"
        << "    \"\"\"Runs " << input.spec.kernel << " as kplay launches it; returns " << (outputs.size() == 1 ? outputs[0] : "(" + join(outputs) + ")")
        << ".\n\n    Tensors in the task's buffer order, flat, contiguous, on one CUDA device; sizes by name.\n    \"\"\"\n";
    out << indent(python_derived_sizes(task));
    for (const auto& buffer : task.buffers) {
        const std::string name = python_name(buffer.name);
        if (buffer.role == BufferRole::scratch) continue;
        out << "    _kplay_check_tensor(\"" << name << "\", " << name << ", " << torch_dtype(buffer.type) << ", " << py(buffer.length)
            << (first.empty() ? "" : ", " + first + ".device") << ")\n";
        if (first.empty()) first = name;
    }
    for (const auto& buffer : task.buffers) {
        const std::string name = python_name(buffer.name);
        if (buffer.role == BufferRole::scratch) {
            out << "    " << name << " = torch." << (buffer.prefill ? "full" : "empty") << "((" << py(buffer.length) << ",), "
                << (buffer.prefill ? fill_value(buffer) + ", " : "") << "dtype=" << torch_dtype(buffer.type) << ", device=" << first
                << ".device)  # scratch\n";
        } else if (buffer.prefill) {
            out << "    " << name << ".fill_(" << fill_value(buffer) << ")  # the kernel accumulates into it (" << buffer.init.text << ")\n";
        }
    }
    out << "    launch = _kplay_build()\n"
        << "    with torch.cuda.device(" << first << ".device):\n"
        << "        launches = launch_settings(" << size_keywords(task) << ")\n";
    for (size_t i = 0; i < rule.launches.size(); ++i) {
        std::vector<std::string> arguments;
        int value = 0;
        for (const auto& argument : rule.launches[i].arguments)
            arguments.push_back(argument.buffer >= 0 ? python_name(task.buffers[static_cast<size_t>(argument.buffer)].name)
                                                     : "launches[" + std::to_string(i) + "][3][" + std::to_string(value++) + "]");
        out << "        launch(" << i << ", *launches[" << i << "][:3], [" << join(arguments) << "])\n";
    }
    out << "    return " << (outputs.size() == 1 ? outputs[0] : "(" + join(outputs) + ")") << "\n\n\n";
}

std::string random_tensor(const BufferSpec& buffer) {
    const std::string shape = "(" + py(buffer.length) + ",)";
    const std::string dtype = torch_dtype(buffer.type);
    const bool floating = is_floating(buffer.type);
    const auto& params = buffer.init.params;
    auto param = [&](size_t i, const char* otherwise) { return params.size() > i ? py_real(params[i]) : std::string(otherwise); };
    switch (buffer.init.kind) {
        case InitKind::uniform:
            return floating ? "torch.rand(" + shape + ", dtype=torch.float64, device=device).mul(" + param(1, "1") + " - " + param(0, "0") + ").add(" +
                                  param(0, "0") + ").to(" + dtype + ")"
                            : "torch.randint(int(" + param(0, "0") + "), int(" + param(1, buffer.type == ElementType::u8 ? "255" : "100") + ") + 1, " +
                                  shape + ", device=device).to(" + dtype + ")";
        case InitKind::normal:
            return "torch.randn(" + shape + ", dtype=torch.float64, device=device).mul(" + param(1, "1") + ").add(" + param(0, "0") + ").to(" + dtype + ")";
        case InitKind::randint:
            return "torch.randint(int(" + param(0, "0") + "), int(" + param(1, buffer.type == ElementType::u8 ? "255" : "100") + ") + 1, " + shape +
                   ", device=device).to(" + dtype + ")";
        case InitKind::iota:
            return "torch.arange(" + py(buffer.length) + ", dtype=torch.float64, device=device).mul(" + param(1, "1") + ").add(" + param(0, "0") +
                   ").to(" + dtype + ")";
        case InitKind::constant: return "torch.full(" + shape + ", " + param(0, "1") + ", dtype=" + dtype + ", device=device)";
        case InitKind::image:
            return "torch.randint(0, 256, " + shape + ", device=device).to(" + dtype + ")  # random bytes in place of an image";
    }
    return "";
}

std::string poisoned_tensor(const BufferSpec& buffer) {
    const char* poison = is_floating(buffer.type) ? "float(\"nan\")" : buffer.type == ElementType::u8 ? "0xA5" : "0x25A5A5A5";
    return "torch.full((" + py(buffer.length) + ",), " + poison + ", dtype=" + torch_dtype(buffer.type) + ", device=device)";
}

void write_self_check(std::ostringstream& out, const TorchExport& input, const std::string& wrapper) {
    const TaskSpec& task = input.spec.task;
    out << "def _kplay_self_check():\n"
        << "    \"\"\"One call on random tensors at the task's default size, each output checked against PyTorch.\"\"\"\n"
        << "    torch.manual_seed(1)\n    device = torch.device(\"cuda\")\n";
    for (size_t i = 0; i < task.sizes.names.size(); ++i)
        out << "    " << python_name(task.sizes.names[i]) << " = " << task.sizes.gpu_default.at(i) << "\n";
    out << indent(python_derived_sizes(task));
    std::vector<std::string> arguments;
    for (const auto& buffer : task.buffers) {
        if (buffer.role == BufferRole::scratch) continue;
        arguments.push_back(python_name(buffer.name));
        out << "    " << python_name(buffer.name) << " = " << (buffer.is_input() ? random_tensor(buffer) : poisoned_tensor(buffer)) << "\n";
    }
    const std::vector<ExpectedOutput> expected = expected_outputs(input);
    out << "    with torch.no_grad():  # before the call: an inout buffer's expectation is of its input\n";
    bool any = false;
    for (const auto& output : expected)
        if (output.compared && !output.expression.empty()) {
            const std::string name = python_name(task.buffers[static_cast<size_t>(output.buffer)].name);
            out << "        expected_" << name << " = " << output.expression << "\n"
                << "        atol_" << name << " = " << output.atol << "\n";
            any = true;
        }
    if (!any) out << "        pass\n";
    out << "    " << wrapper << "(" << join(arguments) << ", " << size_keywords(task) << ")\n"
        << "    torch.cuda.synchronize()\n    failures = 0\n";
    for (const auto& output : expected) {
        if (!output.compared) continue;
        const std::string name = python_name(task.buffers[static_cast<size_t>(output.buffer)].name);
        char rtol[64];
        std::snprintf(rtol, sizeof rtol, "%.17g", output.rtol);
        if (output.expression.empty()) out << "    failures += _kplay_written(\"" << name << "\", " << name << ")\n";
        else
            out << "    failures += _kplay_compare(\"" << name << "\", " << name << ", expected_" << name << ", atol_" << name << ", " << rtol
                << ", \"check=" << output.check << "\")\n";
    }
    out << "    if failures:\n        raise SystemExit(\"kplay export check: FAIL\")\n"
        << "    print(\"kplay export check: PASS at " << named_sizes_text(task.sizes.names, task.sizes.gpu_default, ", ") << "\")\n\n\n"
        << "if __name__ == \"__main__\":\n    _kplay_self_check()\n";
}

}  // namespace

TorchExport prepare_torch_export(const std::filesystem::path& file, std::string_view source, const KernelSpec& spec,
                                 const LaunchSettings& settings, std::vector<std::pair<std::string, std::string>> defines) {
    TorchExport input;
    input.file_name = file.filename().string();
    input.kernel_source = standalone_kernel_source(source, file, spec.include_dirs);
    input.spec = spec;
    input.settings = settings;
    input.defines = std::move(defines);
    input.expectations = torch_expectations(source, spec.task, input.file_name);
    return input;
}

std::string torch_snippet(const TorchExport& input) {
    const LaunchRule rule = python_launch_rule(input);
    const KernelDecl* declaration = input.spec.declaration();
    const std::string kernel_name = declaration ? declaration->name : input.spec.kernel.substr(0, input.spec.kernel.find('<'));
    const std::string wrapper = python_name(trim(kernel_name));
    std::ostringstream out;
    write_header(out, input, rule);
    out << kHelpers << "\n\n";
    write_sources(out, input, rule);
    write_launch_settings(out, input.spec.task, rule);
    out << kBuild;
    write_wrapper(out, input, rule, wrapper);
    write_self_check(out, input, wrapper);
    return out.str();
}

}  // namespace kplay
