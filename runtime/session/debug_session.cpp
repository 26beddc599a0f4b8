// The debugger's steps as MI commands: two meeting points, a conditional breakpoint, next, continue.
#include "session/debug_session.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

#include "base/subprocess.hpp"
#include "session/gdb_process.hpp"

namespace kplay {

const char* debug_state_name(DebugState state) {
    switch (state) {
        case DebugState::stopped: return "stopped";
        case DebugState::thread_returned: return "thread_returned";
        case DebugState::launch_ended: return "launch_ended";
        case DebugState::failed: return "failed";
    }
    return "failed";
}

std::vector<std::string> shared_names(const std::string& source) {
    // `__shared__ float tile[16][16];`, `extern __shared__ __align__(16) unsigned char s[];`: the name
    // is the first identifier followed by '[', '=' or ';'.
    static const std::regex declaration(R"(__shared__\s+[^;=]*?\b([A-Za-z_]\w*)\s*(\[|=|;))");
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(source.begin(), source.end(), declaration); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1];
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    return names;
}

std::string gpu_debugging_note() {
    const std::string cuda_gdb = find_in_path("cuda-gdb");
    if (cuda_gdb.empty())
        return "The debugger stops threads of the emulated CPU device; the GPU path (cuda-gdb) is not offered here: cuda-gdb is not installed.";
    return "The debugger stops threads of the emulated CPU device; the GPU path is not offered: kplay does not yet build kernels "
           "with -G for cuda-gdb (found at " + cuda_gdb + ").";
}

namespace {

std::string index_text(const DebugIndex& index) {
    return "(" + std::to_string(index[0]) + "," + std::to_string(index[1]) + "," + std::to_string(index[2]) + ")";
}

std::string dims_text(const DebugIndex& index) {
    return std::to_string(index[0]) + "x" + std::to_string(index[1]) + "x" + std::to_string(index[2]);
}

// gdb's condition: the running CUDA thread (the prelude's current_thread) is the chosen one.
std::string thread_condition(const DebugIndex& block, const DebugIndex& thread) {
    std::string condition;
    const char* axes[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        condition += std::string(i ? " && " : "") + "kplay_emu::current_thread->thread_idx." + axes[i] + "==" + std::to_string(thread[i]);
        condition += std::string(" && kplay_emu::current_thread->block->block_idx.") + axes[i] + "==" + std::to_string(block[i]);
    }
    return condition;
}

// CUDA's built-ins are the prelude's macros, which gdb cannot expand at the user's lines (their #line
// names another file than the one the macros were defined in): `threadIdx.x` becomes the expression
// the macro stands for.
std::string with_builtins_expanded(const std::string& expression) {
    static const std::pair<std::regex, const char*> builtins[] = {
        {std::regex(R"(\bthreadIdx\b)"), "kplay_emu::current_thread->thread_idx"},
        {std::regex(R"(\bblockIdx\b)"), "kplay_emu::current_thread->block->block_idx"},
        {std::regex(R"(\bblockDim\b)"), "kplay_emu::current_thread->block->block_dim"},
        {std::regex(R"(\bgridDim\b)"), "kplay_emu::current_thread->block->grid_dim"}};
    std::string text = expression;
    for (const auto& [pattern, replacement] : builtins) text = std::regex_replace(text, pattern, replacement);
    return text;
}

std::string read_text_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

int line_count(const std::string& text) {
    int lines = 0;
    for (char c : text) lines += c == '\n';
    return lines + (!text.empty() && text.back() != '\n');
}

}  // namespace

struct DebugSession::Impl {
    DebugRequest request;
    std::optional<GdbProcess> gdb;
    std::string source;
    int source_lines = 0;
    std::vector<std::string> shared;
    std::filesystem::path output;  // the run's stdout and stderr (gdb's inferior-tty)
    std::optional<DebugStop> returned;  // the chosen thread has left the kernel: nothing more to step

    DebugStop failure(const std::string& message) {
        DebugStop stop;
        stop.message = message;
        end();
        return stop;
    }

    void end() noexcept {
        if (gdb) gdb->kill();
        gdb.reset();
        if (!output.empty()) {
            std::error_code ignored;
            std::filesystem::remove(output, ignored);
            output.clear();
        }
    }

    // The last lines the run printed (why it ended before the launch: a compile error, a bad size).
    std::string run_output() const {
        std::string text = read_text_file(output);
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
        if (text.size() > 2000) text = "..." + text.substr(text.size() - 2000);
        return text.empty() ? "" : "\nThe run printed:\n" + text;
    }

