// `kplay-cli debug FILE --block B --thread T --line N --do step,continue,print:EXPR`: one CUDA thread of
// an emulated launch under gdb, driven by a script; each stop printed (text or JSON).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/text.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "option_parsing.hpp"
#include "session/debug_session.hpp"

namespace kplay::cli {

namespace {

struct DebugOptionsCli {
    std::string file, block = "0,0,0", thread = "0,0,0", size, gdb = "gdb";
    std::vector<std::string> actions, defines, args;
    int line = 0;
    bool json = false;
    double timeout = 120;
};

DebugIndex index_of(const std::string& text, const char* option) {
    const std::vector<int64_t> dims = parse_dims(text, option);
    DebugIndex index{0, 0, 0};
    for (size_t i = 0; i < dims.size() && i < 3; ++i) {
        if (dims[i] < 0) throw std::invalid_argument(std::string(option) + " " + text + ": an index is 0 or more");
        index[i] = static_cast<unsigned>(dims[i]);
    }
    return index;
}

std::string index_text(const DebugIndex& index) {
    return "(" + std::to_string(index[0]) + "," + std::to_string(index[1]) + "," + std::to_string(index[2]) + ")";
}

nlohmann::json variables_json(const std::vector<DebugVariable>& variables) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& v : variables) list.push_back({{"name", v.name}, {"type", v.type}, {"value", v.value}});
    return list;
}

nlohmann::json stop_json(const std::string& action, const DebugStop& stop) {
    return {{"action", action}, {"state", debug_state_name(stop.state)}, {"file", stop.file}, {"line", stop.line},
            {"function", stop.function}, {"block", stop.block}, {"thread", stop.thread}, {"locals", variables_json(stop.locals)},
            {"shared", variables_json(stop.shared)}, {"message", stop.message}};
}

// The source line's own text, for the stop's second line.
std::string source_line(const std::string& file, int line) {
    std::ifstream in(file);
    std::string text;
    for (int number = 1; std::getline(in, text); ++number)
        if (number == line) return text;
    return "";
}

void print_variables(const char* label, const std::vector<DebugVariable>& variables) {
    for (size_t i = 0; i < variables.size(); ++i)
        std::printf("  %-8s %s = %s  (%s)\n", i == 0 ? label : "", variables[i].name.c_str(), variables[i].value.c_str(), variables[i].type.c_str());
}

void print_stop(const std::string& action, const DebugStop& stop, const std::string& file) {
    if (stop.state == DebugState::failed) {
        std::fflush(stdout);
        std::fprintf(stderr, "kplay-cli: %s\n", stop.message.c_str());
        return;
    }
    if (stop.state != DebugState::stopped) {
        std::printf("%-10s %s: %s\n", action.c_str(), debug_state_name(stop.state), stop.message.c_str());
        return;
    }
    std::printf("%-10s stopped at %s:%d in %s, block %s thread %s\n", action.c_str(), stop.file.c_str(), stop.line, stop.function.c_str(),
                index_text(stop.block).c_str(), index_text(stop.thread).c_str());
    std::printf("  %6d | %s\n", stop.line, source_line(file, stop.line).c_str());
    if (!stop.message.empty()) std::printf("  note     %s\n", stop.message.c_str());
    print_variables("locals", stop.locals);
    print_variables("shared", stop.shared);
}

std::filesystem::path own_path() {
    std::error_code error;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path("kplay-cli") : path;
}

int run_debug(const DebugOptionsCli& o) {
    DebugRequest request;
    request.kplay_cli = own_path();
    request.file = o.file;
    request.block = index_of(o.block, "--block");
    request.thread = index_of(o.thread, "--thread");
    request.line = o.line;
    request.gdb = o.gdb;
    request.timeout_s = o.timeout;
    if (!o.size.empty()) request.run_arguments = {"--size", o.size};
    for (const auto& define : o.defines) request.run_arguments.insert(request.run_arguments.end(), {"-D", define});
    for (const auto& arg : o.args) request.run_arguments.insert(request.run_arguments.end(), {"--arg", arg});
    // Every action is known before gdb starts: a typo is a usage error, not a half-run script.
    for (const auto& action : o.actions)
        if (action != "step" && action != "continue" && action.rfind("print:", 0) != 0) {
            std::cerr << "kplay-cli: --do " << action << ": not an action (step, continue, print:EXPR)\n";
            return kUsageError;
        }

    DebugSession session;
    nlohmann::json stops = nlohmann::json::array();
    DebugStop stop = session.start(request);
    bool failed = stop.state == DebugState::failed;
    auto show = [&](const std::string& action, const DebugStop& s) {
        if (o.json) stops.push_back(stop_json(action, s));
        else print_stop(action, s, o.file);
    };
    show("run", stop);
    for (const auto& action : o.actions) {
        if (!session.active()) break;
        if (action.rfind("print:", 0) == 0) {
            const DebugVariable value = session.evaluate(action.substr(6));
            if (o.json) stops.push_back({{"action", action}, {"name", value.name}, {"type", value.type}, {"value", value.value}});
            else std::printf("%-10s %s = %s  (%s)\n", "print", value.name.c_str(), value.value.c_str(), value.type.c_str());
            continue;
        }
        stop = action == "step" ? session.step() : session.continue_();
        failed = failed || stop.state == DebugState::failed;
        show(action, stop);
    }
    session.finish();
    if (o.json) std::cout << nlohmann::json{{"file", o.file}, {"stops", stops}, {"gpu", gpu_debugging_note()}}.dump(2) << "\n";
    return failed ? kInputError : kSuccess;
}

}  // namespace

std::function<int()> add_debug_command(CLI::App& app) {
    auto o = std::make_shared<DebugOptionsCli>();
    auto* command = app.add_subcommand("debug",
                                       "Stop one CUDA thread of an emulated launch at a line under gdb, step it, read its locals and its "
                                       "block's shared arrays (the emulated CPU device only; not a GPU run under cuda-gdb)");
    command->add_option("FILE", o->file, "Kernel file (.cu)")->required();
    command->add_option("--block", o->block, "The block's index X[,Y[,Z]] (default 0,0,0)");
    command->add_option("--thread", o->thread, "The thread's index in its block X[,Y[,Z]] (default 0,0,0)");
    command->add_option("--line", o->line, "The kernel line to run to")->required()->check(CLI::PositiveNumber);
    command->add_option("--do", o->actions, "What to do at each stop, in order: step, continue, print:EXPR (comma-separated or repeated)")
        ->delimiter(',');
    command->add_option("--size", o->size, "The task's sizes, as kplay-cli run --size");
    command->add_option("-D,--define", o->defines, "Preprocessor define NAME=VALUE (repeatable)");
    command->add_option("--arg", o->args, "Set a literal argument, e.g. tw=32 (repeatable)");
    command->add_option("--gdb", o->gdb, "The gdb to drive (default: gdb in PATH)");
    command->add_option("--timeout", o->timeout, "Seconds for the launch to reach the line, and for each step (default 120)")
        ->check(CLI::PositiveNumber);
    command->add_flag("--json", o->json, "Print the stops as JSON");
    return [o] { return run_debug(*o); };
}

}  // namespace kplay::cli
