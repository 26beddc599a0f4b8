// A WorkerClient that relays (WorkerOptions::relay, as the host's supervisor uses it): the worker's
// answers come back as they came, JSON and shared-memory blobs, undecoded; failures as before.
#include <gtest/gtest.h>

#include <cstdlib>

#include "client/worker_answer.hpp"
#include "client/worker_client.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

WorkerOptions relay_of(const std::string& mode, const test::TempDir& dir) {
    WorkerOptions options;
    options.worker_path = KPLAY_TEST_FAKE_WORKER;
    options.worker_args = {"--mode", mode, "--marker", (dir.path() / "marker").string()};
    options.compile_timeout_s = 2;
    options.relay = true;
    return options;
}

}  // namespace

TEST(WorkerRelay, AnAnswerComesAsItCame) {
    test::TempDir dir;
    WorkerClient client(relay_of("none", dir));
    const WorkerResult result = client.wait(client.submit_ping());
    ASSERT_TRUE(result.ok()) << result.failure_message;
    ASSERT_TRUE(result.answer);
    EXPECT_EQ(result.answer->message.at("id"), result.id);
    EXPECT_EQ(result.answer->message.at("type"), "ping");
    EXPECT_EQ(result.answer->message.at("body").at("pid"), result.worker_pid);
}

TEST(WorkerRelay, AFailureHasNoAnswerAndTheNextRequestWorks) {
    test::TempDir dir;
    WorkerClient client(relay_of("crash", dir));
    const WorkerResult crashed = client.wait(client.submit_ping());
    EXPECT_EQ(crashed.failure, WorkerFailure::crashed);
    EXPECT_FALSE(crashed.answer);
    const WorkerResult next = client.wait(client.submit_ping());
    EXPECT_TRUE(next.ok()) << next.failure_message;
    EXPECT_TRUE(next.answer);
}

TEST(WorkerRelay, AnAnswerOfTheWrongShapeIsHandedOnForItsReaderToRefuse) {
    test::TempDir dir;
    WorkerClient client(relay_of("wrong-shape", dir));
    RunRequest request;
    request.kernel_path = "k.cu";
    const WorkerResult result = client.wait(client.submit_run(request));
    EXPECT_TRUE(result.ok()) << result.failure_message;
    ASSERT_TRUE(result.answer);
    EXPECT_TRUE(result.answer->message.at("body").is_null());
    EXPECT_FALSE(reports_sticky_fault(result));
}

// The real worker's CUBIN travels as a shared-memory blob beside the JSON, both handed on untouched.
TEST(WorkerRelay, TheBlobsComeWithTheirList) {
    setenv("KPLAY_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.relay = true;
    WorkerClient client(options);
    CompileFileRequest compile;
    compile.path = test::kernels_dir() / "matmul/03_tiled_static_smem.cu";
    compile.arch = "compute_90";
    compile.inspect = true;
    const WorkerResult relayed = client.wait(client.submit_compile(compile));
    unsetenv("KPLAY_CUDA_DRIVER");
    ASSERT_TRUE(relayed.ok()) << relayed.failure_message;
    ASSERT_TRUE(relayed.answer);
    EXPECT_TRUE(relayed.compile.compile.binary.empty());  // not decoded
    const nlohmann::json& blobs = relayed.answer->message.at("blobs");
    ASSERT_EQ(blobs.size(), 1u);
    EXPECT_EQ(blobs[0].at("name"), "cubin");
    ASSERT_EQ(relayed.answer->fds.size(), 1u);
    WorkerResult decoded;
    decoded.kind = MessageKind::compile;
    read_answer(*relayed.answer, decoded);
    EXPECT_EQ(decoded.compile.compile.binary.substr(0, 4), "\x7f" "ELF");
}
