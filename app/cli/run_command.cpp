// `kplay-cli run FILE`: compile, launch, time and check one kernel; text or JSON out.
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <iostream>

#include "base/error.hpp"
#include "values/output_png.hpp"
#include "base/text.hpp"
#include "values/report_json.hpp"
#include "values/verdict.hpp"
#include "client/worker_client.hpp"
#include "commands.hpp"
#include "diagnostic_printer.hpp"
#include "exit_codes.hpp"
#include "option_values.hpp"
#include "remote_options.hpp"
#include "option_parsing.hpp"
#include "inspect/fault_finder.hpp"
#include "inspect/kernel_inspection.hpp"
#include "emu/access_tracker.hpp"
#include "inspect/line_profiler.hpp"
#include "inspect/profiler.hpp"
#include "profile_printer.hpp"
#include "run/engine.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay::cli {

namespace {

struct RunOptionsCli {
    std::string file, image, size, block, grid, out, arch;
    int64_t smem = -1;
    std::vector<std::string> args, defines, inits, includes, who_wrote;
    int warmup = 3, repeat = 20;
    std::string device, order = "forward";
    uint64_t order_seed = 1;
    uint64_t seed = 1;
    double tolerance = -1;
    bool json = false, no_flush = false, in_process = false, thorough = false, no_test_sizes = false, no_track = false;
    std::string find_fault;  // a compute-sanitizer tool's name ("memcheck" for a bare --find-fault); empty: not asked
    bool profile = false, line_access = false, debug_build = false;
    std::vector<std::string> sections;
    double timeout = 5;
    RemoteOptions remote;
};

// kplay-cli's own path, for the finders and the profiler that run it again in a process of its own.
std::filesystem::path own_path() {
    std::error_code error;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path("kplay-cli") : path;
}

nlohmann::json race_access_json(const RacecheckAccess& a) {
    nlohmann::json j = {{"access", a.write ? "write" : "read"}, {"pc", a.pc}, {"file", a.file}, {"line", a.line}};
    if (a.has_thread) j["thread"] = a.thread;
    return j;
}

nlohmann::json location_json(const FaultLocation& location) {
    nlohmann::json j = {{"finder", std::string(name_of(location.finder))}, {"found", location.found}, {"line", location.line},
                        {"message", location.message}, {"problem", location.problem}, {"seconds", location.seconds}};
    if (location.finder == FaultFinder::compute_sanitizer) {
        j["tool"] = std::string(name_of(location.tool));
        j["other_line"] = location.other_line;
        j["findings"] = location.findings;
    }
    if (location.race) {
        const RaceHazard& h = *location.race;
        j["race"] = {{"hazard", std::string(name_of(h.kind))}, {"severity", std::string(name_of(h.severity))}, {"space", h.space},
                     {"address", h.address}, {"block", h.block}, {"first", race_access_json(h.first)}, {"second", race_access_json(h.second)}};
    }
    return j;
}

// A line of the kernel file as "  NUMBER | TEXT" on stderr (nothing when the file cannot be read).
void print_source_line(const std::string& file, int line) {
    try {
        std::istringstream lines(read_source_file(file));
        std::string text;
        for (int number = 1; std::getline(lines, text); ++number)
            if (number == line) std::fprintf(stderr, "  %8d | %s\n", number, text.c_str());
    } catch (const InputError&) {
    }
}

// "  fault line 12 (emulated device, 0.4 s): MESSAGE" and the line's text, or why the finder could not say.
void print_location(const FaultLocation& location, const std::string& file) {
    const std::string finder(name_of(location.finder));
    if (!location.found) {
        std::fprintf(stderr, "  %-10s %s\n", "no line", (finder + ": " + location.problem).c_str());
        return;
    }
    const bool sanitizer = location.finder == FaultFinder::compute_sanitizer;
    const char* what = !sanitizer || location.tool == SanitizerTool::memcheck ? "fault at" : location.tool == SanitizerTool::racecheck ? "race at" : "found at";
    const std::string by = sanitizer ? finder + " " + std::string(name_of(location.tool)) : finder;
    std::fprintf(stderr, "  %-10s %s:%d (%s, %.1f s): %s\n", what, file.c_str(), location.line, by.c_str(), location.seconds, location.message.c_str());
    if (location.other_line > 0 && location.other_line < location.line) print_source_line(file, location.other_line);
    print_source_line(file, location.line);
    if (location.other_line > location.line) print_source_line(file, location.other_line);
}

// The line of a GPU fault: the emulated device first (no tool needed), then compute-sanitizer where it is.
std::vector<FaultLocation> find_fault_line(const RunRequest& request, const RunReport& report, bool in_process) {
    std::vector<FaultLocation> found;
    const auto start = std::chrono::steady_clock::now();
    const RunRequest rerun = emulated_rerun_request(request, report);
    RunReport emulated;
    if (in_process) {
        Engine engine(default_engine_config());
        emulated = engine.run(rerun);
    } else {
        WorkerClient client;
        emulated = client.wait(client.submit_run(rerun)).run;
    }
    found.push_back(location_from_emulated_run(emulated));
    found.back().seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    found.push_back(find_fault_with_sanitizer(own_path(), request, report));
    return found;
}

// ncu's per-line memory counters of a GPU run: kplay's SASS listing of the same build (a compile in the
// worker, with line information), then ncu's source page mapped onto it.
LineProfileOutcome profile_lines(const RunRequest& request, const RunReport& report, const RemoteOptions& remote) {
    LineProfileOutcome outcome;
    if (report.emulated) {  // the tracked launch counted every access itself
        if (report.line_access.empty())
            outcome.problem = report.tracked ? "the kernel made no loads or stores of buffers or shared memory"
                                             : "the emulated device counts memory per line on a tracked run; this one had --no-track";
        else
            outcome.access = NcuLineAccess{report.line_access.front(), {}};
        return outcome;
    }
    CompileFileRequest compile;
    compile.path = request.kernel_path;
    compile.arch = request.arch;
    compile.inspect = true;
    compile.defines = request.defines;
    compile.include_dirs = request.include_dirs;
    WorkerClient client(worker_options(remote));
    const WorkerResult answer = client.wait(client.submit_compile(compile));
    const KernelInspection inspection = answer.ok() ? inspect_compile(answer.compile, request.kernel_path.string(), 0, true) : KernelInspection{};
    if (!inspection.sass) {
        outcome.problem = "kplay could not disassemble the kernel to place ncu's counters on its lines: " +
                          (!answer.ok() ? answer.failure_message : !inspection.sass_problem.empty() ? inspection.sass_problem : inspection.problem);
        return outcome;
    }
    return profile_lines_with_ncu(own_path(), request, report, *inspection.sass, request.kernel_path.string());
}

nlohmann::json line_profile_json(const LineProfileOutcome& outcome) {
    nlohmann::json j = {{"problem", outcome.problem}, {"missing", outcome.missing}, {"seconds", outcome.seconds}};
    if (!outcome.access) return j;
    j["profile"] = outcome.access->profile;
    nlohmann::json instructions = nlohmann::json::array();
    for (const MappedInstruction& i : outcome.access->instructions) {
        const SassCounters& c = i.counters;
        instructions.push_back({{"offset", c.offset}, {"sass", c.sass}, {"line", i.line}, {"executed", c.executed}, {"stall_samples", c.stall_samples},
                                {"global", c.global}, {"shared", c.shared}, {"store", c.store}, {"sectors", c.l2_sectors},
                                {"ideal_sectors", c.l2_ideal_sectors}, {"wavefronts", c.shared_wavefronts}, {"ideal_wavefronts", c.shared_ideal_wavefronts}});
    }
    j["instructions"] = std::move(instructions);
    return j;
}

void print_line_profile(const LineProfileOutcome& outcome) {
    if (!outcome.access) {
        std::printf("  lines      no per-line counters: %s\n", outcome.problem.c_str());
        return;
    }
    if (outcome.access->profile.origin == LineAccessOrigin::emulated_device)
        std::printf("  lines      memory per source line (the emulated device, its first %u blocks):\n", AccessTracker::kCountedBlocks);
    else
        std::printf("  lines      memory per source line (ncu, %.1f s):\n", outcome.seconds);
    for (const std::string& row : line_access_table(outcome.access->profile)) std::printf("    %s\n", row.c_str());
    if (!outcome.missing.empty()) std::printf("    (ncu gave no %s)\n", join(outcome.missing).c_str());
}

int exit_code_for(const RunReport& report) {
    if (report.ok()) return report.check.passed ? kSuccess : kCheckFailed;
    if (is_cuda_error(report.error_code)) return kCudaError;
    switch (report.stage) {
        case Stage::compile: return report.compile.ok ? kInputError : kCompileError;
        case Stage::device: return kNoDevice;
        case Stage::run:
        case Stage::load:
        case Stage::check:
        case Stage::worker: return kCudaError;
        default: return kInputError;
    }
}

std::string human_bytes(double bytes) {
    char text[32];
    if (bytes >= 1 << 20) std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1 << 20));
    else if (bytes >= 1 << 10) std::snprintf(text, sizeof text, "%.1f KiB", bytes / (1 << 10));
    else std::snprintf(text, sizeof text, "%.0f B", bytes);
    return text;
}

