// The worker pair against the fake worker: a run is held for the device list, the list that could not
// be had is asked for again before the next run, and the thorough worker is made on the first thorough run.
#include "session/worker_pair.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "test_support.hpp"

using namespace kplay;
using namespace std::chrono_literals;

namespace {

WorkerOptions fake(const std::vector<std::string>& args) {
    WorkerOptions options;
    options.worker_path = KPLAY_TEST_FAKE_WORKER;
    options.worker_args = args;
    return options;
}

// The main worker's next answer (the device list is the only thing asked of it here).
WorkerResult next_answer(WorkerPair& workers) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
        if (auto result = workers.main().poll()) return *result;
        std::this_thread::sleep_for(5ms);
    }
    ADD_FAILURE() << "no answer from the worker";
    return {};
}

}  // namespace

TEST(WorkerPair, ARunIsHeldForTheDeviceList) {
    WorkerPair workers(fake({"--session"}));
    EXPECT_FALSE(workers.devices_known());
    EXPECT_FALSE(workers.ready_for_run(/*automatic=*/true, false));
    EXPECT_TRUE(workers.holds_run());
    EXPECT_EQ(workers.device_banner(), "") << "nothing to say before the list came";

    const WorkerResult list = next_answer(workers);
    ASSERT_TRUE(workers.is_device_list(list));
    const std::optional<bool> held = workers.take_device_list(list);
    ASSERT_TRUE(held);
    EXPECT_TRUE(*held) << "the held run was automatic";
    EXPECT_FALSE(workers.holds_run());
    EXPECT_TRUE(workers.devices_known());
    EXPECT_TRUE(workers.devices().devices.empty());
    EXPECT_NE(workers.device_banner().find("No CUDA device (No CUDA driver)"), std::string::npos)
        << workers.device_banner();
    EXPECT_TRUE(workers.ready_for_run(false, false));
    EXPECT_FALSE(workers.take_device_list(list)) << "no run held any more";
}

TEST(WorkerPair, AListThatCouldNotBeHadIsAskedForAgainBeforeTheNextRun) {
    test::TempDir dir;
    // The first request crashes the fake worker: the device list gets no answer.
    WorkerPair workers(fake({"--mode", "crash", "--marker", (dir.path() / "marker").string()}));
    EXPECT_FALSE(workers.ready_for_run(false, false));
    const WorkerResult list = next_answer(workers);
    ASSERT_TRUE(workers.is_device_list(list));
    ASSERT_FALSE(list.ok());
    EXPECT_EQ(workers.take_device_list(list), std::optional<bool>(false));
    EXPECT_TRUE(workers.devices_known());
    EXPECT_EQ(workers.devices().driver.message, list.failure_message);

    EXPECT_TRUE(workers.ready_for_run(false, /*devices_just_came=*/true))
        << "the held run goes now, not asked in a loop";
    EXPECT_FALSE(workers.ready_for_run(true, false)) << "the next run asks for the list again first";
    EXPECT_FALSE(workers.devices_known());
    EXPECT_TRUE(workers.holds_run());
    EXPECT_FALSE(workers.is_device_list(list)) << "the new question has an id of its own";
}

TEST(WorkerPair, TheThoroughWorkerIsMadeOnItsFirstRun) {
    WorkerPair workers(fake({"--session"}));
    EXPECT_EQ(workers.thorough(), nullptr);
    EXPECT_EQ(&workers.for_run(false), &workers.main());
    EXPECT_EQ(&workers.answering(true), &workers.main()) << "not made yet: nothing waits on it";
    WorkerClient& thorough = workers.for_run(true);
    EXPECT_EQ(workers.thorough(), &thorough);
    EXPECT_TRUE(thorough.options().thorough);
    EXPECT_EQ(&workers.for_run(true), &thorough);
    EXPECT_EQ(&workers.answering(true), &thorough);
    EXPECT_EQ(workers.sibling_cli(), std::filesystem::path(KPLAY_TEST_FAKE_WORKER).parent_path() / "kplay-cli");
}
