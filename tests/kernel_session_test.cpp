// KernelSession below the GUI, against the fake worker in --session mode: the deferred first run, the
// thorough worker, read retries mid-save, hung versions, reused and overtaken results, sizes and the
// deferred cuBLAS ceiling. The fake logs every request it gets, so a test can say what reached it.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "values/codec.hpp"
#include "session/kernel_session.hpp"
#include "session_pump.hpp"
#include "test_support.hpp"
#include "error_code_names.hpp"

using namespace kplay;
using namespace std::chrono_literals;

namespace {

// A matmul kernel file; `markers` are `// fake: ...` lines that steer the fake worker's answer.
std::string matmul_file(const std::string& markers = "") {
    return "// kplay: task=matmul kernel=k args=a,b,c,M,N,K launch=2d block=16,16\n" + markers +
           "__global__ void k(const float* a, const float* b, float* c, int M, int N, int K) {}\n";
}

using test::pump_until;

// For "nothing more happens" checks: keeps updating for a while.
void pump_for(KernelSession& session, std::chrono::milliseconds duration) {
    pump_until(session, [] { return false; }, duration);
}

class KernelSessionTest : public ::testing::Test {
protected:
    WorkerOptions fake(const std::vector<std::string>& extra = {}) const {
        WorkerOptions options;
        options.worker_path = KPLAY_TEST_FAKE_WORKER;
        options.worker_args = {"--session", "--log", log_.string()};
        options.worker_args.insert(options.worker_args.end(), extra.begin(), extra.end());
        return options;
    }
    // The kernel file lives in a folder of its own: the session watches that folder.
    std::filesystem::path write(const std::string& text) const { return dir_.write("kernels/k.cu", text); }
    std::filesystem::path file() const { return dir_.path() / "kernels/k.cu"; }

    // The requests of one type that reached the fake workers, in order: {"thorough", "message"}.
    std::vector<nlohmann::json> requests(const std::string& type) const {
        std::vector<nlohmann::json> found;
        const std::string text = test::read_file(log_);
        // Only whole lines: a worker may be writing the next one right now.
        for (size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1) {
            const nlohmann::json entry = nlohmann::json::parse(text.substr(at, end - at));
            if (entry["message"]["type"] == type) found.push_back(entry);
        }
        return found;
    }
    size_t runs_at_worker() const { return requests("run").size(); }
    RunRequest last_run_request() const {
        const auto runs = requests("run");
        return runs.empty() ? RunRequest{} : runs.back()["message"]["body"].get<RunRequest>();
    }

    test::TempDir dir_;
    std::filesystem::path log_ = dir_.path() / "requests.log";
};

}  // namespace

TEST_F(KernelSessionTest, TheFirstRunWaitsForTheDeviceList) {
    KernelSession session(fake({"--devices-delay-ms", "400"}));
    session.open(write(matmul_file()));
    EXPECT_TRUE(session.busy());
    pump_for(session, 150ms);
    EXPECT_FALSE(session.devices_known());
    EXPECT_TRUE(session.busy()) << "a run is waiting, and the window must say so";
    EXPECT_EQ(session.runs_submitted(), 0);
    EXPECT_EQ(requests("devices").size(), 1u);
    EXPECT_EQ(runs_at_worker(), 0u);

    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    EXPECT_TRUE(session.devices_known());
    EXPECT_TRUE(session.emulating());
    EXPECT_NE(session.device_banner().find("No CUDA driver"), std::string::npos) << session.device_banner();
    pump_for(session, 100ms);
    EXPECT_EQ(session.runs_submitted(), 1);
    EXPECT_EQ(session.results_received(), 1);
    EXPECT_EQ(session.history().size(), 1u);
    ASSERT_EQ(runs_at_worker(), 1u);
    const RunRequest sent = last_run_request();
    EXPECT_EQ(sent.inputs.size, "") << "without a GPU the worker picks the emulated device's default sizes";
    EXPECT_TRUE(sent.emulate_without_gpu);
    EXPECT_EQ(sent.source, matmul_file());
    ASSERT_TRUE(session.last());
    EXPECT_TRUE(session.last()->ok()) << session.last()->error;
    EXPECT_TRUE(session.last()->emulated);
    EXPECT_EQ(session.last()->sizes, "512x512x512");
    EXPECT_EQ(session.current_sizes().at("M"), 512);
    EXPECT_FALSE(session.busy());
}

