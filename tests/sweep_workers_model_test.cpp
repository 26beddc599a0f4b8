// The Sweep tab's words for each worker of a pool sweep: points done, the point in flight, a worker
// replaced after a crash, one that dropped out; and an empty pool's lines.
#include <gtest/gtest.h>

#include "sweep_workers_model.hpp"

using namespace kplay;
using namespace kplay::window;

TEST(SweepWorkersModel, EachWorkerSaysWhatItRanAndWhatItDoesNow) {
    std::vector<SweepWorkerStatus> workers(3);
    workers[0] = {"local", 5, 9, 0, false, "", "block_x=256"};
    workers[1] = {"local", 1, 0, 2, false, "", ""};
    workers[2] = {"gpu-box", 3, 0, 0, true, "kplay-worker failed 3 times within 10 s", ""};
    const std::vector<WorkerRow> rows = worker_rows(workers);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].name, "worker 1 (local)");
    EXPECT_EQ(rows[0].points, "5 points, 9 confirm runs");
    EXPECT_EQ(rows[0].now, "running block_x=256");
    EXPECT_TRUE(rows[0].busy);
    EXPECT_EQ(rows[1].points, "1 point");
    EXPECT_EQ(rows[1].now, "idle (replaced 2x)");
    EXPECT_FALSE(rows[1].busy);
    EXPECT_EQ(rows[2].name, "worker 3 (gpu-box)");
    EXPECT_TRUE(rows[2].dropped);
    EXPECT_EQ(rows[2].now, "dropped out: kplay-worker failed 3 times within 10 s");
}

TEST(SweepWorkersModel, APoolThatNeverStartedHasNoLines) {
    const WorkerPool pool;
    EXPECT_TRUE(pool_lines(pool, 1).empty());
}
