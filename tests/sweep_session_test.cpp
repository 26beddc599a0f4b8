// The window's sweep controller below the GUI, on the emulated device: the editor's suggestion, start
// and its messages, apply best to the launch settings, and the file write with its preview.
#include <gtest/gtest.h>

#include <thread>

#include "session/pool_session.hpp"
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

// The window's pool below the GUI: started off the caller's thread, its group lent to a sweep that runs
// on both workers, then given back, so a second sweep runs on the same workers; a spec that does not
// parse is a message, and nothing starts.
TEST(SweepSession, APoolSessionLendsItsGroupToASweepAndTakesItBack) {
    // A sweep cache of its own, so that every point runs on a worker (and none comes from an earlier run).
    test::TempDir cache;
    const char* was = std::getenv("XDG_CACHE_HOME");
    const std::string kept = was ? was : "";
    setenv("XDG_CACHE_HOME", cache.path().c_str(), 1);
    PoolOptions options;
    options.base = emulated_worker();
    PoolSession pool(options);
    pool.spec = "local:2,nonsense:3";
    EXPECT_FALSE(pool.start());
    EXPECT_NE(pool.problem().find("nonsense"), std::string::npos) << pool.problem();
    pool.spec = "local:2";
    ASSERT_TRUE(pool.start());
    EXPECT_TRUE(pool.starting());
    for (int i = 0; i < 600 && !pool.update(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_NE(pool.pool(), nullptr);
    ASSERT_EQ(pool.pool()->groups().size(), 1u) << pool.problem();
    EXPECT_EQ(pool.sweep_group(), std::optional<size_t>(0));

    SweepSession sweeps(emulated_worker());
    const std::filesystem::path file = std::filesystem::path(KPLAY_TEST_DATA_DIR) / "sweep" / "fastest_at_256.cu";
    sweeps.text = "block_x=64,128,256,512";
    for (int round = 0; round < 2; ++round) {
        std::optional<LentGroup> group = pool.lend_group();
        ASSERT_TRUE(group.has_value());
        EXPECT_TRUE(pool.lent());
        EXPECT_FALSE(pool.lend_group().has_value()) << "lent once at a time";
        SweepStart start = start_for(file, "");
        start.devices = group->devices;
        ASSERT_TRUE(sweeps.start(start, std::move(group->workers))) << sweeps.problem();
        EXPECT_TRUE(sweeps.on_pool());
        EXPECT_TRUE(sweeps.take_back_pool_workers().empty()) << "not while it runs";
        run_to_end(sweeps);
        ASSERT_EQ(sweeps.sweep()->workers().size(), 2u);
        EXPECT_GT(sweeps.sweep()->workers()[0].points_run, 0);
        EXPECT_GT(sweeps.sweep()->workers()[1].points_run, 0);
        EXPECT_EQ(sweeps.sweep()->workers()[0].points_run + sweeps.sweep()->workers()[1].points_run, round == 0 ? 4 : 2);
        pool.give_back(sweeps.take_back_pool_workers());
        EXPECT_FALSE(pool.lent());
        sweeps.text = "block_x=32,1024";  // the second round: other points, the same two workers
    }
    if (was) setenv("XDG_CACHE_HOME", kept.c_str(), 1);
    else unsetenv("XDG_CACHE_HOME");
}
