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
#include <poll.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "base/process_memory.hpp"
#include "compile/compile_server.hpp"
#include "values/codec.hpp"
#include "protocol/frames.hpp"
#include "protocol/protocol.hpp"
#include "protocol/request_dispatch.hpp"
#include "emu/sanitizer_runtime.hpp"
#include "remote_supervisor.hpp"
#include "run/engine.hpp"
#include "kplay_version.hpp"

extern char** environ;

namespace {

constexpr int kExitAfterStickyFault = 3;

// What `kplay-worker --help` prints (its man page is made from it by help2man).
constexpr const char* kUsage = R"(Usage: kplay-worker --fd N [--thorough] | --stdio | --version | --help
kplay-worker: the process that compiles kernels with NVRTC and runs them on a GPU or the emulated CPU
device. kplay and kplay-cli start it and supervise it; there is no need to run it by hand.

Options:
  --fd N       Serve requests on the socket at descriptor N (how kplay and kplay-cli start it)
  --thorough   Run the emulated CPU device with AddressSanitizer and UBSan
  --stdio      Be the host's end of a remote link: speak the protocol on stdin and stdout, running each
               request in a kplay-worker of its own (what `kplay --remote HOST` starts over ssh)
  --compile-server SOCKET
               Be the compile server at SOCKET: NVRTC with precompiled headers, no CUDA context; a
               worker starts it and it ends a minute after the last worker leaves
  --version    Print the version, the git commit and the protocol version, then exit
  --help       Print this help, then exit

Files: kernels_src, the emulated device's headers (share/kplay beside bin/); the CUDA headers from
/usr/local/cuda/include (KPLAY_CUDA_INCLUDE) and libnvrtc from the CUDA Toolkit.
)";

using kplay::Frame;
using kplay::MessageKind;
namespace field = kplay::protocol_field;

// Answers each request with the engine; large results go back as shared-memory blobs.
class WorkerService final : public kplay::RequestHandler {
public:
    WorkerService(int socket, kplay::Engine& engine) : socket_(socket), engine_(engine) {}

    // After a sticky CUDA fault: the context cannot run kernels again, so the worker exits.
    bool exit_after() const { return exit_after_; }

    void on_ping(uint64_t id, const Frame&) override { answer(id, MessageKind::ping, {{"pid", getpid()}}); }
    void on_devices(uint64_t id, const Frame&) override {
        answer(id, MessageKind::devices, engine_.devices());
        // A client asks for the devices first and runs next: the GPU's context (a few hundred ms) is
        // made while this answer travels and the client sends the run, not after the run arrives.
        engine_.open_first_gpu();
    }
    void on_stats(uint64_t id, const Frame&) override {
        answer(id, MessageKind::stats,
               {{"rss_bytes", kplay::resident_memory_bytes()}, {"device_used_bytes", engine_.device_memory_in_use()}});
    }
    void on_compile(uint64_t id, const Frame& request) override {
        const auto compile = request.message.at(field::body).get<kplay::CompileFileRequest>();
        const kplay::CompileFileResult result = engine_.compile_file(compile);
        answer(id, MessageKind::compile, result, kplay::make_compile_blobs(result));
    }
    void on_run(uint64_t id, const Frame& request) override {
        using kplay::Phase, kplay::RunReport;
        engine_.set_progress_callback([&](Phase phase, double fraction) {
            kplay::send_frame(socket_, kplay::progress_message(id, phase, fraction));
        });
        // The same answer's first part: the checked result, before the timing (RunReport::partial).
        engine_.set_partial_callback([&](const RunReport& partial) {
            answer(id, MessageKind::run, partial, kplay::make_report_blobs(partial), true);
        });
        engine_.set_cut_check([&] { return cut_arrived(id); });
        const RunReport report = engine_.run(request.message.at(field::body).get<kplay::RunRequest>());
        engine_.set_progress_callback(nullptr);
        engine_.set_partial_callback(nullptr);
        engine_.set_cut_check(nullptr);
        exit_after_ = report.sticky_fault();
        answer(id, MessageKind::run, report, kplay::make_report_blobs(report));
    }
    void on_view(uint64_t id, const Frame& request) override {
        kplay::RunReport report;
        try {
            report.view = engine_.full_view(request.message.at(field::body).at("key").get<std::string>());
        } catch (const std::exception& error) {
            report.error = error.what();  // no longer kept, or a request without its key
        }
        answer(id, MessageKind::view, report, kplay::make_report_blobs(report));
    }
    // A cut read while its run was in flight was taken by cut_arrived(); one that comes after its run
    // ended has nothing left to cut.
    void on_cut(uint64_t) override {}
    void send_error(const nlohmann::json& answer) override { kplay::send_frame(socket_, answer); }

