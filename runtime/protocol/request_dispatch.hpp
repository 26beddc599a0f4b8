// One reading of a request's kind for every program that answers requests (kplay-worker, and the host's
// supervisor behind `kplay-worker --stdio`): each kind reaches its handler, and a request of no kind
// they answer (none, an unknown one, a progress or hello message) gets the protocol's error answer here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "protocol/frames.hpp"
#include "protocol/protocol.hpp"

namespace kplay {

class RequestHandler {
public:
    virtual ~RequestHandler() = default;
    // `id` is the request's (0 when it has none); `request` is the whole frame, blobs included.
    virtual void on_run(uint64_t id, const Frame& request) = 0;
    virtual void on_compile(uint64_t id, const Frame& request) = 0;
    virtual void on_devices(uint64_t id, const Frame& request) = 0;
    virtual void on_stats(uint64_t id, const Frame& request) = 0;
    virtual void on_ping(uint64_t id, const Frame& request) = 0;
    // A shown run's primary output at full resolution (ViewRequest), answered as a run's report.
    virtual void on_view(uint64_t id, const Frame& request) = 0;
    // The rest of run `id` is no longer wanted (MessageKind::cut); no answer. A cut that finds no such
    // run in flight (it ended as the cut travelled) is ignored.
    virtual void on_cut(uint64_t id) = 0;
    // Sends an answer the dispatch made itself: the error for a request it could not hand on.
    virtual void send_error(const nlohmann::json& answer) = 0;
};

// Calls the handler for the request's kind; returns that kind, or nullopt when the request was answered
// with an error instead.
std::optional<MessageKind> dispatch_request(const Frame& request, RequestHandler& handler);

// The protocol's error answer to `request` (its id and type echoed, each empty when missing), saying why.
nlohmann::json refusal(const nlohmann::json& request, const std::string& why);

}  // namespace kplay
