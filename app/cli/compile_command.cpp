// `kplay-cli compile FILE`: NVRTC diagnostics in gcc style, optionally the PTX.
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "diagnostic_printer.hpp"
#include "values/run_report.hpp"
#include "values/run_request.hpp"
#include "exit_codes.hpp"
#include "remote_options.hpp"
#include "option_parsing.hpp"
#include "values/report_json.hpp"
#include "client/worker_client.hpp"

namespace kplay::cli {

namespace {
struct CompileOptionsCli {
    std::string file, arch, ptx_out;
    std::vector<std::string> defines, includes;
    bool json = false;
    RemoteOptions remote;
};
}  // namespace

std::function<int()> add_compile_command(CLI::App& app) {
    auto options = std::make_shared<CompileOptionsCli>();
    auto* command = app.add_subcommand("compile", "Compile a kernel file and print its diagnostics");
    command->add_option("FILE", options->file, "Kernel file (.cu)")->required();
    command->add_option("--arch", options->arch, "Target, e.g. sm_90 (CUBIN) or compute_90 (PTX); default: the device's, or compute_90");
    command->add_option("--ptx", options->ptx_out, "Write PTX to this file");
    command->add_option("-D,--define", options->defines, "Preprocessor define NAME=VALUE (repeatable)");
    command->add_option("-I,--include", options->includes,
                        "A header folder to search after the file's include= folders (repeatable; also KPLAY_INCLUDE_PATH)");
    command->add_flag("--json", options->json, "Print JSON (schema in docs/CLI.md)");
    add_remote_options(command, options->remote);
    return [options] {
        CompileFileRequest request;
        request.path = options->file;
        request.arch = options->arch;
        request.want_ptx = !options->ptx_out.empty();
        for (const auto& define : options->defines) request.defines.push_back(parse_assignment(define, "-D"));
        request.include_dirs = include_folders(options->includes);
        WorkerClient client(worker_options(options->remote));
        const WorkerResult answer = client.wait(client.submit_compile(request));
        const CompileFileResult& result = answer.compile;
        if (!answer.ok()) {
            std::cerr << "kplay-cli: " << answer.failure_message << "\n";
            return kCudaError;
        }
        if (!result.input_error.empty()) {
            if (options->json) std::cout << nlohmann::json{{"ok", false}, {"error", result.input_error}}.dump(2) << "\n";
            else std::cerr << "kplay-cli: " << result.input_error << "\n";
            return kInputError;
        }
        const CompileResult& compile = result.compile;
        if (compile.ok && !options->ptx_out.empty()) {
            std::ofstream out(options->ptx_out, std::ios::binary);
            const std::string& ptx = compile.binary;
            out.write(ptx.data(), static_cast<std::streamsize>(ptx.find('\0') == std::string::npos ? ptx.size() : ptx.find('\0')));
            if (!out) {
                std::cerr << "kplay-cli: cannot write " << options->ptx_out << "\n";
                return kInputError;
            }
        }
        // A file that asks for its own target (arch=sm_90a for wgmma) compiled for another by --arch: the
        // likely reason of ptxas's "not supported on .target" errors, said in words.
        std::string overridden;
        if (!compile.ok && result.spec && !result.spec->arch.empty() && !options->arch.empty() && options->arch != result.spec->arch)
            overridden = "the file asks for arch=" + result.spec->arch + " (its kplay annotation), and --arch " + options->arch +
                         " overrode it";
        if (options->json) {
            nlohmann::json out = to_json(compile);
            out["arch_overridden"] = overridden;
            out["schema"] = kJsonSchemaVersion;
            out["file"] = options->file;
            out["spec_problem"] = result.spec_problem;
            out["kernel"] = result.spec ? result.spec->kernel : "";
            std::cout << out.dump(2) << "\n";
        } else {
            print_diagnostics(std::cerr, compile);
            if (!result.spec_problem.empty()) std::cerr << options->file << ": note: " << result.spec_problem << "\n";
            if (!overridden.empty()) std::cerr << options->file << ": note: " << overridden << "\n";
            print_compile_summary(std::cerr, options->file, compile);
        }
        return compile.ok ? kSuccess : kCompileError;
    };
}

}  // namespace kplay::cli
