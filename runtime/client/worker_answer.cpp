// Reading and writing an answer's body by kind (the codec does each value; this says which is where).
#include "client/worker_answer.hpp"

#include "values/codec.hpp"

namespace kplay {

void read_answer(const Frame& answer, WorkerResult& result) {
    const nlohmann::json& message = answer.message;
    const nlohmann::json& body = message.at(protocol_field::body);
    switch (result.kind) {
        case MessageKind::run:
        case MessageKind::view:
            result.run = body.get<RunReport>();
            read_report_blobs(message.at(protocol_field::blobs), answer.fds, result.run);
            break;
        case MessageKind::compile:
            result.compile = body.get<CompileFileResult>();
            read_compile_blobs(message.value(protocol_field::blobs, nlohmann::json::array()), answer.fds,
                               result.compile);
            break;
        case MessageKind::devices: result.devices = body.get<DeviceQuery>(); break;
        case MessageKind::stats:
            result.stats.rss_bytes = body.at("rss_bytes");
            result.stats.device_used_bytes = body.at("device_used_bytes");
            result.stats.supervisor_rss_bytes = body.value("supervisor_rss_bytes", int64_t{-1});
            break;
        case MessageKind::ping:
        case MessageKind::progress:
        case MessageKind::hello:
        case MessageKind::cut: break;
    }
}

nlohmann::json failed_answer(const WorkerResult& result) {
    nlohmann::json message = {{protocol_field::id, result.id}, {protocol_field::type, message_kind_name(result.kind)}};
    nlohmann::json& body = message[protocol_field::body];
    switch (result.kind) {
        case MessageKind::run:
        case MessageKind::view:
            body = result.run;
            message[protocol_field::blobs] = nlohmann::json::array();  // a failure's report has no arrays
            break;
        case MessageKind::compile:
            body = result.compile;
            message[protocol_field::blobs] = nlohmann::json::array();
            break;
        case MessageKind::devices: body = result.devices; break;
        case MessageKind::stats:
            body = {{"rss_bytes", result.stats.rss_bytes},
                    {"device_used_bytes", result.stats.device_used_bytes},
                    {"supervisor_rss_bytes", result.stats.supervisor_rss_bytes}};
            break;
        case MessageKind::ping: body = {{"pid", result.worker_pid}}; break;
        case MessageKind::progress:
        case MessageKind::hello:
        case MessageKind::cut: break;
    }
    return message;
}

bool reports_sticky_fault(const WorkerResult& result) {
    if (result.kind != MessageKind::run) return false;
    if (!result.answer) return result.run.sticky_fault();
    // A relayed answer is not decoded: its RunReport::fault is read as the codec writes it, and an
    // answer of another shape says nothing (the relay's peer reads it and finds what is wrong).
    const nlohmann::json& message = result.answer->message;
    const auto body = message.find(protocol_field::body);
    if (body == message.end() || !body->is_object()) return false;
    const auto fault = body->find("fault");
    if (fault == body->end() || !fault->is_object()) return false;
    const auto sticky = fault->find("sticky");
    return sticky != fault->end() && *sticky == true;
}

void append_to_run_error(WorkerResult& result, const std::string& text) {
    if (!result.answer) {
        result.run.error += text;
        return;
    }
    nlohmann::json& body = result.answer->message[protocol_field::body];
    if (!body.is_object()) return;
    const auto error = body.find("error");
    body["error"] = (error != body.end() && error->is_string() ? error->get<std::string>() : std::string()) + text;
}

}  // namespace kplay
