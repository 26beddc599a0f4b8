// The debugger on the emulated device, through gdb: it stops only in the chosen thread, a step stays in
// that thread across a __syncthreads (the block's other fibers run meanwhile), continue finds the line's
// next hit in a loop, the block's shared array is read as it is, and a bad line or thread is said so.
// Then `kplay-cli debug` as README prints it, in text and JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/subprocess.hpp"
#include "session/debug_session.hpp"
#include "test_support.hpp"

namespace {

using kplay::DebugIndex;
using kplay::DebugRequest;
using kplay::DebugSession;
using kplay::DebugState;
using kplay::DebugStop;

std::string missing_gdb() {
    return kplay::find_in_path("gdb").empty() ? "gdb is not installed (scripts/install-deps and .ci/run install it)" : "";
}

// block_sums.cu at block (1,0,0), thread (5,0,0): t = 5, i = 261, x[i] = i.
DebugRequest request_at(int line, DebugIndex thread = {5, 0, 0}, DebugIndex block = {1, 0, 0}) {
    DebugRequest request;
    request.kplay_cli = KPLAY_TEST_CLI;
    request.file = kplay::test::data_dir() / "debug" / "block_sums.cu";
    request.block = block;
    request.thread = thread;
    request.line = line;
    request.timeout_s = 180;
    return request;
}

std::string value_of(const std::vector<kplay::DebugVariable>& variables, const std::string& name) {
    for (const auto& v : variables)
        if (v.name == name) return v.value;
    return "<" + name + " not listed>";
}

std::string describe(const DebugStop& stop) {
    std::string text = std::string(kplay::debug_state_name(stop.state)) + " at " + stop.file + ":" + std::to_string(stop.line) + " " +
                       stop.message + "\n";
    for (const auto& v : stop.locals) text += "  local " + v.name + " = " + v.value + "\n";
    for (const auto& v : stop.shared) text += "  shared " + v.name + " = " + v.value.substr(0, 80) + "\n";
    return text;
}

class DebugSessionTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (const std::string why = missing_gdb(); !why.empty()) {
            if (std::getenv("KPLAY_REQUIRE_GDB")) FAIL() << why;
            GTEST_SKIP() << why;
        }
        setenv("XDG_CACHE_HOME", (cache_.path() / "cache").c_str(), 1);
    }
    kplay::test::TempDir cache_;
};

}  // namespace

TEST_F(DebugSessionTest, StopsOnlyInTheChosenThreadStepsAcrossABarrierAndContinuesToTheNextHit) {
    DebugSession session;
    const DebugStop first = session.start(request_at(15));
    ASSERT_EQ(first.state, DebugState::stopped) << describe(first);
    EXPECT_EQ(first.line, 15) << describe(first);
    EXPECT_EQ(first.function.find("block_sums"), 0u) << first.function;
    // Read from the stopped process, not echoed from the request.
    EXPECT_EQ(first.thread, (DebugIndex{5, 0, 0}));
    EXPECT_EQ(first.block, (DebugIndex{1, 0, 0}));
    EXPECT_EQ(value_of(first.locals, "t"), "5") << describe(first);
    EXPECT_EQ(value_of(first.locals, "i"), "261") << describe(first);
    EXPECT_EQ(value_of(first.locals, "stride"), "128") << describe(first);
    // The block's shared array, after the first barrier: partial[t] = x[256 + t] = 256 + t, and threads
    // 0-4 (resumed before thread 5) have added partial[t + 128] already.
    ASSERT_EQ(first.shared.size(), 1u) << describe(first);
    EXPECT_EQ(first.shared[0].name, "partial");
    EXPECT_EQ(first.shared[0].type, "float [256]");
    EXPECT_EQ(first.shared[0].value.rfind("{640, 642, 644, 646, 648, 261, 262, 263", 0), 0u) << first.shared[0].value;
    EXPECT_EQ(value_of(first.locals, "partial"), "<partial not listed>");  // shared memory is not a local

    const DebugStop stepped = session.step();
    ASSERT_EQ(stepped.state, DebugState::stopped) << describe(stepped);
    EXPECT_EQ(stepped.line, 16);
    EXPECT_EQ(stepped.thread, (DebugIndex{5, 0, 0}));
    EXPECT_EQ(session.evaluate("partial[5]").value, "650");  // 261 + 389, this thread's own addition
    // Threads are resumed in order: thread 127 has not reached its addition before the barrier.
    EXPECT_EQ(session.evaluate("partial[127]").value, "383");

    const DebugStop past_barrier = session.step();
    ASSERT_EQ(past_barrier.state, DebugState::stopped) << describe(past_barrier);
    EXPECT_TRUE(past_barrier.line == 14 || past_barrier.line == 15) << describe(past_barrier);
    EXPECT_EQ(past_barrier.thread, (DebugIndex{5, 0, 0}));
    EXPECT_EQ(past_barrier.block, (DebugIndex{1, 0, 0}));
    EXPECT_EQ(session.evaluate("partial[127]").value, "894");  // every thread passed the barrier: 383 + 511

    const DebugStop again = session.continue_();
    ASSERT_EQ(again.state, DebugState::stopped) << describe(again);
    EXPECT_EQ(again.line, 15);
    EXPECT_EQ(again.thread, (DebugIndex{5, 0, 0}));
    EXPECT_EQ(value_of(again.locals, "stride"), "64") << describe(again);
    session.finish();
    EXPECT_FALSE(session.active());
}

