// A worker's answer and a WorkerResult, each way: what a relay sends for a failed request reads back
// as the same failure, and a run's sticky fault is found, and its error added to, in a decoded answer
// as in one relayed as it came.
#include <gtest/gtest.h>

#include <memory>

#include "client/worker_answer.hpp"
#include "error_code_names.hpp"
#include "values/codec.hpp"

using namespace kplay;

namespace {

WorkerResult failed(MessageKind kind) {
    WorkerResult result;
    result.id = 4;
    result.kind = kind;
    result.failure = WorkerFailure::timeout;
    result.failure_message = "Kernel did not finish within 1 s and was stopped — an endless loop?";
    return result;
}

// What reading `message` back gives, as the client reads an answer.
WorkerResult read_back(const nlohmann::json& message, MessageKind kind) {
    WorkerResult result;
    result.kind = kind;
    read_answer(Frame{message, {}}, result);
    return result;
}

WorkerResult relayed_run(const RunReport& report) {
    WorkerResult result;
    result.kind = MessageKind::run;
    result.answer = std::make_shared<Frame>(
        Frame{{{"id", 1}, {"type", "run"}, {"body", report}, {"blobs", nlohmann::json::array()}}, {}});
    return result;
}

}  // namespace

TEST(WorkerAnswer, AFailedRunsAnswerReadsBackAsItsReport) {
    WorkerResult result = failed(MessageKind::run);
    result.run.file = "k.cu";
    result.run.stage = Stage::worker;
    result.run.error = result.failure_message;
    result.run.error_code = ErrorCode::timeout;
    const nlohmann::json message = failed_answer(result);
    EXPECT_EQ(message.at("id"), 4);
    EXPECT_EQ(message.at("type"), "run");
    EXPECT_EQ(message.at("blobs"), nlohmann::json::array());  // a run's answer always lists its blobs
    const WorkerResult back = read_back(message, MessageKind::run);
    EXPECT_EQ(back.run.file, "k.cu");
    EXPECT_EQ(back.run.stage, Stage::worker);
    EXPECT_EQ(back.run.error, result.failure_message);
    EXPECT_EQ(back.run.error_code, "KPLAY_TIMEOUT");
}

TEST(WorkerAnswer, EveryKindsFailedAnswerHasTheBodyItsReaderWants) {
    WorkerResult compile = failed(MessageKind::compile);
    compile.compile.input_error = "no such file";
    EXPECT_EQ(read_back(failed_answer(compile), MessageKind::compile).compile.input_error, "no such file");

    WorkerResult stats = failed(MessageKind::stats);
    const WorkerResult stats_back = read_back(failed_answer(stats), MessageKind::stats);
    EXPECT_EQ(stats_back.stats.rss_bytes, 0);
    EXPECT_EQ(stats_back.stats.device_used_bytes, -1);
    EXPECT_EQ(stats_back.stats.supervisor_rss_bytes, -1);

    EXPECT_NO_THROW(read_back(failed_answer(failed(MessageKind::devices)), MessageKind::devices));
    WorkerResult ping = failed(MessageKind::ping);
    ping.worker_pid = 77;
    EXPECT_EQ(failed_answer(ping).at("body"), (nlohmann::json{{"pid", 77}}));
    EXPECT_FALSE(failed_answer(ping).contains("blobs"));
}

TEST(WorkerAnswer, AStickyFaultIsFoundDecodedOrRelayed) {
    RunReport report;
    report.error = "an illegal address";
    WorkerResult decoded;
    decoded.kind = MessageKind::run;
    decoded.run = report;
    EXPECT_FALSE(reports_sticky_fault(decoded));
    EXPECT_FALSE(reports_sticky_fault(relayed_run(report)));

    report.fault.sticky = true;
    decoded.run = report;
    EXPECT_TRUE(reports_sticky_fault(decoded));
    EXPECT_TRUE(reports_sticky_fault(relayed_run(report)));

    WorkerResult ping;  // only a run reports faults
    EXPECT_FALSE(reports_sticky_fault(ping));
    // A relayed answer of another shape says nothing (its reader finds what is wrong with it).
    WorkerResult odd = relayed_run(report);
    odd.answer->message["body"] = nullptr;
    EXPECT_FALSE(reports_sticky_fault(odd));
}

TEST(WorkerAnswer, TheRunsErrorIsAddedToDecodedOrRelayed) {
    RunReport report;
    report.error = "an illegal address.";
    WorkerResult decoded;
    decoded.kind = MessageKind::run;
    decoded.run = report;
    append_to_run_error(decoded, " Replaced.");
    EXPECT_EQ(decoded.run.error, "an illegal address. Replaced.");

    WorkerResult relayed = relayed_run(report);
    append_to_run_error(relayed, " Replaced.");
    EXPECT_EQ(relayed.answer->message["body"]["error"], "an illegal address. Replaced.");
    EXPECT_EQ(relayed.answer->message["body"].get<RunReport>().error, "an illegal address. Replaced.");
}
