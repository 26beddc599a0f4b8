// The one reading of a request's kind: each kind reaches its handler with the request's id, and anything
// else is answered with the protocol's error message, no handler called.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/request_dispatch.hpp"

using namespace kplay;

namespace {

// Records which handler got which id, and the errors the dispatch sent.
struct Recorder final : RequestHandler {
    std::vector<std::string> calls;
    std::vector<nlohmann::json> errors;
    void on_run(uint64_t id, const Frame&) override { calls.push_back("run " + std::to_string(id)); }
    void on_compile(uint64_t id, const Frame&) override { calls.push_back("compile " + std::to_string(id)); }
    void on_devices(uint64_t id, const Frame&) override { calls.push_back("devices " + std::to_string(id)); }
    void on_stats(uint64_t id, const Frame&) override { calls.push_back("stats " + std::to_string(id)); }
    void on_ping(uint64_t id, const Frame&) override { calls.push_back("ping " + std::to_string(id)); }
    void on_view(uint64_t id, const Frame&) override { calls.push_back("view " + std::to_string(id)); }
    void on_cut(uint64_t id) override { calls.push_back("cut " + std::to_string(id)); }
    void send_error(const nlohmann::json& answer) override { errors.push_back(answer); }
};

Frame frame_of(nlohmann::json message) { return Frame{std::move(message), {}}; }

}  // namespace

TEST(RequestDispatch, EveryKindReachesItsHandler) {
    const std::vector<std::pair<MessageKind, std::string>> kinds = {{MessageKind::run, "run"},
                                                                    {MessageKind::compile, "compile"},
                                                                    {MessageKind::devices, "devices"},
                                                                    {MessageKind::stats, "stats"},
                                                                    {MessageKind::ping, "ping"},
                                                                    {MessageKind::view, "view"},
                                                                    {MessageKind::cut, "cut"}};
    uint64_t id = 40;
    for (const auto& [kind, name] : kinds) {
        Recorder recorder;
        const Frame request = frame_of(request_message(kind, ++id, nullptr));
        const std::optional<MessageKind> dispatched = dispatch_request(request, recorder);
        EXPECT_EQ(dispatched, kind) << name;
        EXPECT_EQ(recorder.calls, std::vector<std::string>{name + " " + std::to_string(id)});
        EXPECT_TRUE(recorder.errors.empty()) << name;
    }
}

TEST(RequestDispatch, TheHandlerSeesTheWholeFrame) {
    struct Inspector final : RequestHandler {
        const Frame* seen = nullptr;
        void on_run(uint64_t, const Frame& request) override { seen = &request; }
        void on_compile(uint64_t, const Frame&) override {}
        void on_devices(uint64_t, const Frame&) override {}
        void on_stats(uint64_t, const Frame&) override {}
        void on_ping(uint64_t, const Frame&) override {}
        void on_view(uint64_t, const Frame&) override {}
        void on_cut(uint64_t) override {}
        void send_error(const nlohmann::json&) override {}
    } inspector;
    const Frame request = frame_of(request_message(MessageKind::run, 3, {{"kernel_path", "k.cu"}}));
    dispatch_request(request, inspector);
    EXPECT_EQ(inspector.seen, &request);
}

TEST(RequestDispatch, AnythingElseGetsTheErrorAnswer) {
    struct Case {
        nlohmann::json message;
        uint64_t id;
        std::string type;
    };
    const std::vector<Case> cases = {
        {{{"id", 5}, {"type", "launch"}}, 5, "launch"},                            // an unknown kind
        {progress_message(6, Phase::gpu), 6, "progress"},                          // what a worker sends
        {{{"id", 7}, {"type", "hello"}, {"body", nlohmann::json::object()}}, 7, "hello"},
        {{{"id", 8}}, 8, ""},                                                      // no type at all
        {{{"id", 9}, {"type", 42}}, 9, ""},                                        // a type that is no string
        {nlohmann::json::array({1, 2}), 0, ""},                                    // not an object
    };
    for (const Case& c : cases) {
        Recorder recorder;
        EXPECT_EQ(dispatch_request(frame_of(c.message), recorder), std::nullopt) << c.message.dump();
        EXPECT_TRUE(recorder.calls.empty()) << c.message.dump();
        ASSERT_EQ(recorder.errors.size(), 1u) << c.message.dump();
        EXPECT_EQ(recorder.errors[0], error_message(c.id, c.type, "unknown request type '" + c.type + "'"))
            << c.message.dump();
    }
}

TEST(RequestDispatch, ARefusalEchoesTheIdAndTypeItCanRead) {
    EXPECT_EQ(refusal({{"id", 12}, {"type", "run"}}, "too many requests at once"),
              error_message(12, "run", "too many requests at once"));
    EXPECT_EQ(refusal("not an object", "why"), error_message(0, "", "why"));
    EXPECT_EQ(refusal({{"id", "seven"}, {"type", "run"}}, "why"), error_message(0, "run", "why"));
    EXPECT_EQ(refusal({{"id", -7}, {"type", "run"}}, "why"), error_message(0, "run", "why"));
}