// Which blocks' loads and stores a tracked run checked for races: all of a small grid's, else the first and the last.
std::string tracked_words(const RunReport& r) {
    const uint64_t blocks = static_cast<uint64_t>(r.launch.grid.x) * r.launch.grid.y * r.launch.grid.z;
    // --who-wrote and the writer map track every block.
    if (blocks <= kTrackedBlocks || !r.writers.empty() || !r.writer_map.empty()) return "; loads and stores tracked for races";
    return "; loads and stores of " + std::to_string(kTrackedBlocks) + " of its " + std::to_string(blocks) + " blocks (the first " +
           std::to_string(kTrackedBlocks - 1) + " and the last) tracked for races";
}

void print_setup(const RunReport& r) {
    if (r.device && r.emulated)
        std::printf("  device     %s; threads resumed in %s order%s\n", r.device->name.c_str(), thread_order_name(r.thread_order),
                    r.thorough ? "; thorough: AddressSanitizer and UBSan" : r.tracked ? tracked_words(r).c_str() : "");
    else if (r.device)
        std::printf("  device     [%d] %s (%s)\n", r.device->ordinal, r.device->name.c_str(), r.device->arch().c_str());
    if (r.emulated && reached(r, Stage::load))  // the emulated device's load is the host build (Stage::compile)
        std::printf("  host build %.1f ms (%s)\n", r.host_compile_ms, r.host_compile_cached ? "cached" : "g++/clang++ shared object");
    if (!reached(r, Stage::inputs)) return;
    const auto& f = r.function;
    if (!r.emulated)
        std::printf("  module     loaded in %.2f ms; %d registers/thread, %s static smem, %s local/thread\n", r.module_load_ms,
                    f.registers_per_thread, human_bytes(f.static_smem_bytes).c_str(), human_bytes(f.local_bytes_per_thread).c_str());
    if (!r.input_description.empty()) std::printf("  input      %s\n", r.input_description.c_str());
    if (r.spec && !r.sizes.empty()) {
        std::vector<std::string> sizes;
        for (const auto& name : r.spec->task.sizes.names)
            if (r.values.count(name)) sizes.push_back(name + "=" + std::to_string(r.values.at(name)));
        std::printf("  sizes      %s\n", join(sizes).c_str());
    }
    if (!reached(r, Stage::launch)) return;
    // A launch refused before it was planned (a bad --arg) has no grid or coverage to show.
    if (r.stage == Stage::launch && !r.ok() && r.coverage.threads == 0) return;
    std::printf("  launch     grid %s%s, block %s, dynamic smem %s\n", r.launch.grid.text().c_str(), r.launch.auto_grid ? " (auto)" : "",
                r.launch.block.text().c_str(), human_bytes(r.launch.dynamic_smem).c_str());
    for (const auto& then : r.following)
        std::printf("  then       %s: grid %s, block %s, dynamic smem %s (timed with the first as one run)\n", then.kernel.c_str(),
                    then.launch.grid.text().c_str(), then.launch.block.text().c_str(), human_bytes(then.launch.dynamic_smem).c_str());
    if (r.occupancy.blocks_per_sm > 0)
        std::printf("  occupancy  %d blocks/SM, %.0f%% of the SM's threads (theoretical)\n", r.occupancy.blocks_per_sm, 100 * r.occupancy.fraction);
    std::printf("  coverage   %lld threads for %lld elements: %s\n", static_cast<long long>(r.coverage.threads),
                static_cast<long long>(r.coverage.elements), r.coverage.note().c_str());
    if (!r.arguments.empty()) {
        std::vector<std::string> args;
        for (const auto& a : r.arguments) args.push_back((a.param.empty() ? "" : a.param + "=") + a.value + " (" + a.kind + ")");
        std::printf("  args       %s\n", join(args).c_str());
    }
}