// Opening a file is not an edit: its first result is kept as "opened -> result" (the worker's start
// included) and stays out of the edit -> result figures, which only saves fill.
TEST_F(KernelSessionTest, TheFirstResultAfterOpeningIsNotAnEdit) {
    KernelSession session(fake());
    session.open(write(matmul_file()));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    session.frame_presented();
    EXPECT_TRUE(session.latencies_ms().empty());
    ASSERT_TRUE(session.opened_to_result_ms());
    EXPECT_GT(*session.opened_to_result_ms(), 0);
    EXPECT_TRUE(session.showing_opened_result());
    ASSERT_FALSE(session.history().empty());
    EXPECT_LT(session.history().back().latency_ms, 0) << "the first run has no edit latency";

    // A save is an edit.
    std::this_thread::sleep_for(50ms);
    write(matmul_file("// edited\n"));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    session.frame_presented();
    ASSERT_EQ(session.latencies_ms().size(), 1u);
    EXPECT_FALSE(session.showing_opened_result());
    EXPECT_GT(session.history().back().latency_ms, 0);
}

// A save of a header the kernel includes (here from the user's folder, KPLAY_INCLUDE_PATH's) runs the
// file again, with the folder in the request; the file's text is the same.
TEST_F(KernelSessionTest, ASavedHeaderRunsTheFileAgain) {
    const auto header = dir_.write("user/tile.cuh", "#pragma once\n");
    KernelSession session(fake());
    session.set_include_dirs({header.parent_path().string()});
    session.open(write(matmul_file("#include <tile.cuh>\n")));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    std::this_thread::sleep_for(50ms);
    dir_.write("user/tile.cuh", "#pragma once\n// edited\n");
    ASSERT_TRUE(pump_until(session, [&] { return runs_at_worker() == 2 && session.last() && session.last()->ok(); }));
    pump_for(session, 100ms);
    EXPECT_EQ(runs_at_worker(), 2u);
    const RunRequest sent = last_run_request();
    EXPECT_EQ(sent.source, matmul_file("#include <tile.cuh>\n"));
    EXPECT_EQ(sent.include_dirs, std::vector<std::string>{header.parent_path().string()});
    session.frame_presented();
    EXPECT_EQ(session.latencies_ms().size(), 1u);  // an edit, timed from the header's save
}

TEST_F(KernelSessionTest, ThoroughRunsGoToTheirOwnWorker) {
    KernelSession session(fake());
    session.inputs.thorough = true;
    session.open(write(matmul_file("// fake: tag first\n")));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    ASSERT_TRUE(session.last());
    EXPECT_TRUE(session.last()->thorough) << "answered by a worker started without --thorough";
    auto runs = requests("run");
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(runs[0]["thorough"].get<bool>());
    EXPECT_TRUE(runs[0]["message"]["body"]["emulation_thorough"].get<bool>());
    EXPECT_TRUE(runs[0]["message"]["body"]["emulate"].get<bool>());

    // The workers number their requests independently. Have both hold request 3 at once, the main
    // worker answering first: its answer must not pass for the thorough run's. (The main worker's 1 and
    // 2 are the device list and the first run's inspect compile; F5 gives the thorough worker its 2.)
    ASSERT_TRUE(pump_until(session, [&] { return requests("compile").size() == 1; }));
    session.rerun();
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    session.inputs.thorough = false;
    write(matmul_file("// fake: tag second\n// fake: slow 150\n// fake: thorough-slow 600\n"));
    ASSERT_TRUE(pump_until(session, [&] { return runs_at_worker() == 3; }));
    session.inputs.thorough = true;
    session.apply_settings();
    ASSERT_TRUE(pump_until(session, [&] { return runs_at_worker() == 4; }));
    runs = requests("run");
    EXPECT_FALSE(runs[2]["thorough"].get<bool>());
    EXPECT_TRUE(runs[3]["thorough"].get<bool>());
    ASSERT_EQ(runs[2]["message"]["id"], runs[3]["message"]["id"]) << "the test needs both workers at the same id";
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 3; }));
    EXPECT_TRUE(session.last()->thorough) << "the main worker's answer was taken for the thorough run";
    pump_for(session, 100ms);
    EXPECT_EQ(session.results_received(), 3);
    EXPECT_EQ(session.history().size(), 3u);

    session.inputs.thorough = false;
    session.apply_settings();
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 4; }));
    EXPECT_FALSE(session.last()->thorough);
    runs = requests("run");
    ASSERT_EQ(runs.size(), 5u);
    EXPECT_FALSE(runs[4]["thorough"].get<bool>());
    EXPECT_FALSE(runs[4]["message"]["body"]["emulation_thorough"].get<bool>());
}

