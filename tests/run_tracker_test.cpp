// The run in flight: only the newest run's answer, from the worker it went to, counts; a key that hung
// is remembered; a checked result is taken once; sent and answered runs are counted.
#include "session/run_tracker.hpp"

#include <gtest/gtest.h>

using namespace kplay;

namespace {

RunRequest request_of(const std::string& path) {
    RunRequest request;
    request.kernel_path = path;
    return request;
}

}  // namespace

TEST(RunTracker, OnlyTheNewestRunsAnswerCounts) {
    RunTracker tracker;
    EXPECT_FALSE(tracker.waiting());
    EXPECT_EQ(tracker.busy_seconds(), 0);
    tracker.sent(3, request_of("a.cu"), "key a", false);
    tracker.sent(4, request_of("b.cu"), "key b", false);  // a newer save
    EXPECT_TRUE(tracker.waiting());
    EXPECT_GE(tracker.busy_seconds(), 0);
    EXPECT_FALSE(tracker.answers(3));
    EXPECT_TRUE(tracker.answers(4));
    EXPECT_EQ(tracker.submitted(), 2);
    EXPECT_EQ(tracker.received(), 0);

    tracker.finished(false);
    EXPECT_FALSE(tracker.waiting());
    EXPECT_EQ(tracker.received(), 1);
    EXPECT_EQ(tracker.request().kernel_path, "b.cu");
    EXPECT_EQ(tracker.key(), "key b");
    EXPECT_FALSE(tracker.hung("key b"));
}

TEST(RunTracker, AnAnswerCountsOnlyFromTheWorkerAsked) {
    RunTracker tracker;
    tracker.sent(2, request_of("k.cu"), "key", true);
    EXPECT_TRUE(tracker.thorough());
    EXPECT_TRUE(tracker.asked(true));
    EXPECT_FALSE(tracker.asked(false)) << "the main worker's request 2 is another one";
}

TEST(RunTracker, AKeyThatHungIsRememberedUntilAnotherFileOpens) {
    RunTracker tracker;
    tracker.sent(1, request_of("k.cu"), "hangs", false);
    tracker.finished(true);
    EXPECT_TRUE(tracker.hung("hangs"));
    tracker.sent(2, request_of("k.cu"), "fixed", false);
    tracker.finished(false);
    EXPECT_TRUE(tracker.hung("hangs")) << "an undo back to it must not run it by itself";
    tracker.forget_hung();
    EXPECT_FALSE(tracker.hung("hangs"));
}

TEST(RunTracker, ARunsCheckedResultIsTakenOnce) {
    RunTracker tracker;
    tracker.sent(5, request_of("k.cu"), "key", false);
    EXPECT_FALSE(tracker.take_partial(5));
    tracker.partial_shown();
    EXPECT_FALSE(tracker.take_partial(6));
    tracker.partial_shown();
    EXPECT_TRUE(tracker.take_partial(5));
    EXPECT_FALSE(tracker.take_partial(5));
}

TEST(RunTracker, ARunAnsweredAtOnceOvertakesTheOneInFlight) {
    RunTracker tracker;
    tracker.sent(5, request_of("slow.cu"), "slow", false);
    tracker.answered_at_once(request_of("undo.cu"));
    EXPECT_FALSE(tracker.waiting());
    EXPECT_FALSE(tracker.answers(5));
    EXPECT_EQ(tracker.request().kernel_path, "undo.cu");
    EXPECT_EQ(tracker.submitted(), 2);
    EXPECT_EQ(tracker.received(), 1);
}