void print_speed(const RunReport& r) {
    if (r.emulated) {
        std::printf("  speed      emulated on the CPU: %.2f GFLOP/s, %.2f GB/s (these say nothing about GPU speed)\n", r.gflops, r.gbps);
        return;
    }
    const bool flops = r.spec && r.spec->task.presentation.rate == RateUnit::flops;
    if (flops) std::printf("  speed      %.1f GFLOP/s, %.1f GB/s of minimum traffic\n", r.gflops, r.gbps);
    else std::printf("  speed      %.1f GB/s%s\n", r.gbps, r.flops > 0 ? (", " + short_number(r.gflops) + " GFLOP/s").c_str() : "");
    // The ceiling's own figure beside the verdict: 4162 GB/s, 51.41 TFLOP/s.
    const Ceiling& c = r.ceiling;
    char figure[48] = "";
    if (c.kind == CeilingKind::cublas && c.gflops > 0) std::snprintf(figure, sizeof figure, " (%.2f TFLOP/s)", c.gflops / 1000);
    else if (c.kind != CeilingKind::cublas && c.gbps > 0) std::snprintf(figure, sizeof figure, " (%.0f GB/s)", c.gbps);
    std::printf("  verdict    %s%s\n", r.verdict.c_str(), figure);
}

void print_check(const RunReport& r) {
    std::printf("  check      %s\n", r.check.summary.c_str());
    for (const BufferWrites& writes : r.writes) {
        const bool output = std::any_of(r.check.buffers.begin(), r.check.buffers.end(), [&](const BufferCheck& b) { return b.buffer == writes.buffer; });
        if (!output || (writes.written == writes.elements && writes.many == 0)) continue;
        std::printf("  writes     '%s': %llu of %llu elements written", writes.buffer.c_str(), static_cast<unsigned long long>(writes.written),
                    static_cast<unsigned long long>(writes.elements));
        if (writes.many) std::printf(", %llu by more than one thread", static_cast<unsigned long long>(writes.many));
        std::printf("\n");
    }
    for (const ElementWriter& writer : r.writers) std::printf("  who wrote  %s\n", describe_writer(writer).c_str());
    for (const Race& race : r.races) {
        std::printf("  race       %s%s: %s\n", race_kind_name(race), race.kernel.empty() ? "" : (" in " + race.kernel).c_str(),
                    describe_race(race).c_str());
        std::printf("             %s\n", race_advice(race).c_str());
    }
    if (!r.check.first_bad.empty()) std::printf("  first bad  %s\n", r.check.first_bad.c_str());
    std::string metrics;
    for (const auto& m : r.check.metrics) {
        char item[96];
        std::snprintf(item, sizeof item, "%s=%.4g", m.name.c_str(), m.value);
        metrics += (metrics.empty() ? "" : " ") + std::string(item);
    }
    std::printf("  metrics    %s\n", metrics.c_str());
    if (r.check.buffers.size() > 1)
        for (const auto& b : r.check.buffers) std::printf("  output     %s\n", b.summary.c_str());
    for (const auto& size : r.check.sizes)
        std::printf("  also at    %s: %s\n", size.sizes.c_str(), size.skipped ? size.summary.c_str() : size.passed ? "PASS" : size.summary.c_str());
}

