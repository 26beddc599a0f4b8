// A stand-in for kplay-worker that misbehaves on purpose, so the client's supervision can be tested
// without a GPU. Modes (the first request after start, or every time with --always):
//   hang              says it is launching (a "gpu" progress message), then never answers
//   slow-cpu          says it is in a CPU phase, works for 1 s, then answers (must not be killed)
//   crash             dies by SIGSEGV
//   exit-at-start     exits before reading anything
//   garbage           writes bytes that are not a frame
//   close-mid-frame   writes half a frame, then exits
//   oversized         announces a 2 GiB payload
//   bad-json          sends a well-framed payload that is not JSON
//   wrong-shape       sends valid JSON that is not a result (a null body)
// Otherwise it answers ping requests like the real worker. A marker file records that the bad
// behaviour already happened once, so the restarted worker behaves.
//
// With --session it plays a working worker for KernelSession's tests: `devices` gets a device list (no
// driver and the emulated device, or one GPU with --gpu), after --devices-delay-ms N; `run` gets a
// plausible report made from the request (its spec, sizes, a passing check, a small series to show);
// `compile` (the Inside tab's inspect compile) gets matmul step 3's recorded PTX and ptxas report.
// A run's source steers it with lines `// fake: WORD [N]`:
//   hang              says it is launching, then never answers (the client's watchdog must stop it)
//   slow N            answers after N ms
//   thorough-slow N   a worker started with --thorough answers after N ms instead
//   baseline-slow N   a cuBLAS baseline request for this file is answered after N ms
//   fail              answers a failed compile
//   crash             dies by SIGSEGV
//   tag NAME          the report's kernel is NAME, so a test can tell which save a result came from
//   refine N          a progressive request first gets its partial answer (2 checked launches, the
//                     arrays), then after N ms the final one (the repeats' timing, no arrays)
//   registers N       the inspect compile's ptxas report says N registers (default 32)
//   image W H         the view is a W x H gray image with its difference map and RGB input, arrays
//                     of the sizes the real worker sends for such a picture (to measure the window's
//                     taking in of them)
// --log FILE appends every request it receives to FILE, one JSON line each: {"thorough", "message"}.
// --stdio-version N plays a remote worker of another protocol version: a stream frame header with
// version N on stdout, then it waits for stdin to close.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "base/cache_dir.hpp"
#include "base/error.hpp"
#include "values/codec.hpp"
#include "protocol/frames.hpp"
#include "protocol/protocol.hpp"
#include "values/verdict.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/task_sizes.hpp"

