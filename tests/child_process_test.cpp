// A link's process: how it ended, in words; waiting with and without blocking; a group killed whole.
#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "client/child_process.hpp"
#include "test_support.hpp"

extern char** environ;

using namespace kplay;

namespace {

// `sh -c script`, leading a process group of its own when `group`.
ChildProcess start(const std::string& script, bool group = false) {
    std::vector<std::string> args{"/bin/sh", "-c", script};
    std::vector<char*> argv = argv_of(args);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    if (group) {
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attributes, 0);
    }
    pid_t pid = 0;
    EXPECT_EQ(posix_spawn(&pid, argv[0], nullptr, &attributes, argv.data(), environ), 0);
    posix_spawnattr_destroy(&attributes);
    return ChildProcess(pid, group);
}

}  // namespace

TEST(ChildProcess, SaysHowItEnded) {
    ChildProcess exits = start("exit 3");
    const std::optional<int> status = exits.wait();
    ASSERT_TRUE(status);
    EXPECT_EQ(exit_description(*status, "the worker"), "the worker exited with status 3");
    EXPECT_FALSE(exits.running());
    EXPECT_EQ(exits.wait(), std::nullopt);  // gone: nothing more to wait for

    ChildProcess sleeps = start("sleep 30");
    EXPECT_TRUE(sleeps.running());
    EXPECT_EQ(sleeps.try_wait(), std::nullopt);
    sleeps.kill();
    const std::optional<int> killed = sleeps.wait();
    ASSERT_TRUE(killed);
    EXPECT_EQ(exit_description(*killed, "ssh"), "ssh was killed by signal 9 (KILL)");
}

TEST(ChildProcess, EndsWithinAGracePeriodOrNot) {
    ChildProcess quick = start("exit 0");
    EXPECT_TRUE(quick.ends_within(500));
    EXPECT_FALSE(quick.running());
    ChildProcess slow = start("sleep 30");
    EXPECT_FALSE(slow.ends_within(5));
    EXPECT_TRUE(slow.running());
    slow.kill();
    slow.wait();
}

TEST(ChildProcess, AGroupIsKilledWithItsChildren) {
    // The shell starts a sleeper that would outlive it, as `sh -c` holding a connection open would.
    test::TempDir dir;
    const std::filesystem::path pid_file = dir.path() / "sleeper";
    ChildProcess shell = start("sleep 30 & echo $! > '" + pid_file.string() + "'; wait", true);
    std::string text;
    for (int i = 0; i < 200 && text.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::ifstream(pid_file) >> text;
    }
    ASSERT_FALSE(text.empty());
    shell.kill();
    shell.wait();
    // The sleeper is gone, or a zombie its new parent has yet to reap.
    auto ended = [&] {
        std::ifstream stat("/proc/" + text + "/stat");
        std::string pid, name, state;
        return !(stat >> pid >> name >> state) || state == "Z";
    };
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
        gone = ended();
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(gone);
}
