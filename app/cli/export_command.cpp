// kplay-cli export: a kernel file and its launch settings as a PyTorch snippet (runtime/export).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "export/torch_export.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/source_scan.hpp"
#include "option_parsing.hpp"

namespace kplay::cli {

namespace {

struct ExportOptions {
    std::string file, output, block, grid;
    int64_t smem = -1;
    bool torch = false;
    std::vector<std::string> args, defines;
};

LaunchSettings settings_of(const ExportOptions& options) {
    LaunchSettings settings;
    if (!options.block.empty()) settings.block = parse_dims(options.block, "--block");
    if (!options.grid.empty()) settings.grid = options.grid == "auto" ? std::vector<int64_t>{} : parse_dims(options.grid, "--grid");
    if (options.smem >= 0) settings.smem = options.smem;
    for (const auto& arg : options.args) settings.arg_overrides.insert(parse_assignment(arg, "--arg"));
    return settings;
}

// The snippet goes to a .py file of the user's choosing, never over a kernel file.
bool writable_output(const std::filesystem::path& output, const std::filesystem::path& kernel) {
    std::error_code error;
    const std::string extension = output.extension().string();
    if (extension == ".cu" || extension == ".cuh" || std::filesystem::equivalent(output, kernel, error)) {
        std::cerr << "kplay-cli: -o " << output.string() << " would write over a kernel file; give a .py path\n";
        return false;
    }
    return true;
}

}  // namespace

std::function<int()> add_export_command(CLI::App& app) {
    auto o = std::make_shared<ExportOptions>();
    auto* command = app.add_subcommand("export", "A kernel and its launch settings as a PyTorch snippet that builds, runs and checks it");
    command->add_option("FILE", o->file, "Kernel file (.cu)")->required();
    command->add_flag("--torch", o->torch, "Write Python for PyTorch (load_inline, or torch.cuda._compile_kernel where it exists)");
    command->add_option("-o,--output", o->output, "Write the snippet to this .py file instead of printing it");
    command->add_option("--block", o->block, "Block size X[,Y[,Z]] (overrides the annotation)");
    command->add_option("--grid", o->grid, "Grid: auto, or X[,Y[,Z]]");
    command->add_option("--smem", o->smem, "Dynamic shared memory in bytes");
    command->add_option("--arg", o->args, "Set a literal argument, e.g. tw=32 (repeatable)");
    command->add_option("-D,--define", o->defines, "Preprocessor define NAME=VALUE (repeatable)");
    return [o] {
        if (!o->torch) {
            std::cerr << "kplay-cli: export needs the form to write: --torch (a PyTorch snippet)\n";
            return static_cast<int>(kUsageError);
        }
        const std::string source = read_source_file(o->file);
        const KernelSpec spec = resolve_kernel_spec(source, o->file);
        std::vector<std::pair<std::string, std::string>> defines;
        for (const auto& define : o->defines) defines.push_back(parse_assignment(define, "-D"));
        const std::string snippet = torch_snippet(prepare_torch_export(o->file, source, spec, settings_of(*o), defines));
        if (o->output.empty()) {
            std::cout << snippet;
            return static_cast<int>(kSuccess);
        }
        if (!writable_output(o->output, o->file)) return static_cast<int>(kInputError);
        std::ofstream out(o->output, std::ios::binary);
        out << snippet;
        if (!out.flush()) {
            std::cerr << "kplay-cli: cannot write " << o->output << "\n";
            return static_cast<int>(kInputError);
        }
        std::cerr << "kplay-cli: wrote " << o->output << " (python3 " << o->output << " builds the kernel, runs it and checks it)\n";
        return static_cast<int>(kSuccess);
    };
}

}  // namespace kplay::cli