namespace {

using namespace kplay;

constexpr double kFakeKernelMs = 1.0;
constexpr double kFakeCublasGflops = 4000;  // the kernel's 2000 GFLOP/s is then 50% of it

struct SessionOptions {
    bool gpu = false;
    bool thorough = false;  // started with --thorough, as WorkerOptions::thorough starts a worker
    int devices_delay_ms = 0;
    std::string log;
};

struct Markers {
    bool hang = false, fail = false, crash = false;
    int slow_ms = 0, thorough_slow_ms = -1, baseline_slow_ms = 0;
    int refine_ms = -1;  // a progressive run answers its checked result first, the final N ms later
    int registers = 32;  // what the inspect compile's ptxas report says
    int image_w = 0, image_h = 0;
    std::string tag;
};

Markers read_markers(const std::string& source) {
    Markers markers;
    const std::string prefix = "// fake: ";
    for (size_t at = source.find(prefix); at != std::string::npos; at = source.find(prefix, at + 1)) {
        const size_t end = source.find('\n', at);
        std::istringstream line(
            source.substr(at + prefix.size(), end == std::string::npos ? std::string::npos : end - at - prefix.size()));
        std::string word;
        line >> word;
        if (word == "hang")
            markers.hang = true;
        else if (word == "fail")
            markers.fail = true;
        else if (word == "crash")
            markers.crash = true;
        else if (word == "slow")
            line >> markers.slow_ms;
        else if (word == "thorough-slow")
            line >> markers.thorough_slow_ms;
        else if (word == "baseline-slow")
            line >> markers.baseline_slow_ms;
        else if (word == "refine")
            line >> markers.refine_ms;
        else if (word == "tag")
            line >> markers.tag;
        else if (word == "registers")
            line >> markers.registers;
        else if (word == "image")
            line >> markers.image_w >> markers.image_h;
    }
    return markers;
}

DeviceQuery fake_devices(bool gpu) {
    DeviceQuery query;
    query.nvrtc_version = "13.0";
    query.emulated.available = true;
    query.emulated.host_compiler = "g++ (fake worker)";
    query.emulated.device.ordinal = -1;
    query.emulated.device.name = "Emulated CPU (fake worker)";
    if (gpu) {
        query.driver = {DriverStatus::State::ready, "", 13000};
        DeviceInfo device;
        device.name = "Fake GPU";
        device.cc_major = 9;
        device.sm_count = 132;
        query.devices = {device};
    } else {
        query.driver = {DriverStatus::State::no_library, "No CUDA driver: libcuda.so.1 was not found (fake worker)", 0};
    }
    return query;
}

// What the real engine would roughly say about this request, without compiling or launching anything.
RunReport fake_report(const RunRequest& request, const std::string& source, const Markers& markers,
                      const SessionOptions& options) {
    RunReport report;
    report.file = request.kernel_path.string();
    report.thorough = options.thorough;  // which worker answered: the session tests tell the two apart by it
    report.emulated = request.emulate || (!options.gpu && request.emulate_without_gpu);
    report.thread_order = request.thread_order;
    try {
        report.spec = resolve_kernel_spec(source, request.kernel_path);
    } catch (const InputError& error) {
        report.stage = Stage::spec;
        report.error = error.what();
        return report;
    }
    const TaskSpec& task = report.spec->task;
    report.task = task.name;
    report.kernel = markers.tag.empty() ? report.spec->kernel : markers.tag;
    const std::vector<int64_t> sizes = request.inputs.size.empty()
                                           ? (report.emulated ? task.sizes.cpu_default : task.sizes.gpu_default)
                                           : parse_size_values(task, request.inputs.size);
    report.sizes = size_values_text(sizes);
    report.values = size_values(task, sizes);
    if (markers.fail) {
        report.stage = Stage::compile;
        report.error = "1 compile error";
        report.compile.diagnostics = {
            {report.file, 3, 5, Severity::error, "20", "identifier \"oops\" is undefined", "oops;", ""}};
        return report;
    }
    report.stage = Stage::done;
    report.compile.ok = true;
    report.kernel_ms = {request.repeat, kFakeKernelMs, kFakeKernelMs, kFakeKernelMs, kFakeKernelMs, 0};
    report.check.passed = true;
    report.check.summary = "PASS (fake worker)";
    if (request.baseline != Baseline::none) {
        report.kernel = baseline_name(request.baseline);
        report.gflops = kFakeCublasGflops;
        return report;
    }
    report.bytes = 1e9;
    report.flops = 2e9;
    report.ceiling.kind = task.cost.ceiling;
    if (task.cost.ceiling == CeilingKind::cublas) {
        report.ceiling.name = "cuBLAS fp32";
        report.ceiling.deferred = request.defer_library_ceiling;
        if (!report.ceiling.deferred) report.ceiling.gflops = kFakeCublasGflops;
    } else {
        report.ceiling.name = "copy bandwidth";
        report.ceiling.gbps = 2000;
    }
    apply_verdict(report);
    if (const BufferSpec* output = task.primary_output()) report.view.buffer = output->name;
    report.view.kind = task.presentation.output;
    report.view.series.count = 4;
    report.view.series.got_min = {1, 2, 3, 4};
    report.view.series.want_min = {1, 2, 3, 4};
    // Like the real worker, the input goes along only when the caller does not have it yet.
    report.view.input_identity = "fake-input:seed-" + std::to_string(request.inputs.seed);
    if (request.known_input != report.view.input_identity) report.view.input = {10, 20, 30};
    if (markers.image_w > 0 && markers.image_h > 0) {
        const size_t pixels = static_cast<size_t>(markers.image_w) * static_cast<size_t>(markers.image_h);
        report.view.kind = OutputKind::image;
        report.view.width = report.view.input_w = markers.image_w;
        report.view.height = report.view.input_h = markers.image_h;
        report.view.output.assign(pixels, 128);
        report.view.map.assign(pixels, 0.0f);
        if (!report.view.input.empty()) report.view.input.assign(3 * pixels, 90);
    }
    return report;
}

void log_request(const SessionOptions& options, const nlohmann::json& message) {
    if (options.log.empty()) return;
    const std::string line = nlohmann::json{{"thorough", options.thorough}, {"message", message}}.dump() + "\n";
    // One write with O_APPEND: the main and the thorough worker may log at the same time.
    const int fd = open(options.log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    (void)!write(fd, line.data(), line.size());
    close(fd);
}

void answer_session(int socket, const nlohmann::json& message, const SessionOptions& options) {
    log_request(options, message);
    const uint64_t id = message.value(protocol_field::id, uint64_t{0});
    const std::optional<MessageKind> kind = message_kind(message);
    if (kind == MessageKind::devices) {
        usleep(options.devices_delay_ms * 1000);
        send_frame(socket, {{protocol_field::id, id},
                            {protocol_field::type, "devices"},
                            {protocol_field::body, fake_devices(options.gpu)}});
        return;
    }
    if (kind == MessageKind::ping) {
        send_frame(
            socket,
            {{protocol_field::id, id}, {protocol_field::type, "ping"}, {protocol_field::body, {{"pid", getpid()}}}});
        return;
    }
    if (kind == MessageKind::compile) {
        // An inspect compile: matmul step 3's PTX and ptxas report as recorded, with `registers N`.
        const CompileFileRequest request = message.at(protocol_field::body).get<CompileFileRequest>();
        const Markers markers = read_markers(request.source.value_or(""));
        CompileFileResult result;
        result.compile.ok = true;
        result.compile.is_cubin = true;  // no CUBIN blob: the inspection says there is no SASS
        result.compile.arch = "sm_90";
        std::string log;
        read_whole_file(std::string(KPLAY_TEST_DATA_DIR) + "/inspect/m3.ptx", result.compile.ptx);
        read_whole_file(std::string(KPLAY_TEST_DATA_DIR) + "/inspect/ptxas-m3.log", log);
        const size_t used = log.find("Used 32 registers");
        if (used != std::string::npos) log.replace(used, 17, "Used " + std::to_string(markers.registers) + " registers");
        result.compile.log = log;
        result.compile.lowered_names["matmul_tiled_k<16>"] = "_Z14matmul_tiled_kILi16EEvPfS0_S0_iii";
        send_frame(socket, {{protocol_field::id, id}, {protocol_field::type, "compile"}, {protocol_field::body, result},
                            {protocol_field::blobs, nlohmann::json::array()}});
        return;
    }
    if (kind != MessageKind::run) {
        send_frame(socket, error_message(id, message.value(protocol_field::type, ""),
                                         "the fake worker only lists devices, runs and compiles"));
        return;
    }
    const RunRequest request = message.at(protocol_field::body).get<RunRequest>();
    std::string source = request.source.value_or("");
    if (!request.source) {
        try {
            source = read_source_file(request.kernel_path);
        } catch (const InputError&) {
            // the report says so: its spec cannot be resolved from nothing
        }
    }
    const Markers markers = read_markers(source);
    if (markers.crash) raise(SIGSEGV);
    if (markers.hang) {
        send_frame(socket, progress_message(id, Phase::gpu));
        pause();
    }
    const int delay_ms = request.baseline != Baseline::none                  ? markers.baseline_slow_ms
                         : options.thorough && markers.thorough_slow_ms >= 0 ? markers.thorough_slow_ms
                                                                             : markers.slow_ms;
    usleep(delay_ms * 1000);
    RunReport report = fake_report(request, source, markers, options);
    if (request.progressive && markers.refine_ms >= 0 && report.ok()) {
        RunReport partial = report;
        partial.partial = true;
        partial.kernel_ms = {2, 2 * kFakeKernelMs, 2 * kFakeKernelMs, 2 * kFakeKernelMs, 2 * kFakeKernelMs, 0};
        const ReportBlobs partial_blobs = make_report_blobs(partial);
        std::vector<int> partial_fds;
        for (const auto& blob : partial_blobs.fds) partial_fds.push_back(blob.get());
        send_frame(socket,
                   {{protocol_field::id, id}, {protocol_field::type, "run"}, {protocol_field::partial, true},
                    {protocol_field::body, partial}, {protocol_field::blobs, partial_blobs.list}},
                   partial_fds);
        usleep(markers.refine_ms * 1000);
        report.view = OutputView{report.view.kind, report.view.buffer};
        report.view.input_identity = partial.view.input_identity;
        report.view_sent_before = true;
    }
    const ReportBlobs blobs = make_report_blobs(report);
    std::vector<int> fds;
    for (const auto& blob : blobs.fds) fds.push_back(blob.get());
    send_frame(socket,
               {{protocol_field::id, id},
                {protocol_field::type, "run"},
                {protocol_field::body, report},
                {protocol_field::blobs, blobs.list}},
               fds);
}

}  // namespace

int main(int argc, char** argv) {
    int socket = -1;
    std::string mode, marker;
    bool always = false, session = false;
    SessionOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--fd" && i + 1 < argc) socket = std::atoi(argv[++i]);
        else if (arg == "--mode" && i + 1 < argc) mode = argv[++i];
        else if (arg == "--marker" && i + 1 < argc) marker = argv[++i];
        else if (arg == "--always") always = true;
        else if (arg == "--session") session = true;
        else if (arg == "--gpu") options.gpu = true;
        else if (arg == "--thorough") options.thorough = true;
        else if (arg == "--devices-delay-ms" && i + 1 < argc) options.devices_delay_ms = std::atoi(argv[++i]);
        else if (arg == "--log" && i + 1 < argc) options.log = argv[++i];
        else if (arg == "--stdio-version" && i + 1 < argc) {
            FrameHeader header;
            header.version = static_cast<uint16_t>(std::atoi(argv[++i]));
            header.reserved = 1;  // the stream flag
            header.payload_bytes = 2;
            (void)!write(1, &header, sizeof header);
            (void)!write(1, "{}", 2);
            char sink[256];
            while (read(0, sink, sizeof sink) > 0) {
            }
            return 0;
        }
    }
    const bool misbehave = always || (!marker.empty() && !std::filesystem::exists(marker));
    if (misbehave && !marker.empty()) std::ofstream(marker) << "done";
    if (misbehave && mode == "exit-at-start") return 1;

