// The results on screen: the arrays kept once (in the shown result), a failure leaving the last good
// picture marked stale, a checked result's arrays kept for its final answer, and the version that
// tells the window when to upload again.
#include "session/results_on_screen.hpp"

#include <gtest/gtest.h>

using namespace kplay;

namespace {

RunReport with_picture(const std::string& kernel, std::vector<unsigned char> pixels = {1, 2, 3}) {
    RunReport report;
    report.stage = Stage::done;
    report.kernel = kernel;
    report.view.kind = OutputKind::image;
    report.view.buffer = "out";
    report.view.output = std::move(pixels);
    return report;
}

RunReport failed(const std::string& kernel) {
    RunReport report;
    report.stage = Stage::compile;
    report.error = "error: expected ';'";
    report.kernel = kernel;
    return report;
}

RunRequest request_of(const std::string& path) {
    RunRequest request;
    request.kernel_path = path;
    return request;
}

}  // namespace

TEST(ResultsOnScreen, AGoodResultIsShownAndItsArraysAreKeptOnce) {
    ResultsOnScreen screen;
    EXPECT_FALSE(screen.last());
    screen.show(with_picture("a"), request_of("a.cu"), false);
    ASSERT_TRUE(screen.shown());
    ASSERT_TRUE(screen.last());
    EXPECT_EQ(screen.shown()->view.output, (std::vector<unsigned char>{1, 2, 3}));
    EXPECT_TRUE(screen.last()->view.output.empty()) << "last() is for numbers and diagnostics";
    EXPECT_EQ(screen.last()->view.kind, OutputKind::image);
    EXPECT_EQ(screen.last()->view.buffer, "out");
    EXPECT_EQ(screen.last_request().kernel_path, "a.cu");
    EXPECT_EQ(screen.version(), 1);
    EXPECT_FALSE(screen.stale());
}

TEST(ResultsOnScreen, AFailureKeepsTheLastGoodPictureMarkedStale) {
    ResultsOnScreen screen;
    screen.show(failed("first"), request_of("k.cu"), false);
    EXPECT_FALSE(screen.stale()) << "nothing on screen to be stale";
    EXPECT_FALSE(screen.shown());
    screen.show(with_picture("good"), request_of("k.cu"), false);
    screen.show(failed("broken"), request_of("broken.cu"), false);
    EXPECT_TRUE(screen.stale());
    EXPECT_EQ(screen.last_request().kernel_path, "broken.cu");
    EXPECT_EQ(screen.shown_request().kernel_path, "k.cu") << "the writer map runs the picture's request again";
    EXPECT_EQ(screen.shown()->kernel, "good");
    EXPECT_EQ(screen.last()->kernel, "broken");
    EXPECT_EQ(screen.version(), 1);
    screen.show(with_picture("fixed"), request_of("k.cu"), false);
    EXPECT_FALSE(screen.stale());
    EXPECT_EQ(screen.version(), 2);
}

TEST(ResultsOnScreen, ACheckedResultLendsItsArraysToItsFinalAnswer) {
    ResultsOnScreen screen;
    RunReport checked = with_picture("k", {9, 8});
    checked.partial = true;
    screen.show_partial(checked, request_of("k.cu"));
    EXPECT_TRUE(screen.shows_partial());
    EXPECT_EQ(screen.version(), 1);
    EXPECT_TRUE(screen.last()->partial);
    EXPECT_TRUE(screen.last()->view.output.empty());

    RunReport final_answer = with_picture("k", {});
    final_answer.view_sent_before = true;
    screen.lend_view(final_answer.view);
    EXPECT_EQ(final_answer.view.output, (std::vector<unsigned char>{9, 8}));
    screen.show(final_answer, request_of("k.cu"), true);
    EXPECT_EQ(screen.shown()->view.output, (std::vector<unsigned char>{9, 8}));
    EXPECT_FALSE(screen.shows_partial());
    EXPECT_EQ(screen.version(), 1) << "the same arrays: nothing to upload again";
}

TEST(ResultsOnScreen, AnInputOnScreenAlreadyIsHandedToTheResultShownInItsPlace) {
    ResultsOnScreen screen;
    RunReport first = with_picture("k");
    first.view.input = {7, 7, 7};
    first.view.input_identity = "puppy";
    screen.show(first, request_of("k.cu"), false);

    OutputView same, other, sent;
    same.input_identity = "puppy";
    other.input_identity = "grace";
    sent.input_identity = "grace";
    sent.input = {1};
    EXPECT_TRUE(screen.can_fill_input(same));
    EXPECT_FALSE(screen.can_fill_input(other)) << "another input, left out: nothing on screen to fill it";
    EXPECT_TRUE(screen.can_fill_input(sent));

    RunReport next = with_picture("k");
    next.view.input_identity = "puppy";  // left out by the worker
    screen.show_partial(next, request_of("k.cu"));
    EXPECT_EQ(screen.shown()->view.input, (std::vector<unsigned char>{7, 7, 7}));
    RunReport after = with_picture("k");
    after.view.input_identity = "puppy";
    screen.show(after, request_of("k.cu"), false);
    EXPECT_EQ(screen.shown()->view.input, (std::vector<unsigned char>{7, 7, 7})) << "handed on again";
    RunReport elsewhere = with_picture("k");
    elsewhere.view.input_identity = "grace";
    elsewhere.view.input = {1};
    screen.show(elsewhere, request_of("k.cu"), false);
    EXPECT_EQ(screen.shown()->view.input, (std::vector<unsigned char>{1})) << "its own input, as sent";
}

TEST(ResultsOnScreen, BothResultsAreChangedInPlace) {
    ResultsOnScreen screen;
    screen.show(with_picture("k"), request_of("k.cu"), false);
    screen.update_each([](RunReport& report) { report.verdict = "50% of cuBLAS"; });
    EXPECT_EQ(screen.last()->verdict, "50% of cuBLAS");
    EXPECT_EQ(screen.shown()->verdict, "50% of cuBLAS");
}