TEST_F(KernelSessionTest, AFileEmptyOrMissingMidSaveIsRetriedNotRun) {
    KernelSession session(fake());
    session.open(write(matmul_file("// fake: tag first\n")));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));

    // The save is seen while the file is still empty; its content comes without a save of its own (the
    // descriptor stays open), so only the session's retry can find it.
    write("");
    pump_for(session, 30ms);
    EXPECT_EQ(session.runs_submitted(), 1);
    const std::string second = matmul_file("// fake: tag second\n");
    const int held = ::open(file().c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(held, 0);
    ASSERT_EQ(::write(held, second.data(), second.size()), static_cast<ssize_t>(second.size()));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    ::close(held);  // now the save arrives: the same content, so nothing runs again

    // The save is seen after the file went away; it comes back linked into place, which is no save.
    write(matmul_file("// fake: tag third\n"));
    const auto staged = dir_.write("staging/k.cu", matmul_file("// fake: tag third\n"));
    std::filesystem::remove(file());
    pump_for(session, 30ms);
    EXPECT_NE(session.file_error().find("not found"), std::string::npos) << session.file_error();
    std::filesystem::create_hard_link(staged, file());
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 3; }));
    pump_for(session, 100ms);

    EXPECT_TRUE(session.file_error().empty()) << session.file_error();
    EXPECT_EQ(session.runs_submitted(), 3);
    const auto runs = requests("run");
    ASSERT_EQ(runs.size(), 3u);
    for (const auto& run : runs)
        EXPECT_NE(run["message"]["body"]["source"].get<std::string>().find("__global__"), std::string::npos);
    ASSERT_EQ(session.history().size(), 3u);
    EXPECT_EQ(session.history()[1].kernel, "second");
    EXPECT_EQ(session.history()[2].kernel, "third");
}

TEST_F(KernelSessionTest, AFileThatStaysEmptyIsReported) {
    KernelSession session(fake());
    session.open(write(matmul_file()));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    write("");
    ASSERT_TRUE(pump_until(session, [&] { return !session.file_error().empty(); }));
    EXPECT_EQ(session.file_error(), file().string() + " is empty.");
    EXPECT_EQ(session.runs_submitted(), 1);
    EXPECT_EQ(runs_at_worker(), 1u);
}

TEST_F(KernelSessionTest, AHungVersionIsNotRerunAutomatically) {
    WorkerOptions options = fake();
    options.run_timeout_s = 0.3;
    KernelSession session(options);
    const std::string hung = matmul_file("// fake: hang\n");
    session.open(write(hung));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    ASSERT_TRUE(session.last());
    EXPECT_EQ(session.last()->stage, Stage::worker);
    EXPECT_EQ(session.last()->error_code, "KPLAY_TIMEOUT");
    EXPECT_NE(session.last()->error.find("did not finish within 0.3 s"), std::string::npos) << session.last()->error;
    EXPECT_TRUE(session.history().empty());

    write(hung);  // the same bytes saved again: nothing changed, nothing runs
    pump_for(session, 100ms);
    EXPECT_EQ(runs_at_worker(), 1u);

    // Another version runs; coming back to the hung one (an undo) does not run it by itself.
    write(matmul_file("// fake: tag fixed\n"));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    write(hung);
    pump_for(session, 100ms);
    EXPECT_EQ(runs_at_worker(), 2u);
    EXPECT_NE(session.notice().find("hung last time"), std::string::npos) << session.notice();
    EXPECT_FALSE(session.busy());
    session.apply_settings();
    pump_for(session, 50ms);
    EXPECT_EQ(runs_at_worker(), 2u);
    EXPECT_NE(session.notice().find("hung last time"), std::string::npos) << session.notice();

    session.rerun();  // F5: the user asked
    ASSERT_TRUE(pump_until(session, [&] { return runs_at_worker() == 3; }));
    EXPECT_TRUE(session.notice().empty()) << session.notice();
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 3; }));
    EXPECT_EQ(session.last()->error_code, "KPLAY_TIMEOUT");

    write(matmul_file("// fake: hang\n// edited after the hang\n"));  // a changed version is a new attempt
    ASSERT_TRUE(pump_until(session, [&] { return runs_at_worker() == 4; }));
}

