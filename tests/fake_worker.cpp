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
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "client/codec.hpp"
#include "client/frames.hpp"

int main(int argc, char** argv) {
    int socket = -1;
    std::string mode, marker;
    bool always = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--fd" && i + 1 < argc) socket = std::atoi(argv[++i]);
        else if (arg == "--mode" && i + 1 < argc) mode = argv[++i];
        else if (arg == "--marker" && i + 1 < argc) marker = argv[++i];
        else if (arg == "--always") always = true;
    }
    const bool misbehave = always || (!marker.empty() && !std::filesystem::exists(marker));
    if (misbehave && !marker.empty()) std::ofstream(marker) << "done";
    if (misbehave && mode == "exit-at-start") return 1;

    kplay::FrameReader reader;
    for (;;) {
        while (auto frame = reader.next()) {
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
