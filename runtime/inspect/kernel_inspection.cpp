// From a compile's result to the inspect views' value.
#include "inspect/kernel_inspection.hpp"

#include <unistd.h>

#include <cstdlib>

#include "base/expression.hpp"
#include "base/subprocess.hpp"
#include "inspect/cuda_tools.hpp"
#include "inspect/ptx_listing.hpp"

namespace kplay {

namespace fs = std::filesystem;

Disassembly disassemble_cubin(const std::string& cubin) {
    Disassembly result;
    const ToolLookup tool = find_cuda_tool(CudaTool::nvdisasm);
    if (!tool.found()) {
        result.problem = "No SASS: " + tool.missing + " PTX works without it.";
        return result;
    }
    // nvdisasm reads only files: the CUBIN goes to a private temporary one (mkstemps: 0600, a new name),
    // removed as soon as nvdisasm is done.
    std::error_code error;
    const fs::path folder = fs::temp_directory_path(error);
    std::string name = (folder / "kplay-inspect-XXXXXX.cubin").string();
    const int fd = mkstemps(name.data(), 6);
    if (fd < 0) {
        result.problem = "No SASS: cannot create a temporary file in " + folder.string() + ".";
        return result;
    }
    const fs::path file = name;
    size_t written = 0;
    while (written < cubin.size()) {
        const ssize_t n = write(fd, cubin.data() + written, cubin.size() - written);
        if (n <= 0) break;
        written += static_cast<size_t>(n);
    }
    close(fd);
    if (written != cubin.size()) {
        fs::remove(file, error);
        result.problem = "No SASS: cannot write a temporary file in " + folder.string() + ".";
        return result;
    }
    ProcessResult run = run_process({tool.path.string(), "-gi", "-c", file.string()}, 60);
    fs::remove(file, error);
    if (run.exit_code != 0) {
        result.problem = "No SASS: nvdisasm " + std::string(run.timed_out ? "ran past 60 s" : "failed") + (run.output.empty() ? "" : ": " + run.output.substr(0, 400));
        return result;
    }
    result.text = std::move(run.output);
    return result;
}

namespace {

// The annotation's block as a thread count, where it is made of constants.
int constant_block_threads(const KernelSpec& spec) {
    int64_t threads = 1;
    try {
        for (const auto& dimension : spec.block) threads *= evaluate_int_expr(dimension, {});
    } catch (const std::exception&) {
        return 0;
    }
    return spec.block.empty() || threads <= 0 || threads > (1 << 20) ? 0 : static_cast<int>(threads);
}

}  // namespace

KernelInspection inspect_compile(const CompileFileResult& result, const std::string& kernel_file, int block_threads, bool want_sass) {
    KernelInspection inspection;
    inspection.file = kernel_file;
    const CompileResult& compile = result.compile;
    inspection.arch = compile.arch;
    inspection.diagnostics = compile.diagnostics;
    inspection.compile_ms = compile.compile_ms;
    inspection.cache_hit = compile.cache_hit;
    if (!result.input_error.empty()) {
        inspection.problem = result.input_error;
        return inspection;
    }
    if (!compile.ok) {
        inspection.problem = compile.failure.empty() ? "The file does not compile: see its diagnostics." : compile.failure;
        return inspection;
    }
    inspection.compiled = true;
    if (result.spec) {
        inspection.kernel = result.spec->kernel;
        if (auto found = compile.lowered_names.find(result.spec->kernel); found != compile.lowered_names.end())
            inspection.lowered_name = found->second;
        if (block_threads == 0) block_threads = constant_block_threads(*result.spec);
    }
    const std::string& ptx = compile.is_cubin ? compile.ptx : compile.binary;
    inspection.ptx = parse_ptx(ptx, kernel_file);
    inspection.ptxas = parse_ptxas_report(compile.log);
    if (inspection.lowered_name.empty() && inspection.ptxas.functions.size() == 1) inspection.lowered_name = inspection.ptxas.functions[0].function;
    if (const PtxasResources* own = inspection.ptxas.find(inspection.lowered_name)) inspection.resources = *own;
    inspection.block_threads = block_threads;
    if (const auto limits = sm_limits_for_arch(compile.arch); limits && block_threads > 0 && inspection.resources.found)
        inspection.occupancy = estimate_occupancy(*limits, block_threads, inspection.resources.registers, inspection.resources.static_smem_bytes);
    if (!want_sass) return inspection;
    if (!compile.is_cubin || compile.binary.empty()) {
        inspection.sass_problem = compile.is_cubin ? "No SASS: the compile came back without its CUBIN."
                                                   : "No SASS: this compile made PTX only (" + compile.arch + ").";
        return inspection;
    }
    const Disassembly disassembly = disassemble_cubin(compile.binary);
    if (!disassembly.problem.empty()) {
        inspection.sass_problem = disassembly.problem;
        return inspection;
    }
    const SassModule module = parse_nvdisasm(disassembly.text, kernel_file);
    if (const Listing* function = find_function(module, inspection.lowered_name)) inspection.sass = *function;
    else if (module.functions.size() == 1) inspection.sass = module.functions[0];
    else inspection.sass_problem = "No SASS for " + (inspection.lowered_name.empty() ? inspection.kernel : inspection.lowered_name) + " in nvdisasm's listing.";
    return inspection;
}

}  // namespace kplay