TEST_F(KernelSessionTest, RestoredContentShowsItsEarlierResultWithoutRunning) {
    KernelSession session(fake());
    const std::string a = matmul_file("// fake: tag A\n"), b = matmul_file("// fake: tag B\n");
    session.open(write(a));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    write(b);
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    write(a);  // an undo
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 3; }));
    EXPECT_FALSE(session.busy());
    pump_for(session, 100ms);
    EXPECT_EQ(runs_at_worker(), 2u);
    ASSERT_EQ(session.history().size(), 3u);
    EXPECT_FALSE(session.history()[1].reused);
    EXPECT_TRUE(session.history()[2].reused);
    EXPECT_EQ(session.history()[2].kernel, "A");
    ASSERT_TRUE(session.shown());
    EXPECT_EQ(session.shown()->kernel, "A");
    EXPECT_FALSE(session.shown()->view.input.empty()) << "the earlier result keeps its input image";

    session.rerun();  // F5 always runs for real
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 4; }));
    EXPECT_EQ(runs_at_worker(), 3u);
    EXPECT_FALSE(session.history().back().reused);
}

TEST_F(KernelSessionTest, AnOvertakenResultIsDropped) {
    KernelSession session(fake());
    session.open(write(matmul_file("// fake: tag A\n// fake: slow 300\n")));
    ASSERT_TRUE(pump_until(session, [&] { return runs_at_worker() == 1; }));  // A is running
    write(matmul_file("// fake: tag B\n"));
    // One worker answers in order: once B's result is in, A's has come and gone.
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    pump_for(session, 100ms);
    EXPECT_EQ(runs_at_worker(), 2u);
    // A was told it was overtaken (the real worker then skips its timed repeats and further sizes).
    const auto cuts = requests("cut");
    ASSERT_EQ(cuts.size(), 1u);
    EXPECT_EQ(cuts[0]["message"]["id"], requests("run")[0]["message"]["id"]);
    EXPECT_EQ(session.results_received(), 1);
    ASSERT_EQ(session.history().size(), 1u);
    EXPECT_EQ(session.history()[0].kernel, "B");
    EXPECT_EQ(session.last()->kernel, "B");
    EXPECT_EQ(session.shown()->kernel, "B");
}

TEST_F(KernelSessionTest, SizeTextSetsEverySizeOfTheTask) {
    KernelSession session(fake());
    session.open(write(matmul_file()));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    ASSERT_TRUE(session.task());
    EXPECT_EQ(session.task()->name, "matmul");

    ASSERT_TRUE(session.set_size_text("1000x999x1001")) << session.notice();
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    EXPECT_EQ(last_run_request().inputs.size, "M=1000,N=999,K=1001");
    EXPECT_EQ(session.last()->sizes, "1000x999x1001");
    EXPECT_EQ(session.current_sizes(), (NamedValues{{"M", 1000}, {"N", 999}, {"K", 1001}}));

    ASSERT_TRUE(session.set_size_text("K=7,M=5,N=6")) << session.notice();
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 3; }));
    EXPECT_EQ(last_run_request().inputs.size, "M=5,N=6,K=7");  // always in the task's order

    EXPECT_FALSE(session.set_size_text("1000x999"));
    EXPECT_NE(session.notice().find("sizes M, N, K"), std::string::npos) << session.notice();
    pump_for(session, 100ms);
    EXPECT_EQ(runs_at_worker(), 3u);
    EXPECT_EQ(session.current_sizes().at("M"), 5);
}

TEST_F(KernelSessionTest, TheDeferredCublasCeilingIsMeasuredOnceInTheBackground) {
    KernelSession session(fake({"--gpu"}));
    session.open(write(matmul_file("// fake: baseline-slow 200\n")));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    ASSERT_TRUE(session.last());
    EXPECT_FALSE(session.last()->emulated);
    EXPECT_TRUE(session.last()->ceiling.deferred);
    EXPECT_EQ(session.last()->verdict, "measuring cuBLAS fp32 at this size...");
    EXPECT_FALSE(session.busy()) << "the baseline must not hold up the window";
    ASSERT_EQ(session.history().size(), 1u);
    EXPECT_EQ(session.history()[0].percent_of_ceiling, 0);

    ASSERT_TRUE(pump_until(session, [&] { return !session.last()->ceiling.deferred; }));
    EXPECT_DOUBLE_EQ(session.last()->ceiling.gflops, 4000);
    EXPECT_DOUBLE_EQ(session.last()->percent_of_ceiling, 50);
    EXPECT_EQ(session.last()->verdict, "compute-bound: 50% of cuBLAS fp32");
    EXPECT_EQ(session.shown()->verdict, "compute-bound: 50% of cuBLAS fp32");
    EXPECT_DOUBLE_EQ(session.history()[0].percent_of_ceiling, 50) << "the history (and its export) missed the ceiling";
    EXPECT_TRUE(session.baseline_note().empty()) << session.baseline_note();
    EXPECT_EQ(session.results_received(), 1) << "a baseline is not a result of the user's kernel";
    auto runs = requests("run");
    ASSERT_EQ(runs.size(), 2u);
    const RunRequest baseline = runs[1]["message"]["body"].get<RunRequest>();
    EXPECT_EQ(baseline.baseline, Baseline::cublas_fp32);
    EXPECT_EQ(baseline.inputs.size, "1024x1024x1024");
    EXPECT_EQ(baseline.inputs.size, session.last()->sizes);
    EXPECT_FALSE(runs[1]["thorough"].get<bool>());

    // Known now for these sizes: the next run says its share at once, without another baseline.
    session.rerun();
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    EXPECT_EQ(session.last()->verdict, "compute-bound: 50% of cuBLAS fp32");
    EXPECT_DOUBLE_EQ(session.history().back().percent_of_ceiling, 50);
    pump_for(session, 100ms);
    runs = requests("run");
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[2]["message"]["body"]["baseline"], "none");
}