    // The next request, blocking; nullopt when the client closed the socket.
    std::optional<Frame> next_request() {
        for (;;) {
            if (!held_.empty()) {
                Frame frame = std::move(held_.front());
                held_.pop_front();
                return frame;
            }
            if (broken_) std::rethrow_exception(std::exchange(broken_, nullptr));
            if (auto frame = reader_.next()) return frame;
            if (reader_.read_from(socket_) == kplay::FrameReader::Status::closed) return std::nullopt;
        }
    }

private:
    // Whether the client cut run `id` short (MessageKind::cut), reading without blocking what has
    // arrived since it began; any other frame is held for next_request(). Once true, true for the run.
    bool cut_arrived(uint64_t id) {
        if (cut_ == id) return true;
        try {
            pollfd watch{socket_, POLLIN, 0};
            while (::poll(&watch, 1, 0) > 0 && (watch.revents & POLLIN))
                if (reader_.read_from(socket_) == kplay::FrameReader::Status::closed) break;  // next_request() sees it
            while (auto frame = reader_.next()) {
                const nlohmann::json& message = frame->message;
                if (kplay::message_kind(message) == MessageKind::cut && message.value(field::id, uint64_t{0}) == id) cut_ = id;
                else held_.push_back(std::move(*frame));
            }
        } catch (const std::exception&) {
            broken_ = std::current_exception();  // a malformed frame: the main loop reports it, as it would have
        }
        return cut_ == id;
    }

    // blobs: a compile's, a run's or a view's answer always lists them (maybe none); other kinds have none.
    void answer(uint64_t id, MessageKind kind, nlohmann::json body,
                std::optional<kplay::ReportBlobs> blobs = std::nullopt, bool partial = false) {
        nlohmann::json message = {
            {field::id, id}, {field::type, kplay::message_kind_name(kind)}, {field::body, std::move(body)}};
        if (partial) message[field::partial] = true;
        std::vector<int> fds;
        if (blobs) {
            message[field::blobs] = blobs->list;
            for (const auto& blob : blobs->fds) fds.push_back(blob.get());
        }
        kplay::send_frame(socket_, message, fds);
    }

    int socket_;
    kplay::Engine& engine_;
    bool exit_after_ = false;
    kplay::FrameReader reader_;
    std::deque<Frame> held_;         // requests read while a run looked for its cut
    uint64_t cut_ = 0;               // the run cut short (0: none)
    std::exception_ptr broken_;      // what reading for a cut met, rethrown by next_request()
};

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
    kplay::keep_freed_arrays_in_heap();  // each run's views and copies reuse the last ones' pages
    int socket = -1;
    bool thorough = false, stdio = false;
    // The compile server (compile_server.hpp): started by a worker, never by hand; no CUDA context.
    if (argc == 3 && std::strcmp(argv[1], "--compile-server") == 0) return kplay::serve_compiles(argv[2]);
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--fd") == 0 && i + 1 < argc) socket = std::atoi(argv[i + 1]);
        if (std::strcmp(argv[i], "--thorough") == 0) thorough = true;
        if (std::strcmp(argv[i], "--stdio") == 0) stdio = true;
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("%s, protocol version %u\n", kplay::version_line("kplay-worker").c_str(),
                        static_cast<unsigned>(kplay::kProtocolVersion));
            return 0;
        }
        if (std::strcmp(argv[i], "--help") == 0) {
            std::fputs(kUsage, stdout);
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
        std::fprintf(stderr, "kplay-worker is started by kplay and kplay-cli (usage: kplay-worker --fd N [--thorough], or --stdio for a remote worker, or --version, or --help)\n");
        return 2;
    }
    // Never outlive the program that started it (a window that crashed, a remote supervisor that was
    // killed): a worker stuck in a kernel would not notice its socket closing.
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) return 0;
    if (thorough && !kplay::sanitizer_runtime_loaded()) return restart_with_sanitizers(argv);
    kplay::EngineConfig config = kplay::default_engine_config();
    std::error_code no_link;
    config.compiler_program = std::filesystem::read_symlink("/proc/self/exe", no_link);
    // KPLAY_NVRTC_PCH=0: the compile server compiles without precompiled headers (they cost more than
    // they save for some kernels on some machines: docs/BENCHMARKS.md).
    const char* pch = std::getenv("KPLAY_NVRTC_PCH");
    config.compiler_pch = !(pch && std::string(pch) == "0");
    kplay::Engine engine(config);
    WorkerService service(socket, engine);
    try {
        while (const std::optional<Frame> frame = service.next_request()) {
            kplay::dispatch_request(*frame, service);
            if (service.exit_after()) return kExitAfterStickyFault;
        }
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "kplay-worker: %s\n", error.what());
        return 2;
    }
}
