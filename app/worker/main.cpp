// kplay-worker: owns NVRTC and the CUDA context, and serves the engine's requests over a socket.
//
// It is started by WorkerClient with its end of a socketpair as a descriptor (--fd). It answers one
// request at a time; large results go back in shared memory. After a sticky CUDA fault it answers and
// then exits, because its context cannot run kernels again. When the socket closes it exits.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "run/engine.hpp"
#include "client/codec.hpp"
#include "client/frames.hpp"

namespace {

constexpr int kExitAfterStickyFault = 3;

int64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    long long pages_total = 0, pages_resident = 0;
    statm >> pages_total >> pages_resident;
    return pages_resident * sysconf(_SC_PAGESIZE);
}

void answer(int socket, kplay::Engine& engine, const nlohmann::json& request, bool& exit_after) {
    const std::string type = request.at("type");
    nlohmann::json response = {{"id", request.at("id")}, {"type", type}};
    std::vector<kplay::UniqueFd> blobs;
    if (type == "ping") {
        response["body"] = {{"pid", getpid()}};
    } else if (type == "devices") {
        response["body"] = engine.devices();
    } else if (type == "stats") {
        response["body"] = {{"rss_bytes", resident_bytes()}, {"device_used_bytes", engine.device_memory_in_use()}};
    } else if (type == "compile") {
        response["body"] = engine.compile_file(request.at("body").get<kplay::CompileFileRequest>());
    } else if (type == "run") {
        engine.set_progress_callback([&](const char* phase) {
            kplay::send_frame(socket, {{"id", request.at("id")}, {"type", "progress"}, {"phase", phase}});
        });
        kplay::RunReport report = engine.run(request.at("body").get<kplay::RunRequest>());
        engine.set_progress_callback(nullptr);
        nlohmann::json blob_list = nlohmann::json::array();
        auto attach = [&](const char* name, const void* data, size_t size) {
            if (size == 0) return;
            blobs.push_back(kplay::SharedBlob::create(data, size, name));
            blob_list.push_back({{"name", name}, {"size", size}});
        };
        attach("output", report.output.data(), report.output.size());
        attach("input", report.input.data(), report.input.size());
        attach("map", report.check.map.data(), report.check.map.size() * sizeof(float));
        exit_after = report.sticky_fault();
        response["body"] = report;
        response["blobs"] = blob_list;
    } else {
        response["error"] = "unknown request type '" + type + "'";
    }
    std::vector<int> fds;
    for (const auto& blob : blobs) fds.push_back(blob.get());
    kplay::send_frame(socket, response, fds);
}

}  // namespace

int main(int argc, char** argv) {
    int socket = -1;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--fd") == 0) socket = std::atoi(argv[i + 1]);
    if (socket < 0) {
        std::fprintf(stderr, "kplay-worker is started by kplay and kplay-cli (usage: kplay-worker --fd N)\n");
        return 2;
    }
    kplay::Engine engine(kplay::default_engine_config());
    kplay::FrameReader reader;
    try {
        for (;;) {
            while (auto frame = reader.next()) {
                bool exit_after = false;
                answer(socket, engine, frame->message, exit_after);
                if (exit_after) return kExitAfterStickyFault;
            }
            if (reader.read_from(socket) == kplay::FrameReader::Status::closed) return 0;
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "kplay-worker: %s\n", error.what());
        return 2;
    }
}
