// Reaching, starting and restarting the compile server (compiler_process.hpp).
#include "compile/compiler_process.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <thread>
#include <vector>

#include "compile/compile_wire.hpp"
#include "compile/heavy_headers.hpp"

extern char** environ;

namespace kplay {

namespace fs = std::filesystem;

namespace {

// The server's environment: the worker's, less the sanitizer runtimes a thorough worker preloads.
std::vector<std::string> server_environment() {
    std::vector<std::string> entries;
    for (char** entry = environ; *entry; ++entry)
        if (std::strncmp(*entry, "LD_PRELOAD=", 11) != 0) entries.emplace_back(*entry);
    return entries;
}

// Starts `program --compile-server socket` detached: its own session, no descriptor of the worker's
// (the worker's socket to its client must close when the worker dies), stderr to `<socket>.log`.
void start_server(const fs::path& program, const fs::path& socket) {
    const std::string program_text = program.string(), socket_text = socket.string(), log = fs::path(socket).replace_extension(".log").string();
    std::vector<std::string> environment = server_environment();
    std::vector<char*> envp;
    for (std::string& entry : environment) envp.push_back(entry.data());
    envp.push_back(nullptr);
    const char* argv[] = {program_text.c_str(), "--compile-server", socket_text.c_str(), nullptr};
    const pid_t child = fork();
    if (child < 0) return;
    if (child == 0) {  // only async-signal-safe calls from here on
        setsid();
        if (fork() != 0) _exit(0);
        const int null = open("/dev/null", O_RDWR);
        const int err = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        dup2(null, 0);
        dup2(null, 1);
        dup2(err >= 0 ? err : null, 2);
        syscall(SYS_close_range, 3U, ~0U, 0U);
        execve(argv[0], const_cast<char* const*>(argv), envp.data());
        _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
}

Diagnostic remark(const std::string& message) {
    Diagnostic note;
    note.severity = Severity::remark;
    note.code = "kplay-compiler";
    note.message = message;
    return note;
}

}  // namespace

CompilerProcess::CompilerProcess(fs::path program, fs::path socket, bool pch)
    : program_(std::move(program)), socket_(std::move(socket)), pch_(pch) {}

bool CompilerProcess::connect_now() {
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket_.c_str(), sizeof address.sun_path - 1);
    if (!fd || connect(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return false;
    link_ = std::move(fd);
    return true;
}

bool CompilerProcess::connect_or_start() {
    if (link_) return true;
    if (connect_now()) return true;
    start_server(program_, socket_);
    // NVRTC loads lazily: the server listens within milliseconds of starting (a loaded machine: seconds).
    for (int tries = 0; tries < 500; ++tries) {
        if (connect_now()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

std::optional<CompileResult> CompilerProcess::ask(const CompileRequest& request) {
    if (!connect_or_start()) return std::nullopt;
    std::optional<CompileResult> result;
    if (send_compile_request(link_.get(), request)) result = read_compile_result(link_.get());
    if (!result) link_.reset();
    return result;
}

CompileResult CompilerProcess::compile(const CompileRequest& asked) {
    CompileRequest request = asked;
    // Only a file with a large header library gains from -pch; a plain one would pay for it.
    request.options.pch = pch_ && includes_heavy_headers(request.source);
    if (socket_.empty()) return compile_with_nvrtc(request);
    std::lock_guard lock(mutex_);
    if (std::optional<CompileResult> result = ask(request)) return std::move(*result);
    const std::string what = "kplay's compile server stopped answering";
    // A killed server's socket still takes connections for a moment (the kernel queues them) and then
    // drops them: a few tries, a little apart, reach the new one.
    for (int attempt = 0; attempt < 4; ++attempt) {
        if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (std::optional<CompileResult> result = ask(request)) {
            result->diagnostics.push_back(remark(what + "; a new one was started and compiled it (its precompiled headers start again)."));
            return std::move(*result);
        }
    }
    CompileResult result = compile_with_nvrtc(request);
    result.diagnostics.push_back(remark(what + " and no new one answered (" + socket_.string() + ", log beside it); the worker compiled this file itself."));
    return result;
}

}  // namespace kplay