void print_text(const RunReport& r) {
    // Only what was found: a run that stopped before its spec says nothing of a task or kernel here
    // (the error on stderr says why).
    std::string found;
    if (!r.task.empty()) found += "task " + r.task;
    if (!r.kernel.empty()) found += (found.empty() ? "" : ", ") + std::string("kernel ") + r.kernel;
    if (!found.empty()) std::printf("%s: %s\n", r.file.c_str(), found.c_str());
    if (r.spec && !r.spec->inferred.empty()) std::printf("  inferred   %s\n", join(r.spec->inferred, "; ").c_str());
    if (!r.compile.arch.empty())
        std::printf("  compile    %s, %.1f ms (%s%s)%s\n", r.compile.arch.c_str(), r.compile.cache_hit ? r.compile.lookup_ms : r.compile.compile_ms,
                    r.compile.cache_hit ? "cache hit" : "cache miss",
                    r.compile.cache_hit ? (", first compile " + std::to_string(static_cast<int>(std::lround(r.compile.compile_ms))) + " ms").c_str() : "",
                    r.compile.count(Severity::warning) ? (", " + std::to_string(r.compile.count(Severity::warning)) + " warnings").c_str() : "");
    if (!r.compile.ok) print_diagnostics(std::cout, r.compile);
    print_setup(r);
    if (r.ok()) {
        std::printf("  kernel     median %.4f ms (min %.4f, max %.4f, stddev %.4f) over %d runs after %d warm-up%s\n", r.kernel_ms.median,
                    r.kernel_ms.min, r.kernel_ms.max, r.kernel_ms.stddev, r.kernel_ms.count, r.warmup, r.l2_flushed ? ", L2 flushed" : "");
        if (!r.emulated && r.kernel_ms.count > 0) std::printf("  clocks     %s\n", conditions_text(r.conditions).c_str());
        std::printf("  transfers  H2D %.2f ms, D2H %.2f ms; inputs made in %.1f ms\n", r.h2d_ms, r.d2h_ms, r.inputs_ms);
        std::printf("  reference  %s, %s\n", r.check.reference.c_str(),
                    r.check.reference_cached ? "cached" : (std::to_string(static_cast<int>(std::lround(r.check.reference_ms))) + " ms").c_str());
        print_speed(r);
        print_check(r);
    }
    for (const auto& warning : r.warnings) std::printf("  warning    %s\n", warning.c_str());
    if (!r.printf_lines.empty() || r.printf_dropped) {
        std::printf("  printf     %zu lines%s\n", r.printf_lines.size(),
                    r.printf_dropped ? (" (" + std::to_string(r.printf_dropped) + " more dropped)").c_str() : "");
        for (const auto& line : r.printf_lines) std::printf("    %s\n", line.c_str());
    }
    if (!r.ok()) {
        std::fflush(stdout);  // the report first, then the error, also when both go to one terminal or pipe
        std::fprintf(stderr, "kplay-cli: %s failed: %s\n", stage_label(r.stage), r.error.c_str());
        if (!r.fault.hint.empty()) std::fprintf(stderr, "  hint: %s\n", r.fault.hint.c_str());
        if (!r.fault.sanitizer_command.empty()) std::fprintf(stderr, "  to find the line: %s\n", r.fault.sanitizer_command.c_str());
    }
}

