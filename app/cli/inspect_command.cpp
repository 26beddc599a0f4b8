// `kplay-cli inspect FILE`: the kernel's resources (ptxas), theoretical occupancy, and its source lines
// with their PTX and SASS instruction counts; --ptx / --sass print those listings linked to source lines.
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "values/report_json.hpp"
#include "client/worker_client.hpp"
#include "commands.hpp"
#include "diagnostic_printer.hpp"
#include "exit_codes.hpp"
#include "remote_options.hpp"
#include "inspect/kernel_inspection.hpp"
#include "option_parsing.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay::cli {

namespace {

struct InspectOptionsCli {
    std::string file, arch, block;
    std::vector<std::string> defines;
    bool ptx = false, sass = false, resources = false, json = false;
    RemoteOptions remote;
};

nlohmann::json listing_json(const Listing& listing) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& line : listing.lines)
        lines.push_back({{"text", line.text}, {"line", line.source_line}, {"origin", line.origin}, {"instruction", line.instruction}});
    return lines;
}

nlohmann::json resources_json(const PtxasResources& r) {
    return {{"registers", r.registers},           {"spill_store_bytes", r.spill_store_bytes}, {"spill_load_bytes", r.spill_load_bytes},
            {"stack_frame_bytes", r.stack_frame_bytes}, {"static_smem_bytes", r.static_smem_bytes}, {"const_bytes", r.const_bytes},
            {"barriers", r.barriers}};
}

void print_resources(std::ostream& out, const KernelInspection& inspection) {
    const PtxasResources& r = inspection.resources;
    out << "  resources  " << r.registers << " registers/thread, " << r.spill_store_bytes << " B spill stores, " << r.spill_load_bytes
        << " B spill loads, " << r.stack_frame_bytes << " B stack frame, " << r.static_smem_bytes << " B static smem, " << r.barriers
        << " barriers (ptxas, " << inspection.arch << ")\n";
    if (inspection.occupancy)
        out << "  occupancy  " << inspection.occupancy->blocks_per_sm << " blocks/SM of " << inspection.block_threads << " threads, "
            << static_cast<int>(inspection.occupancy->fraction * 100 + 0.5) << "% of the SM's warps (theoretical); " << inspection.occupancy->why << "\n";
    else if (inspection.block_threads == 0)
        out << "  occupancy  unknown: the block size is not a constant here (give --block X[,Y[,Z]])\n";
    for (const auto& note : inspection.ptxas.notes) out << "  ptxas      " << note << "\n";
}

// The source with each line's PTX and SASS instruction counts, and a bar for the heavy ones.
void print_source_counts(std::ostream& out, const KernelInspection& inspection, const std::string& source) {
    const auto ptx = inspection.ptx.instructions_by_line();
    const auto sass = inspection.sass ? inspection.sass->instructions_by_line() : std::map<int, int>{};
    int heaviest = 1;
    for (const auto& [line, count] : inspection.sass ? sass : ptx) heaviest = std::max(heaviest, count);
    std::istringstream lines(source);
    std::string text;
    out << "  line   ptx  sass\n";
    for (int number = 1; std::getline(lines, text); ++number) {
        const auto p = ptx.find(number), s = sass.find(number);
        const int weight = inspection.sass ? (s == sass.end() ? 0 : s->second) : (p == ptx.end() ? 0 : p->second);
        out << std::setw(6) << number << std::setw(6) << (p == ptx.end() ? std::string() : std::to_string(p->second)) << std::setw(6)
            << (s == sass.end() ? std::string() : std::to_string(s->second)) << " " << std::left << std::setw(8)
            << std::string(static_cast<size_t>((weight * 8 + heaviest - 1) / heaviest), '#') << std::right << "| " << text << "\n";
    }
}

void print_listing(std::ostream& out, const Listing& listing) {
    for (const auto& line : listing.lines) {
        out << std::setw(6) << (line.source_line > 0 ? std::to_string(line.source_line) : std::string()) << "  " << line.text;
        if (!line.origin.empty()) out << "    // " << line.origin;
        out << "\n";
    }
}

}  // namespace

