// The window's sweep controller below the GUI, on the emulated device: the editor's suggestion, start
// and its messages, apply best to the launch settings, and the file write with its preview.
#include <gtest/gtest.h>

#include <thread>

#include "session/sweep_session.hpp"
#include "kernel_file/source_scan.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

WorkerOptions emulated_worker() {
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.extra_environment = {"KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1"};
    return options;
}

SweepStart start_for(const std::filesystem::path& file, const std::string& size) {
    SweepStart start;
    start.file = file;
    start.source = read_source_file(file);
    WorkerClient client(emulated_worker());
    start.devices = client.wait(client.submit_devices()).devices;
    start.emulate = true;
    start.size_text = size;
    return start;
}

void run_to_end(SweepSession& sweeps) {
    while (sweeps.running()) {
        sweeps.update();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

}  // namespace

TEST(SweepSession, SuggestsTheFilesSweepElseABlockOrLiteralRange) {
    SweepSession sweeps;
    const std::string step4 = read_source_file(test::kernels_dir() / "matmul/04_2d_register_blocking.cu");
    sweeps.suggest(step4, resolve_kernel_spec(step4, "04.cu"));
    EXPECT_EQ(sweeps.text, "-DTILE_K=8,16\n-DTHREAD_M=4,8\n-DTHREAD_N=4,8\n");
    const std::string tiled = read_source_file(test::kernels_dir() / "matmul/02_tiled_dynamic_smem.cu");
    sweeps.suggest(tiled, resolve_kernel_spec(tiled, "02.cu"));
    EXPECT_EQ(sweeps.text, "tw=8,16,32\n");
    const std::string seed = read_source_file(test::kernels_dir() / "grayscale/01_seed_1d.cu");
    sweeps.suggest(seed, resolve_kernel_spec(seed, "01.cu"));
    EXPECT_EQ(sweeps.text, "block_x=32..1024 step *2\n");
}

TEST(SweepSession, ABadSpaceOrBudgetIsAMessageAndNothingStarts) {
    test::TempDir dir;
    const auto file = dir.write("tiled.cu", read_source_file(test::kernels_dir() / "matmul/02_tiled_dynamic_smem.cu"));
    SweepSession sweeps(emulated_worker());
    sweeps.text = "tw=8,16\nblock_x=\n";
    EXPECT_FALSE(sweeps.start(start_for(file, "32x32x32")));
    EXPECT_EQ(sweeps.problem().rfind("line 2: ", 0), 0u) << sweeps.problem();
    EXPECT_EQ(sweeps.sweep(), nullptr);
    sweeps.text = "tw=8\n";
    sweeps.budget = "soon";
    EXPECT_FALSE(sweeps.start(start_for(file, "32x32x32")));
    EXPECT_EQ(sweeps.problem(), "The budget is a number of points (40) or seconds (90s), not 'soon'.");
}

TEST(SweepSession, AppliesTheBestToTheLaunchAndWritesTheFileOnlyAfterItsPreview) {
    test::TempDir dir;
    const std::string original = read_source_file(test::kernels_dir() / "matmul/02_tiled_dynamic_smem.cu");
    const auto file = dir.write("tiled.cu", original);
    SweepSession sweeps(emulated_worker());
    sweeps.text = "tw=8\n";  // one point: the winner is known
    sweeps.confirm_top = 0;
    ASSERT_TRUE(sweeps.start(start_for(file, "32x32x32"))) << sweeps.problem();
    run_to_end(sweeps);
    ASSERT_TRUE(sweeps.sweep()->best().has_value());

    WorkerOptions fake;
    fake.worker_path = KPLAY_TEST_FAKE_WORKER;
    fake.worker_args = {"--session"};
    KernelSession session(fake);
    session.open(file);
    ASSERT_TRUE(sweeps.apply_to_launch(session));
    EXPECT_EQ(session.overrides.args.at("tw"), "8");
    EXPECT_EQ(sweeps.notice(), "Applied tw=8 to the launch settings.");
    EXPECT_EQ(test::read_file(file), original);  // applying to the launch never writes the file

    const auto edit = sweeps.preview_file_edit();
    ASSERT_TRUE(edit.has_value()) << sweeps.problem();
    EXPECT_EQ(edit->line, 1);
    EXPECT_NE(edit->after.find("args=a,b,c,M,N,K,tw=8 "), std::string::npos) << edit->after;
    EXPECT_EQ(test::read_file(file), original);  // a preview writes nothing
    ASSERT_TRUE(sweeps.write_file_edit(session)) << sweeps.problem();
    EXPECT_EQ(sweeps.notice(), "Wrote line 1 of tiled.cu; the original is kept as tiled.cu.orig.");
    EXPECT_EQ(test::read_file(file.string() + ".orig"), original);
    std::string expected = original;
    expected.replace(expected.find("tw=16"), 5, "tw=8");
    EXPECT_EQ(test::read_file(file), expected);
    EXPECT_TRUE(session.overrides.args.empty());  // the file holds the point now

    // A file changed since the sweep began is never written over.
    EXPECT_FALSE(sweeps.preview_file_edit().has_value());
    EXPECT_EQ(sweeps.problem(), "tiled.cu changed since the sweep began; sweep it again before writing.");
}

TEST(SweepSession, LaunchChangeCarriesTheBlockAndTheSweptSizes) {
    SweepSpace space;
    space.params.push_back(parse_sweep_param("block_x=32,64"));
    space.params.push_back(parse_sweep_param("n=1000,2000"));
    DeviceQuery devices;
    devices.emulated.available = true;
    const std::string vector = test::vector_add_task("default=4096 cpu=4096 test=1,1000");
    const SweepTarget target = make_sweep_target("v.cu", vector, space, devices, true, 0, "");
    const LaunchChange change = launch_change(target, SweepPoint{{"64", "2000"}});
    ASSERT_TRUE(change.block.has_value());
    EXPECT_EQ(*change.block, (std::array<int64_t, 3>{64, 1, 1}));
    EXPECT_EQ(change.sizes, (std::map<std::string, int64_t>{{"n", 2000}}));
}