// The output as PNG: an image output as it is, a matrix as its error map scaled to its worst cell.
// Returns false (with a message) for outputs that are not pictures.
bool save_output(const RunReport& r, const std::string& path) {
    const OutputView& view = r.view;
    if (save_output_view_png(view, path)) return true;
    std::fprintf(stderr, "kplay-cli: --out writes image outputs and matrix error maps; this task's output is a %s\n",
                 spec_name(view.kind));
    return false;
}

}  // namespace

// --no-track and --who-wrote into the request; the usage problem, or empty.
std::string read_tracking(const RunOptionsCli& o, RunRequest& request) {
    request.emulation_track = !o.no_track;
    for (const std::string& element : o.who_wrote) {
        ElementRef ref = parse_element_ref(element);
        if (ref.buffer.empty()) return "--who-wrote '" + element + "': expected BUFFER[INDEX], e.g. --who-wrote 'out[13]'";
        request.who_wrote.push_back(std::move(ref));
    }
    if (request.who_wrote.empty()) return {};
    if (o.no_track) return "--who-wrote needs the emulated device's tracking, which --no-track turns off";
    if (!o.device.empty() && o.device != "cpu") return "--who-wrote runs on the emulated device (--device cpu): a GPU does not record writers";
    request.emulate = true;
    return {};
}