    std::optional<unsigned> evaluate_unsigned(const std::string& expression) {
        const MiAnswer answer = gdb->command("-data-evaluate-expression " + mi_quote(expression));
        if (!answer.ok) return std::nullopt;
        try {
            return static_cast<unsigned>(std::stoul(answer.result.text_of("value")));
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }

    std::optional<DebugIndex> evaluate_index(const std::string& prefix) {
        DebugIndex index{};
        const char* axes[] = {"x", "y", "z"};
        for (int i = 0; i < 3; ++i) {
            const auto value = evaluate_unsigned(prefix + "." + axes[i]);
            if (!value) return std::nullopt;
            index[i] = *value;
        }
        return index;
    }

    DebugVariable variable(const std::string& name) {
        DebugVariable v{name, "", ""};
        const MiAnswer created = gdb->command("-var-create - * " + mi_quote(name));
        if (created.ok) {
            v.type = created.result.text_of("type");
            gdb->command("-var-delete " + created.result.text_of("name"));
        }
        const MiAnswer value = gdb->command("-data-evaluate-expression " + mi_quote(name));
        v.value = value.ok ? value.result.text_of("value") : "<" + value.error + ">";
        return v;
    }

    // Where the program stopped, read back from it: the frame, the CUDA thread, the variables.
    DebugStop read_stop(const MiRecord& stopped) {
        DebugStop stop;
        stop.state = DebugState::stopped;
        if (const MiValue* frame = stopped.results.find("frame")) {
            stop.file = frame->text_of("file");
            stop.function = frame->text_of("func");
            try {
                stop.line = std::stoi(frame->text_of("line", "0"));
            } catch (const std::exception&) {
                stop.line = 0;
            }
        }
        const bool in_kernel_file = std::filesystem::path(stop.file).filename() == request.file.filename();
        if (!in_kernel_file || stop.line < 1 || stop.line > source_lines) {
            stop.state = DebugState::thread_returned;
            stop.message = "thread " + index_text(request.thread) + " of block " + index_text(request.block) + " returned from the kernel.";
            returned = stop;
            return stop;
        }
        if (const auto thread = evaluate_index("kplay_emu::current_thread->thread_idx")) stop.thread = *thread;
        if (const auto block = evaluate_index("kplay_emu::current_thread->block->block_idx")) stop.block = *block;
        const MiAnswer listed = gdb->command("-stack-list-variables --no-values");
        std::vector<std::string> names;
        if (const MiValue* variables = listed.result.results.find("variables"))
            for (const auto& [unused, entry] : variables->items) names.push_back(entry.text_of("name"));
        for (const std::string& name : names)
            if (std::find(shared.begin(), shared.end(), name) == shared.end()) stop.locals.push_back(variable(name));
        for (const std::string& name : shared) {
            DebugVariable v = variable(name);
            if (v.type.empty()) continue;  // not in scope here (another kernel's)
            stop.shared.push_back(std::move(v));
        }
        return stop;
    }

    // What a resumed program's stop means: the chosen thread at a line, the launch over, or a failure.
    DebugStop interpret(const MiAnswer& answer, const std::string& waiting_for) {
        if (!answer.ok || !answer.stopped) return failure("gdb: " + answer.error + " (" + waiting_for + ")");
        const MiRecord& stopped = *answer.stopped;
        const std::string reason = stopped.text_of("reason");
        if (reason == "exited-normally" || reason == "exited") {
            DebugStop stop;
            stop.state = DebugState::launch_ended;
            stop.message = "The launch ended" +
                           (reason == "exited" ? " (its process exited with code " + stopped.text_of("exit-code") + ")" : std::string()) +
                           " without thread " + index_text(request.thread) + " of block " + index_text(request.block) + " reaching line " +
                           std::to_string(request.line) + (waiting_for == "continue" ? " again." : ".");
            end();
            return stop;
        }
        if (reason == "signal-received") {
            const MiValue* frame = stopped.results.find("frame");
            const std::string where = frame ? " at " + frame->text_of("file", "?") + ":" + frame->text_of("line", "?") : "";
            return failure("The launch stopped on " + stopped.text_of("signal-name") + " (" + stopped.text_of("signal-meaning") + ")" + where +
                           ": the kernel faulted.");
        }
        return read_stop(stopped);
    }

    DebugStop start(const DebugRequest& given) {
        request = given;
        returned.reset();
        source = read_text_file(request.file);
        source_lines = line_count(source);
        if (source.empty()) return failure("Cannot read the kernel file " + request.file.string() + ".");
        if (request.line < 1 || request.line > source_lines)
            return failure("Line " + std::to_string(request.line) + " is not in " + request.file.filename().string() + " (it has " +
                           std::to_string(source_lines) + " lines).");
        shared = shared_names(source);
        std::string output_template = (std::filesystem::temp_directory_path() / "kplay-debug-run-XXXXXX").string();
        const int fd = mkstemp(output_template.data());
        if (fd < 0) return failure("Cannot make a temporary file for the run's output.");
        close(fd);
        output = output_template;

        std::vector<std::string> program{request.kplay_cli.string(), "run", request.file.string(), "--in-process", "--debug-build",
                                         "--no-test-sizes", "--warmup", "0", "--repeat", "1"};
        program.insert(program.end(), request.run_arguments.begin(), request.run_arguments.end());
        std::string problem;
        gdb = GdbProcess::start(request.gdb, program, problem);
        if (!gdb) return failure(problem);
        for (const char* setting : {"-gdb-set confirm off", "-gdb-set pagination off", "-gdb-set debuginfod enabled off",
                                    "-gdb-set follow-fork-mode parent", "-gdb-set detach-on-fork on", "-gdb-set print elements 64"})
            gdb->command(setting);  // debuginfod is absent from some builds: a refusal is harmless
        // The emulated device's preemption timer (emu/preemption.cpp: SIGRTMIN + 3) must pass silently.
        gdb->command("-interpreter-exec console " + mi_quote("handle SIG" + std::to_string(SIGRTMIN + 3) + " nostop noprint pass"));
        gdb->command("-inferior-tty-set " + mi_quote(output.string()));
        if (const MiAnswer point = gdb->command("-break-insert kplay_emu_debug_launch_begins"); !point.ok)
            return failure(request.kplay_cli.string() + " has no debug launch point (gdb: " + point.error + ").");
        const MiAnswer ran = gdb->run("-exec-run", request.timeout_s);
        if (!ran.ok || !ran.stopped || ran.stopped->text_of("reason") != "breakpoint-hit")
            return failure("The run ended before its launch" + (ran.ok ? std::string() : " (gdb: " + ran.error + ")") + "." + run_output());
        // Follow the launch's own process from here on, to the moment its kernel is loaded.
        gdb->command("-gdb-set follow-fork-mode child");
        gdb->command("-break-insert kplay_emu_debug_kernel_loaded");
        const MiAnswer loaded = gdb->run("-exec-continue", request.timeout_s);
        if (!loaded.ok || !loaded.stopped || loaded.stopped->text_of("reason") != "breakpoint-hit")
            return failure("The launch process ended before its kernel was loaded." + run_output());
        if (DebugStop refused = check_indices(); refused.state == DebugState::failed && !refused.message.empty()) return refused;
        return run_to_line();
    }

    // The chosen block and thread, against the launch's grid and block (read from the launch process).
    // kplay_emu_debug_launch is six unsigned values (grid x, y, z, block x, y, z), read as such: an
    // installed kplay-cli is stripped of the debug information that would give their names.
    DebugStop check_indices() {
        DebugStop ok;
        DebugIndex grid_dims{}, block_dims{};
        for (int i = 0; i < 6; ++i) {
            const auto value = evaluate_unsigned("((unsigned*)&kplay_emu_debug_launch)[" + std::to_string(i) + "]");
            if (!value) return failure("Cannot read the launch's geometry from the launch process.");
            (i < 3 ? grid_dims : block_dims)[i % 3] = *value;
        }
        const std::optional<DebugIndex> grid = grid_dims, block = block_dims;
        for (int i = 0; i < 3; ++i) {
            if (request.block[i] >= (*grid)[i])
                return failure("Block " + index_text(request.block) + " is not in the grid: the launch has " + dims_text(*grid) + " blocks.");
            if (request.thread[i] >= (*block)[i])
                return failure("Thread " + index_text(request.thread) + " is not in the block: the launch's blocks have " + dims_text(*block) +
                               " threads.");
        }
        return ok;
    }

    DebugStop run_to_line() {
        const std::string location = request.file.filename().string() + ":" + std::to_string(request.line);
        const MiAnswer point =
            gdb->command("-break-insert -c " + mi_quote(thread_condition(request.block, request.thread)) + " " + mi_quote(location));
        if (!point.ok) return failure("Cannot stop at " + location + ": " + point.error);
        std::string note;
        if (const MiValue* bkpt = point.result.results.find("bkpt")) {
            const std::string placed = bkpt->text_of("line");
            if (!placed.empty() && placed != std::to_string(request.line))
                note = "Line " + std::to_string(request.line) + " has no code of its own; the breakpoint is at line " + placed + ".";
        }
        DebugStop stop = interpret(gdb->run("-exec-continue", request.timeout_s), "run to line");
        if (stop.message.empty()) stop.message = note;
        return stop;
    }
};

DebugSession::DebugSession() : impl_(std::make_unique<Impl>()) {}
DebugSession::DebugSession(DebugSession&&) noexcept = default;
DebugSession& DebugSession::operator=(DebugSession&&) noexcept = default;
DebugSession::~DebugSession() noexcept { finish(); }

DebugStop DebugSession::start(const DebugRequest& request) {
    impl_->end();
    return impl_->start(request);
}

DebugStop DebugSession::step() {
    if (!active()) return impl_->failure("No debug session is running.");
    // Past the kernel's end a `next` would step the emulator itself (and its other fibers): stay put.
    if (impl_->returned) return *impl_->returned;
    return impl_->interpret(impl_->gdb->run("-exec-next", impl_->request.timeout_s), "step");
}

DebugStop DebugSession::continue_() {
    if (!active()) return impl_->failure("No debug session is running.");
    return impl_->interpret(impl_->gdb->run("-exec-continue", impl_->request.timeout_s), "continue");
}

DebugVariable DebugSession::evaluate(const std::string& expression) {
    if (!active()) return {expression, "", "<no debug session is running>"};
    DebugVariable value = impl_->variable(with_builtins_expanded(expression));
    value.name = expression;
    return value;
}

void DebugSession::finish() noexcept {
    if (impl_) impl_->end();
}

bool DebugSession::active() const { return impl_ && impl_->gdb.has_value(); }

}  // namespace kplay