    kplay::FrameReader reader;
    for (;;) {
        while (auto frame = reader.next()) {
            // A cut is never answered; the fake's runs are over before it reads one (logged, for the tests).
            if (frame->message.value("type", "") == "cut") {
                if (session) log_request(options, frame->message);
                continue;
            }
            if (session) {
                answer_session(socket, frame->message, options);
                continue;
            }
            if (misbehave) {
                if (mode == "hang") {
                    kplay::send_frame(socket, {{"id", frame->message["id"]}, {"type", "progress"}, {"phase", "gpu"}});
                    pause();
                }
                if (mode == "slow-cpu") {
                    kplay::send_frame(socket, {{"id", frame->message["id"]}, {"type", "progress"}, {"phase", "cpu"}});
                    sleep(1);
                }
                if (mode == "crash") raise(SIGSEGV);
                if (mode == "garbage") {
                    const char junk[] = "this is not a frame at all, just text";
                    (void)!write(socket, junk, sizeof junk);
                    pause();
                }
                if (mode == "close-mid-frame") {
                    kplay::FrameHeader header;
                    header.payload_bytes = 100;
                    (void)!write(socket, &header, sizeof header);
                    (void)!write(socket, "{\"id\":", 6);
                    return 0;
                }
                if (mode == "oversized") {
                    kplay::FrameHeader header;
                    header.payload_bytes = 2u << 30;
                    (void)!write(socket, &header, sizeof header);
                    pause();
                }
                if (mode == "wrong-shape") {
                    kplay::send_frame(socket, {{"id", frame->message["id"]}, {"type", "run"}, {"body", nullptr}});
                    pause();
                }
                if (mode == "bad-json") {
                    kplay::FrameHeader header;
                    header.payload_bytes = 8;
                    (void)!write(socket, &header, sizeof header);
                    (void)!write(socket, "{{{{{{{{", 8);
                    pause();
                }
            }
            const std::string type = frame->message.value("type", "ping");
            if (type == "run") {  // an empty but well-formed report, as the real worker sends
                kplay::RunReport report;
                report.stage = kplay::Stage::done;
                kplay::send_frame(socket, {{"id", frame->message["id"]}, {"type", "run"}, {"body", report}, {"blobs", nlohmann::json::array()}});
            } else {
                kplay::send_frame(socket, {{"id", frame->message["id"]}, {"type", "ping"}, {"body", {{"pid", getpid()}}}});
            }
        }
        if (reader.read_from(socket) == kplay::FrameReader::Status::closed) return 0;
    }
}