TEST_F(DebugSessionTest, ContinueAfterTheLastHitEndsTheLaunch) {
    DebugSession session;
    const DebugStop first = session.start(request_at(18, {0, 0, 0}, {3, 0, 0}));
    ASSERT_EQ(first.state, DebugState::stopped) << describe(first);
    EXPECT_EQ(first.block, (DebugIndex{3, 0, 0}));
    EXPECT_EQ(session.evaluate("partial[0]").value, "229248");  // the tree's sum of 768..1023
    const DebugStop closing = session.step();
    EXPECT_EQ(closing.line, 19) << describe(closing);
    const DebugStop returned = session.step();
    EXPECT_EQ(returned.state, DebugState::thread_returned) << describe(returned);
    EXPECT_EQ(returned.message, "thread (0,0,0) of block (3,0,0) returned from the kernel.");
    EXPECT_EQ(session.step().state, DebugState::thread_returned);  // and stays there
    const DebugStop end = session.continue_();
    EXPECT_EQ(end.state, DebugState::launch_ended) << describe(end);
    EXPECT_NE(end.message.find("without thread (0,0,0) of block (3,0,0) reaching line 18 again"), std::string::npos) << end.message;
    EXPECT_FALSE(session.active());
}

TEST_F(DebugSessionTest, ABadLineOrThreadIsSaidPlainly) {
    DebugSession session;
    const DebugStop past_end = session.start(request_at(999));
    EXPECT_EQ(past_end.state, DebugState::failed);
    EXPECT_EQ(past_end.message, "Line 999 is not in block_sums.cu (it has 29 lines).");
    const DebugStop thread = session.start(request_at(15, {300, 0, 0}));
    EXPECT_EQ(thread.state, DebugState::failed);
    EXPECT_EQ(thread.message, "Thread (300,0,0) is not in the block: the launch's blocks have 256x1x1 threads.");
    const DebugStop block = session.start(request_at(15, {5, 0, 0}, {0, 2, 0}));
    EXPECT_EQ(block.state, DebugState::failed);
    EXPECT_EQ(block.message, "Block (0,2,0) is not in the grid: the launch has 4x1x1 blocks.");
    EXPECT_FALSE(session.step().message.empty());  // no session: said, not crashed
}

TEST(DebugSessionNames, SharedDeclarationsAreFound) {
    EXPECT_EQ(kplay::shared_names("__shared__ float tile[16][17];\n  extern __shared__ __align__(16) unsigned char smem[];\n"
                                  "__shared__ int count; __shared__ float tile[4];"),
              (std::vector<std::string>{"tile", "smem", "count"}));
    EXPECT_TRUE(kplay::shared_names("int x[4];").empty());
}

TEST_F(DebugSessionTest, TheReadmeDebugLineRunsAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const std::string command = "kplay-cli debug sum_reduction.cu ";
    const size_t at = readme.find(command);
    ASSERT_NE(at, std::string::npos) << "README's debug example";
    const std::string line = readme.substr(at + 10, readme.find('\n', at) - at - 10);
    kplay::test::TempDir dir;
    dir.write("sum_reduction.cu", kplay::test::readme_example("sum_reduction.cu"));
    const auto [code, output] = kplay::test::run_cli(line, dir.path() / "cache", {dir.path().string()});
    EXPECT_EQ(code, 0) << output;
    EXPECT_NE(output.find("run        stopped at sum_reduction.cu:15 in block_sum"), std::string::npos) << output;
    EXPECT_NE(output.find("block (1,0,0) thread (5,0,0)"), std::string::npos) << output;
    EXPECT_NE(output.find("step       stopped at sum_reduction.cu:16"), std::string::npos) << output;
    EXPECT_NE(output.find("continue   stopped at sum_reduction.cu:15"), std::string::npos) << output;
    EXPECT_NE(output.find("stride = 64  (int)"), std::string::npos) << output;
    EXPECT_NE(output.find("shared   partial = {"), std::string::npos) << output;
    EXPECT_NE(output.find("print      threadIdx.x = 5"), std::string::npos) << output;

    const auto [json_code, json_text] = kplay::test::run_cli(line + " --json", dir.path() / "cache", {dir.path().string()});
    ASSERT_EQ(json_code, 0) << json_text;
    const auto json = nlohmann::json::parse(json_text.substr(json_text.find('{')));
    ASSERT_EQ(json["stops"].size(), 4u) << json_text;
    EXPECT_EQ(json["stops"][0]["state"], "stopped");
    EXPECT_EQ(json["stops"][0]["thread"], nlohmann::json::array({5, 0, 0}));
    EXPECT_EQ(json["stops"][2]["line"], 15);
    EXPECT_EQ(json["stops"][3]["value"], "5");
    EXPECT_NE(json["gpu"].get<std::string>().find("GPU path"), std::string::npos);

    // The launch gdb debugs, without gdb: it runs and passes like any other.
    const std::string run = "kplay-cli run sum_reduction.cu ";
    const size_t run_at = readme.find(run, at);
    ASSERT_NE(run_at, std::string::npos) << "README's --debug-build line";
    const std::string run_line = readme.substr(run_at + 10, readme.find('\n', run_at) - run_at - 10);
    const auto [run_code, run_output] = kplay::test::run_cli(run_line, dir.path() / "cache", {dir.path().string()});
    EXPECT_EQ(run_code, 0) << run_output;
    EXPECT_NE(run_output.find("check      PASS"), std::string::npos) << run_output;
}

TEST_F(DebugSessionTest, AnUnknownActionIsAUsageError) {
    kplay::test::TempDir dir;
    const auto file = kplay::test::data_dir() / "debug" / "block_sums.cu";
    const auto [code, output] = kplay::test::run_cli("debug " + file.string() + " --line 15 --do step,jump", dir.path() / "cache");
    EXPECT_EQ(code, 2) << output;
    EXPECT_NE(output.find("--do jump: not an action (step, continue, print:EXPR)"), std::string::npos) << output;
}
