// kplay-worker: owns NVRTC and the CUDA context, and serves the engine's requests over a socket.
//
// It is started by WorkerClient with its end of a socketpair as a descriptor (--fd). It answers one
// request at a time; large results go back in shared memory. After a sticky CUDA fault it answers and
// then exits, because its context cannot run kernels again. When the socket closes it exits.
// `--thorough` makes a worker for the emulated device's thorough mode: it starts itself again with
// the host compiler's AddressSanitizer and UBSan runtimes preloaded (they must be the first libraries).
// `--stdio` makes it the host's side of a remote worker: it speaks the protocol on stdin/stdout (what
// ssh connects) and runs each request in a kplay-worker of its own (remote_supervisor.hpp).
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <fcntl.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/process_memory.hpp"
#include "client/codec.hpp"
#include "client/frames.hpp"
#include "client/protocol.hpp"
#include "emu/sanitizer_runtime.hpp"
#include "remote/remote_supervisor.hpp"
#include "run/engine.hpp"

extern char** environ;

namespace {

constexpr int kExitAfterStickyFault = 3;

void answer(int socket, kplay::Engine& engine, const nlohmann::json& request, bool& exit_after) {
    using namespace kplay;
    const uint64_t id = request.value(protocol_field::id, uint64_t{0});
    const std::string type = request.value(protocol_field::type, "");
    const std::optional<MessageKind> kind = message_kind(request);
    nlohmann::json response = {{protocol_field::id, id}, {protocol_field::type, type}};
    ReportBlobs blobs;
    if (!kind || *kind == MessageKind::progress || *kind == MessageKind::hello) {
        send_frame(socket, error_message(id, type, "unknown request type '" + type + "'"));
        return;
    }
    switch (*kind) {
        case MessageKind::ping: response[protocol_field::body] = {{"pid", getpid()}}; break;
        case MessageKind::devices: response[protocol_field::body] = engine.devices(); break;
        case MessageKind::stats:
            response[protocol_field::body] = {{"rss_bytes", resident_memory_bytes()}, {"device_used_bytes", engine.device_memory_in_use()}};
            break;
        case MessageKind::compile: {
            const CompileFileResult result = engine.compile_file(request.at(protocol_field::body).get<CompileFileRequest>());
            blobs = make_compile_blobs(result);
            response[protocol_field::body] = result;
            response[protocol_field::blobs] = blobs.list;
            break;
        }
        case MessageKind::run: {
            engine.set_progress_callback([&](Phase phase, double fraction) { send_frame(socket, progress_message(id, phase, fraction)); });
            engine.set_partial_callback([&](const RunReport& partial) {
                // The same answer's first part: the checked result, before the timing (RunReport::partial).
                const ReportBlobs partial_blobs = make_report_blobs(partial);
                nlohmann::json message = {{protocol_field::id, id}, {protocol_field::type, type}, {protocol_field::partial, true},
                                          {protocol_field::body, partial}, {protocol_field::blobs, partial_blobs.list}};
                std::vector<int> partial_fds;
                for (const auto& blob : partial_blobs.fds) partial_fds.push_back(blob.get());
                send_frame(socket, message, partial_fds);
            });
            const RunReport report = engine.run(request.at(protocol_field::body).get<RunRequest>());
            engine.set_progress_callback(nullptr);
            engine.set_partial_callback(nullptr);
            blobs = make_report_blobs(report);
            exit_after = report.sticky_fault();
            response[protocol_field::body] = report;
            response[protocol_field::blobs] = blobs.list;
            break;
        }
        case MessageKind::progress:
        case MessageKind::hello: break;
    }
    std::vector<int> fds;
    for (const auto& blob : blobs.fds) fds.push_back(blob.get());
    send_frame(socket, response, fds);
}

// Starts this program again with the sanitizer runtimes preloaded; returns only when it cannot.
int restart_with_sanitizers(char** argv) {
    std::vector<std::string> environment;
    try {
        environment = kplay::sanitizer_worker_environment();
    } catch (const kplay::InputError& error) {
        std::fprintf(stderr, "kplay-worker: %s\n", error.what());
        return 2;
    }
    for (char** entry = environ; *entry; ++entry) {
        const std::string text = *entry;
        bool replaced = false;
        for (const auto& ours : environment) replaced = replaced || text.substr(0, text.find('=')) == ours.substr(0, ours.find('='));
        if (!replaced) environment.push_back(text);
    }
    std::vector<char*> envp;
    for (auto& entry : environment) envp.push_back(entry.data());
    envp.push_back(nullptr);
    execve("/proc/self/exe", argv, envp.data());
    std::fprintf(stderr, "kplay-worker: cannot restart with the sanitizer runtimes: %s\n", std::strerror(errno));
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    int socket = -1;
    bool thorough = false, stdio = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--fd") == 0 && i + 1 < argc) socket = std::atoi(argv[i + 1]);
        if (std::strcmp(argv[i], "--thorough") == 0) thorough = true;
        if (std::strcmp(argv[i], "--stdio") == 0) stdio = true;
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("kplay-worker, protocol version %u\n", static_cast<unsigned>(kplay::kProtocolVersion));
            return 0;
        }
    }
    if (stdio) {
        // The protocol keeps stdout for itself; anything else written to fd 1 (device printf) goes to
        // stderr, which ssh carries back separately.
        const int out = fcntl(1, F_DUPFD_CLOEXEC, 3);
        if (out < 0 || dup2(2, 1) < 0) return 2;
        std::error_code error;
        const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
        return kplay::serve_stream({error ? std::filesystem::path(argv[0]) : self, 0, out});
    }
    if (socket < 0) {
        std::fprintf(stderr, "kplay-worker is started by kplay and kplay-cli (usage: kplay-worker --fd N [--thorough], or --stdio for a remote worker, or --version)\n");
        return 2;
    }
    // Never outlive the program that started it (a window that crashed, a remote supervisor that was
    // killed): a worker stuck in a kernel would not notice its socket closing.
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) return 0;
    if (thorough && !kplay::sanitizer_runtime_loaded()) return restart_with_sanitizers(argv);
    kplay::Engine engine(kplay::default_engine_config());
    kplay::FrameReader reader;
    try {
        for (;;) {
            while (auto frame = reader.next()) {
                bool exit_after = false;
                answer(socket, engine, frame->message, exit_after);
                if (exit_after) return kExitAfterStickyFault;
                // A client asks for the devices first and runs next: the GPU's context (a few hundred ms)
                // is made while its answer travels and the client sends the run, not after the run arrives.
                if (kplay::message_kind(frame->message) == kplay::MessageKind::devices) engine.open_first_gpu();
            }
            if (reader.read_from(socket) == kplay::FrameReader::Status::closed) return 0;
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "kplay-worker: %s\n", error.what());
        return 2;
    }
}
