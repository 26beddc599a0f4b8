// The request kinds a worker answers, read in one place.
#include "protocol/request_dispatch.hpp"

namespace kplay {

namespace {

std::string request_type(const nlohmann::json& request) {
    if (!request.is_object()) return "";
    const auto type = request.find(protocol_field::type);
    return type != request.end() && type->is_string() ? type->get<std::string>() : "";
}

// 0 when there is none to echo (a negative or fractional id included: nlohmann's conversion of one
// to uint64_t is undefined behaviour).
uint64_t request_id(const nlohmann::json& request) {
    if (!request.is_object()) return 0;
    const auto id = request.find(protocol_field::id);
    if (id == request.end() || !id->is_number_integer()) return 0;
    if (id->is_number_unsigned()) return id->get<uint64_t>();
    const int64_t value = id->get<int64_t>();
    return value > 0 ? static_cast<uint64_t>(value) : 0;
}

}  // namespace

nlohmann::json refusal(const nlohmann::json& request, const std::string& why) {
    return error_message(request_id(request), request_type(request), why);
}

std::optional<MessageKind> dispatch_request(const Frame& request, RequestHandler& handler) {
    const nlohmann::json& message = request.message;
    const std::optional<MessageKind> kind = message.is_object() ? message_kind(message) : std::nullopt;
    const uint64_t id = request_id(message);
    switch (kind.value_or(MessageKind::hello)) {
        case MessageKind::run: handler.on_run(id, request); return kind;
        case MessageKind::compile: handler.on_compile(id, request); return kind;
        case MessageKind::devices: handler.on_devices(id, request); return kind;
        case MessageKind::stats: handler.on_stats(id, request); return kind;
        case MessageKind::ping: handler.on_ping(id, request); return kind;
        case MessageKind::view: handler.on_view(id, request); return kind;
        case MessageKind::cut: handler.on_cut(id); return kind;  // never answered
        case MessageKind::progress:
        case MessageKind::hello: break;  // what a worker sends, never what it is asked
    }
    handler.send_error(refusal(message, "unknown request type '" + request_type(message) + "'"));
    return std::nullopt;
}

}  // namespace kplay
