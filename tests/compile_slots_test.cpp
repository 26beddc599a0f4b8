// The compile server's admission of compiles: side by side in one folder, a -pch compile alone, another
// folder only once the running ones are done, and a folder that cannot be entered costs only its compile.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "compile/compile_slots.hpp"

using namespace kplay;
using namespace std::chrono_literals;

namespace {

// True once `done` holds, false after two seconds.
template <typename Done>
bool eventually(Done done) {
    for (auto until = std::chrono::steady_clock::now() + 2s; std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(1ms))
        if (done()) return true;
    return false;
}

struct Entered {
    std::mutex mutex;
    std::vector<std::string> folders;
    std::function<void(const std::string&)> enter() {
        return [this](const std::string& folder) {
            if (folder == "/no/such") throw std::runtime_error("cannot enter " + folder);
            std::lock_guard lock(mutex);
            folders.push_back(folder);
        };
    }
};

}  // namespace

TEST(CompileSlots, CompilesInOneFolderRunSideBySideUpToTheLimit) {
    Entered entered;
    CompileSlots slots(3, entered.enter());
    std::atomic<bool> release{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
        threads.emplace_back([&] {
            const CompileSlots::Slot slot(slots, "/work", false);
            while (!release) std::this_thread::sleep_for(1ms);
        });
    EXPECT_TRUE(eventually([&] { return slots.running() == 3; }));
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(slots.running(), 3);  // the fourth waits for a place
    release = true;
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(slots.running(), 0);
    EXPECT_EQ(slots.most_running(), 3);
    EXPECT_EQ(entered.folders, std::vector<std::string>{"/work"});  // entered once, joined by the others
}

// A compile (`first_folder`, `first_pch`) holds its slot; the second must not start until it is done.
void expect_second_waits_for_first(CompileSlots& slots, const std::string& first_folder, bool first_pch,
                                   const std::string& second_folder, bool second_pch) {
    std::promise<void> release_first;
    std::thread first([&] {
        const CompileSlots::Slot slot(slots, first_folder, first_pch);
        release_first.get_future().wait();
    });
    ASSERT_TRUE(eventually([&] { return slots.running() == 1; }));
    std::atomic<bool> second_ran{false};
    std::thread second([&] {
        const CompileSlots::Slot slot(slots, second_folder, second_pch);
        second_ran = true;
    });
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(second_ran);
    release_first.set_value();
    first.join();
    second.join();
    EXPECT_TRUE(second_ran);
    EXPECT_EQ(slots.most_running(), 1);
}

TEST(CompileSlots, APchCompileRunsAlone) {
    Entered entered;
    CompileSlots slots(8, entered.enter());
    expect_second_waits_for_first(slots, "/work", true, "/work", false);
}

TEST(CompileSlots, APlainCompileIsNotJoinedByAPchOne) {
    Entered entered;
    CompileSlots slots(8, entered.enter());
    expect_second_waits_for_first(slots, "/work", false, "/work", true);
}

TEST(CompileSlots, AnotherFolderWaitsUntilTheRunningCompilesAreDone) {
    Entered entered;
    CompileSlots slots(8, entered.enter());
    expect_second_waits_for_first(slots, "/a", false, "/b", false);  // /a is the process's folder meanwhile
    EXPECT_EQ(entered.folders, (std::vector<std::string>{"/a", "/b"}));
}

TEST(CompileSlots, AFolderThatCannotBeEnteredFailsItsCompileOnly) {
    Entered entered;
    CompileSlots slots(2, entered.enter());
    EXPECT_THROW(CompileSlots::Slot(slots, "/no/such", false), std::runtime_error);
    EXPECT_EQ(slots.running(), 0);
    {
        const CompileSlots::Slot slot(slots, "/work", false);
        EXPECT_EQ(slots.running(), 1);
    }
    EXPECT_EQ(entered.folders, std::vector<std::string>{"/work"});
}