// The emulated device's own options: thread order, thorough and tracked builds, a debugger's build.
void add_emulation_options(CLI::App* command, RunOptionsCli& o) {
    one_of(command->add_option("--order", o.order, "Emulated device: order threads are resumed in (forward, reverse, random)"),
           {"forward", "reverse", "random"});
    command->add_option("--order-seed", o.order_seed, "Emulated device: seed of the random thread order");
    command->add_flag("--thorough", o.thorough,
                      "Emulated device with AddressSanitizer and UBSan (one worker thread): finds overflows of local and shared "
                      "arrays and undefined behaviour, with the CUDA thread that did it");
    command->add_option("--who-wrote", o.who_wrote, "Emulated device: name the thread that last wrote an element, e.g. 'out[13]' (repeatable)")
        ->allow_extra_args(false);  // one element each, so a FILE after it stays the FILE
    command->add_flag("--no-track", o.no_track, "Emulated device: no tracking of loads and stores (faster, all cores; no race looked for)");
    command->add_flag("--debug-build", o.debug_build,
                      "Emulated device built for a debugger: -O0 -g, one worker thread, no seccomp filter, no time limit "
                      "(what `kplay-cli debug` runs under gdb, with --in-process)");
}

std::function<int()> add_run_command(CLI::App& app) {
    auto o = std::make_shared<RunOptionsCli>();
    auto* command = app.add_subcommand("run", "Compile, launch, time and check a kernel");
    command->add_option("FILE", o->file, "Kernel file (.cu)")->required();
    command->add_option("--image", o->image, "Input image (PNG or JPEG), RGB or grayscale as the task reads it; default: the built-in image");
    command->add_option("--size", o->size,
                        "The task's sizes: one value per size name (1000x999x1001), NAME=VALUE pairs (R=3,C=1000), or one value for "
                        "all; replaces the default and the test sizes");
    command->add_flag("--no-test-sizes", o->no_test_sizes, "Check only the run's own size (not the task's test sizes and a second seed)");
    command->add_option("--block", o->block, "Block size X[,Y[,Z]] (overrides the annotation)");
    command->add_option("--grid", o->grid, "Grid: auto, or X[,Y[,Z]]");
    command->add_option("--smem", o->smem, "Dynamic shared memory in bytes");
    command->add_option("--arg", o->args, "Set a literal argument, e.g. tw=32 (repeatable)");
    command->add_option("-D,--define", o->defines, "Preprocessor define NAME=VALUE (repeatable)");
    command->add_option("-I,--include", o->includes,
                        "A header folder to search after the file's include= folders (repeatable; also KPLAY_INCLUDE_PATH)");
    command->add_option("--init", o->inits, "Fill an input another way for this run, e.g. pixels=randint(0,255) (repeatable)");
    command->add_option("--warmup", o->warmup, "Untimed launches before timing")->check(CLI::Range(0, 1000));
    command->add_option("--repeat", o->repeat, "Timed launches (median reported)")->check(CLI::Range(1, 100000));
    command->add_option("--seed", o->seed, "Seed of the random inputs");
    command->add_option("--tol", o->tolerance,
                        "Replaces the leading tolerance of each output's check (grayscale: levels, default 1; matmul: multiple of "
                        "u*sqrt(K)*|A||B|, default 2)");
    add_device_option(command, o->device);
    add_emulation_options(command, *o);
    command->add_option("--arch", o->arch, "Compile for this target instead of the device's");
    command->add_flag("--no-l2-flush", o->no_flush, "Do not flush L2 between timed runs");
    command->add_option("--out", o->out, "Write the output as PNG: an image output, or a matrix output's |C-R| map");
    command->add_flag("--json", o->json, "Print JSON (schema in docs/CLI.md)");
    add_remote_options(command, o->remote);
    command->add_option("--timeout", o->timeout, "Stop the kernel after this many seconds (default 5; emulated: 10 for each million threads of a launch, at least 10)")->check(CLI::PositiveNumber);
    command->add_flag("--find-fault{memcheck}", o->find_fault,
                      "After a GPU fault: run the same launch on the emulated device, and under compute-sanitizer where it is "
                      "installed, to find the kernel line. --find-fault=racecheck, =synccheck or =initcheck: run a GPU launch (passing "
                      "or not) under that compute-sanitizer tool and show the lines of its shared-memory races, barrier errors or "
                      "reads of memory nothing wrote");
    command->add_flag("--profile", o->profile, "Run the kernel once more under Nsight Compute (ncu) and print its summary");
    command->add_flag("--line-access", o->line_access,
                      "Print memory per source line: sectors per request against the ideal (coalescing), shared-memory wavefronts "
                      "against the ideal (bank conflicts); on a GPU from Nsight Compute (one more run under ncu, with warp stall "
                      "samples), on the emulated device from the tracked run itself");
    command->add_option("--sections", o->sections, "ncu sections for --profile (default: SpeedOfLight Occupancy WarpStateStats "
                                                   "MemoryWorkloadAnalysis LaunchStats)");
    command->add_flag("--in-process", o->in_process,
                      "Run the engine in this process instead of kplay-worker (for compute-sanitizer and debuggers)");
    return [o, command] {
        if (o->in_process && (!o->remote.remote.empty() || !o->remote.command.empty())) {
            std::cerr << "kplay-cli: --in-process runs the engine in this process; it cannot be combined with --remote or --remote-command\n";
            return static_cast<int>(kUsageError);
        }
        const std::optional<SanitizerTool> tool = o->find_fault.empty() ? std::nullopt : parse_sanitizer_tool(o->find_fault);
        if (!o->find_fault.empty() && !tool) {
            std::cerr << "kplay-cli: --find-fault=" << o->find_fault << ": no such compute-sanitizer tool (known: " << sanitizer_tool_names() << ")\n";
            return static_cast<int>(kUsageError);
        }
        RunRequest request;
        request.kernel_path = o->file;
        request.inputs.image_path = o->image;
        request.inputs.size = o->size;
        request.inputs.seed = o->seed;
        if (!o->block.empty()) request.block = parse_dims(o->block, "--block");
        if (!o->grid.empty()) request.grid = o->grid == "auto" ? std::vector<int64_t>{} : parse_dims(o->grid, "--grid");
        if (o->smem >= 0) request.smem = o->smem;
        for (const auto& arg : o->args) request.arg_overrides.insert(parse_assignment(arg, "--arg"));
        for (const auto& define : o->defines) request.defines.push_back(parse_assignment(define, "-D"));
        request.include_dirs = include_folders(o->includes);
        for (const auto& init : o->inits) request.init_overrides.insert(parse_assignment(init, "--init"));
        if (o->tolerance >= 0) request.tolerance = o->tolerance;
        request.arch = o->arch;
        request.emulate_without_gpu = o->device.empty();  // an ordinal asked for means a GPU or an error
        if (o->device == "cpu") request.emulate = true;
        else if (!o->device.empty()) request.device = parse_device_ordinal(o->device);
        request.thread_order = parse_thread_order(o->order).value_or(ThreadOrder::forward);
        request.check_test_sizes = !o->no_test_sizes;
        request.order_seed = o->order_seed;
        if (command->count("--timeout")) request.emulation_timeout_s = o->timeout;
        if (const std::string problem = read_tracking(*o, request); !problem.empty()) {
            std::cerr << "kplay-cli: " << problem << "\n";
            return static_cast<int>(kUsageError);
        }
        if (o->thorough) {
            request.emulate = true;
            request.emulation_thorough = true;
        }
        if (o->debug_build) {
            request.emulate = true;
            request.emulation_debug = true;
        }
        request.warmup = o->warmup;
        request.repeat = o->repeat;
        request.flush_l2 = !o->no_flush;
        request.keep_outputs = !o->out.empty();

        RunReport report;
        if (o->in_process) {
            Engine engine(default_engine_config());
            report = engine.run(request);
        } else {
            WorkerOptions options = worker_options(o->remote);
            options.run_timeout_s = o->timeout;
            options.thorough = o->thorough;  // a worker with the sanitizer runtimes preloaded
            WorkerClient client(options);
            report = client.wait(client.submit_run(request)).run;
        }
        std::vector<FaultLocation> locations;
        if (tool == SanitizerTool::memcheck && can_find_fault_line(report)) locations = find_fault_line(request, report, o->in_process);
        else if (tool && *tool != SanitizerTool::memcheck && can_run_sanitizer(report, *tool))
            locations.push_back(find_fault_with_sanitizer(own_path(), request, report, 600, *tool));
        std::optional<ProfileOutcome> profile;
        if (o->profile && report.ok() && report.emulated)
            profile = ProfileOutcome{std::nullopt, "Nsight Compute profiles GPU runs; this one ran on the emulated device.", 0};
        else if (o->profile && report.ok())
            profile = profile_with_ncu(own_path(), request, report, o->sections.empty() ? default_profile_sections() : o->sections);
        std::optional<LineProfileOutcome> lines;
        if (o->line_access && report.ok()) lines = profile_lines(request, report, o->remote);
        if (o->json) {
            nlohmann::json out = to_json(report);
            if (lines) out["line_access"] = line_profile_json(*lines);
            if (tool) {
                out["fault_locations"] = nlohmann::json::array();
                for (const auto& location : locations) out["fault_locations"].push_back(location_json(location));
            }
            if (profile) out["profile"] = profile_json(*profile);
            std::cout << out.dump(2) << "\n";
        } else {
            print_text(report);
            for (const auto& location : locations) print_location(location, o->file);
            if (tool == SanitizerTool::memcheck && !report.ok() && !report.emulated && locations.empty())
                std::fprintf(stderr, "  no line    --find-fault looks for GPU faults that stop the context; this run did not have one\n");
            if (tool && *tool != SanitizerTool::memcheck && locations.empty())
                std::fprintf(stderr, "  no line    --find-fault=%s runs compute-sanitizer on a GPU launch; this run %s\n", o->find_fault.c_str(),
                             report.emulated ? "was on the emulated device" : "did not launch its kernel");
            if (profile) print_profile(*profile);
            if (lines) print_line_profile(*lines);
        }
        if (report.ok() && !o->out.empty()) {
            if (!save_output(report, o->out)) return static_cast<int>(kInputError);
            if (!o->json) std::printf("  output     written to %s\n", o->out.c_str());
        }
        return static_cast<int>(exit_code_for(report));
    };
}

}  // namespace kplay::cli
