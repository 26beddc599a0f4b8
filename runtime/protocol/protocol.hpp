// The vocabulary of kplay's worker protocol, in one place: the message kinds, the fields every message
// has, progress messages, and the shared-memory blobs a run's answer carries.
//
//   request:  {"id": N, "type": "run" | "compile" | "devices" | "stats" | "ping" | "view", "body": {...}}
//   view:     body {"key": OutputView::full_view_key, "thorough": bool}; answered as a run, its body a
//             RunReport that holds the full-resolution view (or an error saying why not)
//   progress: {"id": N, "type": "progress", "phase": "compile" | "cpu" | "gpu", "fraction": 0..1 or -1}
//   a progressive run's first answer: {"id": N, "type": "run", "partial": true, "body": RunReport, "blobs": [...]},
//   then its final answer as any run's.
//   answer:   {"id": N, "type": <the request's>, "body": {...}, "blobs": [{"name": ..., "size": bytes}]}
//             or {"id": N, "type": ..., "error": "why the worker could not handle it"}
//   hello:    {"type": "hello", "body": {"host", "pid", "worker"}}: the first frame a remote worker
//             (kplay-worker --stdio) sends, before any request
// Over a stream (a remote worker) blobs travel inline (stream_frames.hpp); a remote answer can carry
// "failure": {"kind", "message"} when the host's supervisor lost its worker (a crash, the watchdog),
// and a request carries "limits" (the watchdog's timeouts) and "files"/"image" (remote_bundle.hpp).
// Blobs travel as memfd descriptors attached to the answer's frame (frames.hpp), in the list's order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/unique_fd.hpp"
#include "values/run_report.hpp"
#include "values/stage.hpp"

namespace kplay {

// `cut`: the client no longer wants the rest of run `id` in flight (a newer run overtook it); sent while
// that run is in flight, never answered itself: the run's final answer comes sooner (kCutShortWarning).
enum class MessageKind { run, compile, devices, stats, ping, progress, hello, view, cut };
const char* message_kind_name(MessageKind kind);
std::optional<MessageKind> parse_message_kind(std::string_view text);

namespace protocol_field {
inline constexpr const char* id = "id";
inline constexpr const char* type = "type";
inline constexpr const char* body = "body";
inline constexpr const char* blobs = "blobs";
inline constexpr const char* error = "error";
inline constexpr const char* phase = "phase";
inline constexpr const char* fraction = "fraction";
inline constexpr const char* name = "name";
inline constexpr const char* size = "size";
inline constexpr const char* failure = "failure";
inline constexpr const char* limits = "limits";
inline constexpr const char* partial = "partial";  // true on a progressive run's first answer; the final one follows
}  // namespace protocol_field

nlohmann::json request_message(MessageKind kind, uint64_t id, nlohmann::json body);
// fraction: how far the phase has got (0..1), or -1 when unknown.
nlohmann::json progress_message(uint64_t id, Phase phase, double fraction = -1);
nlohmann::json error_message(uint64_t id, std::string_view type, const std::string& error);

// The kind of a received message; nullopt when its type is missing or unknown.
std::optional<MessageKind> message_kind(const nlohmann::json& message);

// A run report's arrays (the OutputView's output, map, input and series) as shared-memory blobs.
struct ReportBlobs {
    nlohmann::json list = nlohmann::json::array();  // [{"name", "size"}], in the order of `fds`
    std::vector<UniqueFd> fds;
};
ReportBlobs make_report_blobs(const RunReport& report);
// Puts received blobs back into the report; throws ProtocolError for an unknown name, a count that
// does not match or a size that is not a whole number of elements.
void read_report_blobs(const nlohmann::json& list, const std::vector<UniqueFd>& fds, RunReport& report);

// A compile's CUBIN (not JSON text) as a blob, and back; a PTX compile has none.
ReportBlobs make_compile_blobs(const CompileFileResult& result);
void read_compile_blobs(const nlohmann::json& list, const std::vector<UniqueFd>& fds, CompileFileResult& result);

}  // namespace kplay