TEST_F(KernelSessionTest, AFailedCompileKeepsTheLastGoodOutputMarkedStale) {
    KernelSession session(fake());
    session.open(write(matmul_file("// fake: tag good\n")));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    const int version = session.output_version();
    write(matmul_file("// fake: fail\n"));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    EXPECT_EQ(session.last()->stage, Stage::compile);
    ASSERT_EQ(session.last()->compile.diagnostics.size(), 1u);
    EXPECT_EQ(session.last()->compile.diagnostics[0].line, 3);
    EXPECT_TRUE(session.shown_is_stale());
    ASSERT_TRUE(session.shown());
    EXPECT_EQ(session.shown()->kernel, "good");
    EXPECT_EQ(session.output_version(), version);
    EXPECT_EQ(session.history().size(), 1u);

    write(matmul_file("// fake: tag fixed\n"));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 3; }));
    EXPECT_FALSE(session.shown_is_stale());
    EXPECT_EQ(session.shown()->kernel, "fixed");
    EXPECT_EQ(session.output_version(), version + 1);
}

TEST_F(KernelSessionTest, AWorkerCrashIsAResultAndTheNextSaveRuns) {
    KernelSession session(fake());
    session.open(write(matmul_file("// fake: crash\n")));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    EXPECT_EQ(session.last()->stage, Stage::worker);
    EXPECT_NE(session.last()->error.find("SEGV"), std::string::npos) << session.last()->error;
    write(matmul_file("// fake: tag after\n"));
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    EXPECT_TRUE(session.last()->ok()) << session.last()->error;
    EXPECT_EQ(session.last()->kernel, "after");
    EXPECT_EQ(session.client().restarts(), 1);
}

// After each run the session asks for an inspect compile of the same text; its figures reach the
// Inside tab and the history, and a save shows what changed since the one before.
TEST_F(KernelSessionTest, EachRunIsInspectedAndASaveShowsWhatChanged) {
    KernelSession session(fake());
    session.set_include_dirs({"/opt/headers/cute"});  // KPLAY_INCLUDE_PATH in the window
    session.open(write(matmul_file("// fake: registers 32\n")));
    ASSERT_TRUE(pump_until(session, [&] { return session.inspector().current() != nullptr && !session.inspector().busy(); }));
    const RunInspection* first = session.inspector().current();
    EXPECT_EQ(first->run, 1);
    EXPECT_EQ(first->inspection.resources.registers, 32);
    EXPECT_TRUE(session.inspector().changes().empty());
    const auto compiles = requests("compile");
    ASSERT_EQ(compiles.size(), 1u);
    const CompileFileRequest asked = compiles[0]["message"]["body"].get<CompileFileRequest>();
    EXPECT_TRUE(asked.inspect);
    EXPECT_EQ(asked.source.value_or(""), matmul_file("// fake: registers 32\n"));  // the text that ran, not a re-read
    EXPECT_EQ(asked.include_dirs, std::vector<std::string>{"/opt/headers/cute"});   // the run's header folders too

    std::this_thread::sleep_for(50ms);
    write(matmul_file("// fake: registers 40\n"));
    ASSERT_TRUE(pump_until(session, [&] { return session.inspector().current() && session.inspector().current()->run == 2 && !session.inspector().busy(); }));
    EXPECT_EQ(describe_changes(session.inspector().changes()), "registers 32 \u2192 40");
    ASSERT_EQ(session.history().size(), 2u);
    EXPECT_EQ(session.history()[0].registers, 32);
    EXPECT_EQ(session.history()[1].registers, 40);
    EXPECT_EQ(session.history()[1].spill_bytes, 0);

    // F5 on the same text runs again but asks for no new inspection: nothing inside changed.
    session.rerun();
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 3; }));
    pump_for(session, 200ms);
    EXPECT_EQ(requests("compile").size(), 2u);
}

