// `kplay-cli compile FILE`: NVRTC diagnostics in gcc style, optionally the PTX.
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "diagnostic_printer.hpp"
#include "client/run_report.hpp"
#include "client/run_request.hpp"
#include "exit_codes.hpp"
#include "remote_options.hpp"
#include "option_parsing.hpp"
#include "client/report_json.hpp"
#include "client/worker_client.hpp"

namespace kplay::cli {

namespace {
struct CompileOptionsCli {
    std::string file, arch, ptx_out;
    std::vector<std::string> defines;
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
    command->add_flag("--json", options->json, "Print JSON (schema in docs/CLI.md)");
    add_remote_options(command, options->remote);
    return [options] {
        CompileFileRequest request;
        request.path = options->file;
        request.arch = options->arch;
        request.want_ptx = !options->ptx_out.empty();
        for (const auto& define : options->defines) request.defines.push_back(parse_assignment(define, "-D"));
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
        if (options->json) {
            nlohmann::json out = to_json(compile);
            out["schema"] = kJsonSchemaVersion;
            out["file"] = options->file;
            out["spec_problem"] = result.spec_problem;
            out["kernel"] = result.spec ? result.spec->kernel : "";
            std::cout << out.dump(2) << "\n";
        } else {
            print_diagnostics(std::cerr, compile);
            if (!result.spec_problem.empty()) std::cerr << options->file << ": note: " << result.spec_problem << "\n";
            print_compile_summary(std::cerr, options->file, compile);
        }
        return compile.ok ? kSuccess : kCompileError;
    };
}

}  // namespace kplay::cli