std::function<int()> add_inspect_command(CLI::App& app) {
    auto options = std::make_shared<InspectOptionsCli>();
    auto* command = app.add_subcommand("inspect", "A kernel's resources, occupancy, and its PTX and SASS linked to its source lines (no GPU needed)");
    command->add_option("FILE", options->file, "Kernel file (.cu)")->required();
    command->add_option("--arch", options->arch, "Target sm_XX (default: the device's, or sm_90)");
    command->add_option("--block", options->block, "Block size X[,Y[,Z]] for the occupancy (default: the annotation's)");
    command->add_option("-D,--define", options->defines, "Preprocessor define NAME=VALUE (repeatable)");
    command->add_flag("--ptx", options->ptx, "Print the PTX, each line with its source line");
    command->add_flag("--sass", options->sass, "Print the kernel's SASS (nvdisasm), each line with its source line");
    command->add_flag("--resources", options->resources, "Print only the resources and occupancy");
    command->add_flag("--json", options->json, "Print JSON (schema in docs/CLI.md)");
    add_remote_options(command, options->remote);
    return [options] {
        CompileFileRequest request;
        request.path = options->file;
        request.arch = options->arch;
        request.inspect = true;
        for (const auto& define : options->defines) request.defines.push_back(parse_assignment(define, "-D"));
        int block_threads = 0;
        if (!options->block.empty()) {
            int64_t threads = 1;
            for (const int64_t dimension : parse_dims(options->block, "--block")) threads *= dimension;
            block_threads = static_cast<int>(std::min<int64_t>(threads, 1 << 30));
        }
        WorkerClient client(worker_options(options->remote));
        const WorkerResult answer = client.wait(client.submit_compile(request));
        if (!answer.ok()) {
            std::cerr << "kplay-cli: " << answer.failure_message << "\n";
            return kCudaError;
        }
        const CompileFileResult& result = answer.compile;
        if (!result.input_error.empty()) {
            if (options->json) std::cout << nlohmann::json{{"ok", false}, {"error", result.input_error}}.dump(2) << "\n";
            else std::cerr << "kplay-cli: " << result.input_error << "\n";
            return kInputError;
        }
        const bool want_sass = options->sass || (!options->ptx && !options->resources);
        const KernelInspection inspection = inspect_compile(result, options->file, block_threads, want_sass || options->json);
        if (!inspection.compiled) {
            if (options->json) std::cout << nlohmann::json{{"ok", false}, {"error", inspection.problem}, {"compile", to_json(result.compile)}}.dump(2) << "\n";
            else print_diagnostics(std::cerr, result.compile), std::cerr << "kplay-cli: " << inspection.problem << "\n";
            return kCompileError;
        }
        if (options->json) {
            nlohmann::json out = {{"schema", kJsonSchemaVersion}, {"ok", true}, {"file", options->file}, {"arch", inspection.arch},
                                  {"kernel", inspection.kernel}, {"lowered_name", inspection.lowered_name},
                                  {"resources", resources_json(inspection.resources)}, {"ptxas_notes", inspection.ptxas.notes},
                                  {"block_threads", inspection.block_threads}, {"ptx", listing_json(inspection.ptx)},
                                  {"sass", inspection.sass ? listing_json(*inspection.sass) : nlohmann::json::array()},
                                  {"sass_problem", inspection.sass_problem}, {"spec_problem", result.spec_problem}};
            if (inspection.occupancy)
                out["occupancy"] = {{"blocks_per_sm", inspection.occupancy->blocks_per_sm}, {"fraction", inspection.occupancy->fraction},
                                    {"limiter", name_of(inspection.occupancy->limiter)}, {"why", inspection.occupancy->why}};
            nlohmann::json counts = nlohmann::json::object();
            for (const auto& [line, count] : inspection.ptx.instructions_by_line()) counts[std::to_string(line)]["ptx"] = count;
            if (inspection.sass)
                for (const auto& [line, count] : inspection.sass->instructions_by_line()) counts[std::to_string(line)]["sass"] = count;
            out["instructions_by_line"] = counts;
            std::cout << out.dump(2) << "\n";
            return kSuccess;
        }
        std::cout << options->file << ": kernel " << inspection.kernel << " (" << inspection.lowered_name << ")\n";
        print_diagnostics(std::cerr, result.compile);
        if (!result.spec_problem.empty()) std::cerr << options->file << ": note: " << result.spec_problem << "\n";
        print_resources(std::cout, inspection);
        if (!inspection.sass_problem.empty() && want_sass) std::cout << "  sass       " << inspection.sass_problem << "\n";
        if (options->resources) return kSuccess;
        if (options->ptx) {
            std::cout << "\n";
            print_listing(std::cout, inspection.ptx);
        }
        if (options->sass && !inspection.sass) return kInputError;  // asked for SASS; the reason is printed above
        if (options->sass) {
            std::cout << "\n";
            print_listing(std::cout, *inspection.sass);
        }
        if (!options->ptx && !options->sass) {
            std::cout << "\n";
            print_source_counts(std::cout, inspection, read_source_file(options->file));
        }
        return kSuccess;
    };
}

}  // namespace kplay::cli