// The final answer often arrives a few milliseconds after the checked result, before the window's next
// frame: the frame that takes the checked result in must end there, so it is drawn before the final
// answer replaces it (the edit->result figure is to the picture the user sees first).
TEST_F(KernelSessionTest, ACheckedResultIsTakenInAloneEvenWhenTheFinalAnswerHasArrivedToo) {
    KernelSession session(fake());
    session.open(write(matmul_file("// fake: refine 0\n")));
    ASSERT_TRUE(pump_until(session, [&] { return session.runs_submitted() == 1; }));
    std::this_thread::sleep_for(500ms);  // both answers are waiting on the socket now
    ASSERT_TRUE(pump_until(session, [&] { return session.last().has_value(); }));
    EXPECT_TRUE(session.last()->partial) << "the checked result, alone";
    EXPECT_EQ(session.results_received(), 0);
    EXPECT_TRUE(session.update()) << "the final answer, at the next frame";
    ASSERT_TRUE(session.last());
    EXPECT_FALSE(session.last()->partial);
    EXPECT_EQ(session.results_received(), 1);
}

// A progressive run: the worker answers the main size's checked result first. The session shows it at
// once (the picture, its check, the checked launches' time), with the run still in flight and nothing
// in the history; the final answer refines the figures in place, keeps the arrays it did not resend
// (no second upload), and the edit->result time is the first answer's, counted once.
TEST_F(KernelSessionTest, ACheckedResultIsShownBeforeItsTimingAndRefinedInPlace) {
    KernelSession session(fake());
    session.inputs.repeat = 7;
    session.open(write(matmul_file("// fake: refine 400\n")));
    ASSERT_TRUE(pump_until(session, [&] { return session.last() && session.last()->partial; }));
    EXPECT_TRUE(last_run_request().progressive);
    EXPECT_TRUE(session.busy()) << "the timing is still on its way";
    EXPECT_EQ(session.results_received(), 0);
    EXPECT_TRUE(session.history().empty());
    EXPECT_EQ(session.last()->kernel_ms.count, 2) << "timed by the two checked launches so far";
    EXPECT_TRUE(session.last()->check.passed);
    ASSERT_TRUE(session.shown());
    EXPECT_EQ(session.shown()->view.series.got_min, (std::vector<float>{1, 2, 3, 4}));
    const int version = session.output_version();

    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 1; }));
    EXPECT_FALSE(session.last()->partial);
    EXPECT_EQ(session.last()->kernel_ms.count, 7) << "the timed repeats' figures replace the checked ones";
    EXPECT_FALSE(session.busy());
    ASSERT_EQ(session.history().size(), 1u);
    ASSERT_TRUE(session.shown());
    EXPECT_EQ(session.shown()->view.series.got_min, (std::vector<float>{1, 2, 3, 4})) << "kept from the first answer";
    EXPECT_EQ(session.output_version(), version) << "the same arrays are not uploaded again";
    session.frame_presented();

    // An edit: its time is measured at the checked result, once, and lands in the run's history entry.
    std::this_thread::sleep_for(50ms);
    write(matmul_file("// fake: refine 300\n// edited\n"));
    ASSERT_TRUE(pump_until(session, [&] { return session.last() && session.last()->partial; }));
    session.frame_presented();
    ASSERT_EQ(session.latencies_ms().size(), 1u);
    const double first_answer_ms = session.latencies_ms().front();
    EXPECT_LT(first_answer_ms, 300) << "not held back by the timing";
    EXPECT_EQ(session.history().size(), 1u);
    ASSERT_TRUE(pump_until(session, [&] { return session.results_received() == 2; }));
    session.frame_presented();
    EXPECT_EQ(session.latencies_ms().size(), 1u);
    ASSERT_EQ(session.history().size(), 2u);
    EXPECT_EQ(session.history().back().latency_ms, first_answer_ms);
    EXPECT_EQ(session.output_version(), version + 1) << "the edit's picture was uploaded once";
}
