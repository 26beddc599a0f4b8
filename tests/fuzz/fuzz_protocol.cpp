// libFuzzer target: the worker protocol's frame decoders (protocol/frames.hpp FrameReader, fed through a
// socket as the worker and its client read, and protocol/stream_frames.hpp StreamFrameReader, as a remote
// worker's stream is read, inline zstd blobs included) and the JSON codec (values/codec.hpp). Input that
// starts with the frame magic "KPW1" is a byte stream of frames for both; anything else is one JSON document, decoded
// as each message body the codec knows. ProtocolError and nlohmann::json exceptions are the documented
// failures; a decoded value is encoded again, as the worker would send it.
//
// KPLAY_FUZZ_WRITE_SEEDS=DIR fuzz_protocol writes the seed corpus (corpus/protocol) into DIR and exits:
// frames and documents made by the codec and send_frame themselves.
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "values/codec.hpp"
#include "protocol/frames.hpp"
#include "protocol/protocol.hpp"
#include "protocol/stream_frames.hpp"
#include "compile/nvrtc_log.hpp"
#include "kernel_file/kernel_spec.hpp"

namespace {

template <typename T>
void decode_as(const nlohmann::json& document) {
    try {
        const T value = document.get<T>();
        const nlohmann::json again = value;
        (void)again.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } catch (const nlohmann::json::exception&) {
    }
}

void decode_body(const nlohmann::json& document) {
    decode_as<kplay::RunRequest>(document);
    decode_as<kplay::RunReport>(document);
    decode_as<kplay::CompileFileRequest>(document);
    decode_as<kplay::CompileFileResult>(document);
    decode_as<kplay::DeviceQuery>(document);
    decode_as<kplay::KernelSpec>(document);
}

void decode_frames(const uint8_t* data, size_t size) {
    int sockets[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) __builtin_trap();
    const kplay::UniqueFd reader_end(sockets[0]), writer_end(sockets[1]);
    // Inputs stay far below the socket's buffer (libFuzzer's -max_len), so one write never blocks.
    if (size > 0 && write(writer_end.get(), data, size) != static_cast<ssize_t>(size)) __builtin_trap();
    shutdown(writer_end.get(), SHUT_WR);
    kplay::FrameReader reader;
    try {
        while (reader.read_from(reader_end.get()) != kplay::FrameReader::Status::closed) {
            while (auto frame = reader.next()) {
                (void)kplay::message_kind(frame->message);
                if (frame->message.is_object() && frame->message.contains(kplay::protocol_field::body))
                    decode_body(frame->message[kplay::protocol_field::body]);
            }
        }
    } catch (const kplay::ProtocolError&) {
    } catch (const nlohmann::json::exception&) {
    }
}

// The same bytes as a remote worker's stream: the blobs are inline, so they are decoded (and checked
// against their announced sizes) here too.
void decode_stream_frames(const uint8_t* data, size_t size) {
    int sockets[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) __builtin_trap();
    const kplay::UniqueFd reader_end(sockets[0]), writer_end(sockets[1]);
    if (size > 0 && write(writer_end.get(), data, size) != static_cast<ssize_t>(size)) __builtin_trap();
    shutdown(writer_end.get(), SHUT_WR);
    kplay::StreamFrameReader reader;
    try {
        for (;;) {
            const auto status = reader.read_from(reader_end.get());
            while (auto frame = reader.next()) {
                (void)kplay::message_kind(frame->message);
                for (const auto& fd : frame->fds) (void)fd.get();
            }
            if (status == kplay::StreamFrameReader::Status::closed) break;
        }
    } catch (const kplay::ProtocolError&) {
    } catch (const nlohmann::json::exception&) {
    }
}

// What send_stream_frame puts on a stream: one message with a compressible and a random blob.
std::string stream_frame_bytes(const nlohmann::json& message) {
    int sockets[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) std::abort();
    const kplay::UniqueFd reader_end(sockets[0]), writer_end(sockets[1]);
    std::string zeros(6000, '\0'), noise(300, '\0');
    for (size_t i = 0; i < noise.size(); ++i) noise[i] = static_cast<char>((i * 2654435761u) >> 13);
    const kplay::UniqueFd a = kplay::SharedBlob::create(zeros.data(), zeros.size(), "seed");
    const kplay::UniqueFd b = kplay::SharedBlob::create(noise.data(), noise.size(), "seed");
    kplay::send_stream_frame(writer_end.get(), message, {a.get(), b.get()});
    shutdown(writer_end.get(), SHUT_WR);
    std::string bytes;
    char chunk[4096];
    for (ssize_t n; (n = read(reader_end.get(), chunk, sizeof chunk)) > 0;) bytes.append(chunk, static_cast<size_t>(n));
    return bytes;
}

// What send_frame puts on the wire for each message, back to back.
std::string frame_bytes(const std::vector<nlohmann::json>& messages) {
    int sockets[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) std::abort();
    const kplay::UniqueFd reader_end(sockets[0]), writer_end(sockets[1]);
    for (const auto& message : messages) kplay::send_frame(writer_end.get(), message);
    shutdown(writer_end.get(), SHUT_WR);
    std::string bytes;
    char chunk[4096];
    for (ssize_t n; (n = read(reader_end.get(), chunk, sizeof chunk)) > 0;) bytes.append(chunk, static_cast<size_t>(n));
    return bytes;
}

void write_seed(const std::string& dir, const std::string& name, const std::string& bytes) {
    std::ofstream(dir + "/" + name, std::ios::binary) << bytes;
}

void write_seeds(const std::string& dir) {
    using kplay::MessageKind;
    kplay::RunRequest request;
    request.kernel_path = "kernels_src/matmul/02_tiled_dynamic_smem.cu";
    request.inputs.size = "1000x999x1001";
    request.block = std::vector<int64_t>{16, 16};
    request.grid = std::vector<int64_t>{};
    request.arg_overrides = {{"tw", "32"}};
    request.init_overrides = {{"a", "uniform(-1,1)"}};
    request.defines = {{"TILE", "4"}};
    request.tolerance = 1e-5;
    request.thread_order = kplay::ThreadOrder::random;
    request.baseline = kplay::Baseline::cublas_tf32;

    const std::string source =
        "// kplay: kernel=add block=256\n"
        "// kplay-sizes: n default=4096 cpu=1000 test=1,1000,1025\n"
        "// kplay-buffer: a f32[n] in init=uniform(-1,1)\n"
        "// kplay-buffer: b f32[n] in init=normal(0, 1) seed=3\n"
        "// kplay-buffer: c f32[n] out check=rel:1e-6,abs:1e-7*sqrt(n)\n"
        "// kplay-cost: bytes=12*n ceiling=copy\n"
        "extern \"C\" __global__ void add(const float* a, const float* b, float* c, int n) {}\n"
        "#ifdef KPLAY_REFERENCE\n"
        "void kplay_reference(const float* a, const float* b, float* c, int n) {}\n"
        "#endif\n";
    const std::string log =
        "k.cu(9): error: expected a \";\"\n      if (i < n) out[i] = x[i];\n      ^\n\n"
        "k.cu(8): warning #177-D: variable \"i\" was declared but never referenced\n      int i = 0\n          ^\n\n"
        "1 error detected in the compilation of \"k.cu\".\n";
    kplay::RunReport report;
    report.stage = kplay::Stage::check;
    report.error = "y[3] = nan, expected 0.25";
    report.file = "kernels_src/fuzz/add.cu";
    report.task = "add";
    report.kernel = "add";
    report.spec = kplay::resolve_kernel_spec(source, "kernels_src/fuzz/add.cu");
    report.sizes = "4096";
    report.values = {{"n", 4096}};
    report.compile.ok = true;
    report.compile.log = log;
    report.compile.diagnostics = kplay::parse_nvrtc_log(log);
    report.compile.lowered_names = {{"add", "add"}};
    report.launch.block = {256, 1, 1};
    report.launch.grid = {16, 1, 1};
    kplay::BufferCheck check;
    check.buffer = "c";
    check.elements = 4096;
    check.over_tolerance = 1;
    check.max_abs_error = std::nan("");
    check.max_error_ratio = INFINITY;
    check.first_bad.index = 3;
    check.first_bad.coords = {3};
    check.first_bad.got = std::nan("");
    report.check.buffers.push_back(check);
    report.check.metrics.push_back({"max_abs_error", std::nan("")});
    report.printf_lines = {"[block (0,0,0) thread (1,0,0)] hello"};

    kplay::CompileFileResult compiled;
    compiled.compile = report.compile;
    compiled.spec = report.spec;
    kplay::CompileFileRequest compile_request;
    compile_request.path = "k.cu";
    compile_request.source = source;
    compile_request.defines = {{"N", "3"}};
    kplay::DeviceQuery devices;
    devices.nvrtc_version = "13.0";
    devices.driver.message = "no libcuda.so.1";

    write_seed(dir, "run_request.json", nlohmann::json(request).dump());
    write_seed(dir, "run_report.json", nlohmann::json(report).dump());
    write_seed(dir, "compile_result.json", nlohmann::json(compiled).dump());
    write_seed(dir, "compile_request.json", nlohmann::json(compile_request).dump());
    write_seed(dir, "device_query.json", nlohmann::json(devices).dump());
    write_seed(dir, "kernel_spec.json", nlohmann::json(*report.spec).dump(1));
    write_seed(dir, "frame_run_request.bin", frame_bytes({kplay::request_message(MessageKind::run, 1, request)}));
    nlohmann::json answer = {{"id", 1}, {"type", "run"}, {"body", report}, {"blobs", nlohmann::json::array()}};
    write_seed(dir, "frame_progress_answer.bin",
               frame_bytes({kplay::progress_message(1, kplay::Phase::compile, 0.5), kplay::progress_message(1, kplay::Phase::gpu),
                            answer}));
    write_seed(dir, "stream_frame_answer.bin", stream_frame_bytes({{"id", 4}, {"type", "run"}, {"body", nlohmann::json::object()},
                                                                 {"blobs", {{{"name", "view.output"}, {"size", 6000}}, {{"name", "view.map"}, {"size", 300}}}}}));
    write_seed(dir, "frame_compile_ping_error.bin",
               frame_bytes({kplay::request_message(MessageKind::compile, 2, compile_request),
                            kplay::request_message(MessageKind::ping, 3, nlohmann::json::object()),
                            kplay::error_message(3, "devices", "the worker could not query devices")}));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    if (const char* dir = std::getenv("KPLAY_FUZZ_WRITE_SEEDS")) {
        write_seeds(dir);
        std::exit(0);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size >= 4 && std::memcmp(data, "KPW1", 4) == 0) {
        decode_frames(data, size);
        decode_stream_frames(data, size);
        return 0;
    }
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(data, data + size);
    } catch (const nlohmann::json::exception&) {
        return 0;
    }
    try {
        (void)kplay::message_kind(document);
    } catch (const nlohmann::json::exception&) {
    }
    decode_body(document);
    return 0;
}
