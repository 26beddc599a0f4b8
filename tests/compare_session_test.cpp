// The window's compare below the GUI: one kernel file benched on every group of a pool (a fake GPU's
// worker and the emulated device's real one), a column per group, the workers lent for it and given back.
#include "session/compare_session.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <optional>
#include <thread>

#include "kernel_file/source_scan.hpp"
#include "test_support.hpp"

using namespace kplay;
namespace fs = std::filesystem;

namespace {

// The fake GPU's group: the fake worker as the local member's worker. The emulated device's: the real
// worker with no driver, reached as a command.
struct TwoGroupPool {
    test::TempDir dir;
    PoolOptions options;
    TwoGroupPool() {
        const fs::path script = dir.write(
            "fake_gpu.sh", "#!/bin/sh\nexec '" + std::string(KPLAY_TEST_FAKE_WORKER) + "' --session --gpu \"$@\"\n");
        ::chmod(script.c_str(), 0755);
        options.base.worker_path = script;
    }
    // Starts both members and waits for them: two groups, or a fatal failure saying why not.
    void start(PoolSession& pool) const;
};

std::string failures_of(const PoolSession& pool) {
    std::string text = pool.problem();
    if (pool.pool())
        for (const PoolFailure& failure : pool.pool()->failures())
            text += "\n" + failure.member + ": " + failure.message;
    return text;
}

void TwoGroupPool::start(PoolSession& pool) const {
    pool.spec = "local:1,cmd:env KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1 '" + test::worker_path().string() + "' --stdio";
    ASSERT_TRUE(pool.start()) << pool.problem();
    for (int i = 0; i < 600 && !pool.update(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_NE(pool.pool(), nullptr);
    ASSERT_EQ(pool.pool()->groups().size(), 2u) << failures_of(pool);
}

void run_to_end(CompareSession& compare, PoolSession& pool) {
    for (int i = 0; i < 6000 && compare.running(); ++i) {
        compare.update(pool);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

const BenchColumn* column_titled(const CompareSession& compare, const std::string& title) {
    for (const BenchColumn& column : compare.columns())
        if (column.title == title) return &column;
    return nullptr;
}

BenchSettings settings_for(const fs::path& file) {
    BenchSettings settings;
    settings.files = {file.string()};
    settings.warmup = 1;
    settings.repeat = 3;
    return settings;
}

// A cache folder of its own (XDG_CACHE_HOME, set before the workers start) and the two groups' pool, started.
class CompareSessionTest : public ::testing::Test {
protected:
    void SetUp() override {
        setenv("XDG_CACHE_HOME", (dir.path() / "cache").c_str(), 1);
        pool.emplace(two.options);
        ASSERT_NO_FATAL_FAILURE(two.start(*pool));
    }
    void TearDown() override { unsetenv("XDG_CACHE_HOME"); }

    test::TempDir dir;
    const TwoGroupPool two;
    std::optional<PoolSession> pool;
};

}  // namespace

// Each group against its own ceilings: the GPU's column has its copy ceiling and a percentage of it,
// the emulated device's none; both checked. The workers come back, so a second compare (or a sweep) runs.
TEST_F(CompareSessionTest, BenchesTheFileOnEveryGroupAColumnEachAndGivesTheWorkersBack) {
    PoolSession& pool = *this->pool;
    CompareSession compare;
    const fs::path file = test::kernels_dir() / "grayscale" / "01_seed_1d.cu";
    for (int round = 0; round < 2; ++round) {
        ASSERT_TRUE(compare.start(pool, settings_for(file))) << compare.problem();
        EXPECT_TRUE(compare.running());
        EXPECT_TRUE(pool.lent()) << "the pool's workers are the compare's until it is over";
        EXPECT_FALSE(compare.start(pool, settings_for(file))) << "one compare at a time";
        EXPECT_EQ(compare.titles().size(), 2u);
        run_to_end(compare, pool);
        ASSERT_FALSE(compare.running());
        EXPECT_FALSE(pool.lent());
        ASSERT_EQ(compare.columns().size(), 2u);
        const BenchColumn* gpu = column_titled(compare, "Fake GPU sm_90");
        const BenchColumn* cpu = column_titled(compare, "cpu (emulated)");
        ASSERT_NE(gpu, nullptr);
        ASSERT_NE(cpu, nullptr);
        EXPECT_TRUE(gpu->failure.empty()) << gpu->failure;
        EXPECT_TRUE(cpu->failure.empty()) << cpu->failure;
        EXPECT_GT(gpu->summary.copy_ceiling_gbps, 0);
        EXPECT_TRUE(cpu->summary.emulated);
        const std::vector<BenchGridRow> grid = bench_grid(compare.columns());
        ASSERT_EQ(grid.size(), 1u);
        for (const BenchCell& cell : grid[0].cells) {
            EXPECT_EQ(cell.state, BenchCell::State::ran);
            EXPECT_TRUE(cell.passed);
            EXPECT_GT(cell.median_ms, 0);
        }
        const size_t g = compare.columns()[0].title == "Fake GPU sm_90" ? 0 : 1;
        EXPECT_NE(grid[0].cells[g].percent, "-") << "the GPU's own copy ceiling";
        EXPECT_EQ(grid[0].cells[1 - g].percent, "-") << "no ceiling on the emulated device";
    }
}

// A group whose run fails says why in its column; the other group's column still stands.
TEST_F(CompareSessionTest, AGroupThatFailsSaysWhyAndTheOthersStillShow) {
    PoolSession& pool = *this->pool;
    // The fake GPU answers a failed compile for this file; the emulated device compiles it for real.
    const fs::path file = dir.write(
        "fails_on_fake.cu", read_source_file(test::kernels_dir() / "grayscale" / "01_seed_1d.cu") + "// fake: fail\n");
    CompareSession compare;
    ASSERT_TRUE(compare.start(pool, settings_for(file))) << compare.problem();
    run_to_end(compare, pool);
    ASSERT_EQ(compare.columns().size(), 2u);
    const size_t g = compare.columns()[0].title == "Fake GPU sm_90" ? 0 : 1;
    const std::vector<BenchGridRow> grid = bench_grid(compare.columns());
    ASSERT_EQ(grid.size(), 1u);
    EXPECT_EQ(grid[0].cells[g].state, BenchCell::State::failed);
    EXPECT_EQ(grid[0].cells[g].failure.rfind("FAILED at compile", 0), 0u) << grid[0].cells[g].failure;
    EXPECT_EQ(grid[0].cells[1 - g].state, BenchCell::State::ran);
    EXPECT_TRUE(grid[0].cells[1 - g].passed);
}

// Without a pool there is nothing to compare on: a message, and nothing starts.
TEST(CompareSession, WithoutAPoolSaysWhereToStartOne) {
    PoolSession pool;
    CompareSession compare;
    EXPECT_FALSE(compare.start(pool, settings_for(test::kernels_dir() / "grayscale" / "01_seed_1d.cu")));
    EXPECT_NE(compare.problem().find("Device > Pool"), std::string::npos) << compare.problem();
    EXPECT_FALSE(compare.running());
}

// Cancelled at once: the rows not begun are not run, the compare ends and the workers go back.
TEST_F(CompareSessionTest, ACancelledCompareEndsAndGivesTheWorkersBack) {
    PoolSession& pool = *this->pool;
    CompareSession compare;
    ASSERT_TRUE(compare.start(pool, settings_for(test::kernels_dir() / "grayscale" / "01_seed_1d.cu"))) << compare.problem();
    compare.cancel();
    run_to_end(compare, pool);
    EXPECT_FALSE(compare.running());
    EXPECT_FALSE(pool.lent());
    ASSERT_TRUE(compare.start(pool, settings_for(test::kernels_dir() / "grayscale" / "01_seed_1d.cu"))) << "the pool is usable again";
    run_to_end(compare, pool);
    EXPECT_EQ(compare.columns().size(), 2u);
}
