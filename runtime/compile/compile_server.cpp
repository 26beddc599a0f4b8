// The compile server's place, its lock, and its accept loop (compile_server.hpp).
#include "compile/compile_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include "base/content_hash.hpp"
#include "base/unique_fd.hpp"
#include "compile/compile_slots.hpp"
#include "compile/compile_wire.hpp"
#include "compile/nvrtc_compiler.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

// A folder of this user's alone: made 0700 when missing, refused when anyone else may enter it.
bool private_folder(const fs::path& dir) {
    mkdir(dir.c_str(), 0700);
    struct stat info{};
    return lstat(dir.c_str(), &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == getuid() && (info.st_mode & 077) == 0;
}

// The server's state shared by its connections' threads.
struct Server {
    // Compiles run side by side, one per core at most, but a -pch compile alone and one folder at a time
    // (compile_slots.hpp says why). Four compiles of matmul 04 at once took 1.59 s one at a time and
    // 0.58 s side by side on the H200 host's 16 cores (docs/BENCHMARKS.md).
    CompileSlots slots{static_cast<int>(std::max(1u, std::thread::hardware_concurrency())), [](const std::string& folder) {
                           // The worker's folder: its relative paths, and NVRTC's absolute ones in the PTX, as in the worker.
                           if (chdir(folder.c_str()) != 0) throw std::runtime_error("cannot enter the worker's folder " + folder);
                       }};
    std::atomic<int> open{0};      // connections being served
    std::atomic<int64_t> last{0};  // when the last connection closed (steady seconds)
};

// SIGTERM ends the server as idleness does: NVRTC then removes its PCH folder itself.
volatile sig_atomic_t g_stop = 0;
void on_stop(int) { g_stop = 1; }

// NVRTC's PCH folders of this user's servers that were killed (/tmp/__nvrtc_auto_pch_PID_N: ~60 MB for
// CCCL), which no one else would remove.
void remove_dead_pch_folders() {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(fs::temp_directory_path(error), error)) {
        const std::string name = entry.path().filename().string();
        constexpr std::string_view kPrefix = "__nvrtc_auto_pch_";
        if (name.rfind(kPrefix, 0) != 0) continue;
        const long pid = std::strtol(name.c_str() + kPrefix.size(), nullptr, 10);
        struct stat info{};
        if (pid <= 0 || lstat(entry.path().c_str(), &info) != 0 || info.st_uid != getuid()) continue;
        if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), error);
    }
}

int64_t now_s() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void serve_connection(Server& server, UniqueFd connection) {
    std::string folder;
    while (std::optional<CompileRequest> request = read_compile_request(connection.get(), folder)) {
        CompileResult result;
        try {
            const CompileSlots::Slot slot(server.slots, folder, request->options.pch);
            result = compile_with_nvrtc(*request);
        } catch (const std::exception& error) {
            result.ok = false;
            result.failure = error.what();  // NVRTC itself failed: a value for the worker to report
        }
        if (!send_compile_result(connection.get(), result)) break;
    }
    server.last = now_s();
    --server.open;
}

// Only this user's processes get an answer (the folder already keeps others out).
bool same_user(int connection) {
    struct ucred peer{};
    socklen_t size = sizeof peer;
    return getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 && peer.uid == getuid();
}

}  // namespace

fs::path compile_server_socket(const fs::path& program, const fs::path& cache_dir) {
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    fs::path dir = runtime && *runtime ? fs::path(runtime) / "kplay" : fs::path("/tmp") / ("kplay-" + std::to_string(getuid()));
    if (!private_folder(dir)) return {};
    // A rebuilt program gets a server of its own: its path, size and time are a part of the name.
    struct stat info{};
    stat(program.c_str(), &info);
    ContentHasher hasher;
    hasher.add(program.string()).add(std::to_string(info.st_size)).add(std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec));
    hasher.add(cache_dir.string());
    const fs::path socket = dir / (hasher.hex().substr(0, 16) + ".sock");
    if (socket.native().size() >= sizeof(sockaddr_un::sun_path)) return {};
    return socket;
}

int serve_compiles(const fs::path& socket, std::chrono::seconds idle) {
    // The lock decides which of two servers started at once serves; the loser leaves quietly.
    const fs::path lock_path = fs::path(socket).replace_extension(".lock");
    // A server that is ending (idle) holds it a moment longer than its socket exists: wait that out.
    UniqueFd lock(open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
    if (!lock) return 2;
    bool locked = false;
    for (int tries = 0; tries < 100 && !locked; ++tries) {
        locked = flock(lock.get(), LOCK_EX | LOCK_NB) == 0;
        if (!locked) usleep(20000);
    }
    if (!locked) {
        std::fprintf(stderr, "kplay compile server %d: another one serves at %s\n", static_cast<int>(getpid()), socket.c_str());
        return 0;
    }
    const std::string pid = std::to_string(getpid()) + "\n";
    if (ftruncate(lock.get(), 0) != 0 || write(lock.get(), pid.data(), pid.size()) != static_cast<ssize_t>(pid.size())) return 2;

    unlink(socket.c_str());  // a crashed server's leftover
    remove_dead_pch_folders();
    struct sigaction stop{};
    stop.sa_handler = on_stop;
    sigaction(SIGTERM, &stop, nullptr);
    sigaction(SIGINT, &stop, nullptr);
    signal(SIGPIPE, SIG_IGN);
    UniqueFd listener(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket.c_str(), sizeof address.sun_path - 1);
    if (!listener || bind(listener.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || chmod(socket.c_str(), 0600) != 0 ||
        listen(listener.get(), 16) != 0) {
        std::fprintf(stderr, "kplay compile server: cannot listen at %s: %s\n", socket.c_str(), std::strerror(errno));
        return 2;
    }
    Server server;
    server.last = now_s();
    for (;;) {
        pollfd wait{listener.get(), POLLIN, 0};
        const int ready = poll(&wait, 1, 1000);
        if (g_stop || (ready < 0 && errno != EINTR)) break;
        if (ready <= 0) {
            if (server.open == 0 && now_s() - server.last >= idle.count()) break;
            continue;
        }
        UniqueFd connection(accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
        if (!connection || !same_user(connection.get())) continue;
        ++server.open;
        std::thread(serve_connection, std::ref(server), std::move(connection)).detach();
    }
    unlink(socket.c_str());  // before the lock goes (with the process): a new server may take over
    return 0;
}

}  // namespace kplay
