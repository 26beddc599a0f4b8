// The compile server (no GPU needed): with NVRTC's precompiled headers on, the compile after an edit of
// a CCCL kernel uses the PCH the first one made, also after the worker was replaced (what a fault does);
// NVRTC's -pch lines are no warnings; a server that dies is started again and the result says so.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "client/worker_client.hpp"
#include "compile/heavy_headers.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "run/engine.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

namespace fs = std::filesystem;

// A CCCL kernel; `value` stands for the user's edit of its body.
std::string cccl_kernel(int value, const std::string& before = "") {
    return "// kplay: kernel=k args=a launch=1d block=32 grid=1\n" + before + "#include <cuda/std/type_traits>\n" +
           "__global__ void k(int* a) { a[threadIdx.x] = cuda::std::is_same_v<int, int> ? " + std::to_string(value) + " : 0; }\n";
}

bool has_pch_words(const CompileResult& result) {
    for (const Diagnostic& d : result.diagnostics)
        if (d.message.find("precompiled") != std::string::npos) return true;
    return result.log.find("precompiled") != std::string::npos;
}

class CompileServer : public ::testing::Test {
protected:
    CompileServer() {
        options_.worker_path = test::worker_path();
        options_.extra_environment = {"XDG_RUNTIME_DIR=" + (dir_.path() / "run").string(), "XDG_CACHE_HOME=" + (dir_.path() / "cache").string(),
                                      "KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1"};
        options_.compile_timeout_s = 600;  // CCCL's first compile on a loaded 2-core machine
        fs::create_directories(dir_.path() / "run");
    }
    ~CompileServer() override {
        if (const pid_t pid = server_pid(); pid > 0) kill(pid, SIGTERM);  // no server outlives its test (its PCH folder goes with it)
        std::error_code error;
        for (const pid_t pid : killed_) fs::remove_all(fs::temp_directory_path() / ("__nvrtc_auto_pch_" + std::to_string(pid) + "_0"), error);
    }

    CompileResult compile(WorkerClient& client, const std::string& source) {
        CompileFileRequest request;
        request.path = file_;
        request.source = source;
        request.arch = "compute_90";
        request.want_ptx = true;
        for (int attempt = 0; attempt < 3; ++attempt) {  // a killed worker's request fails, the next one starts it again
            const WorkerResult result = client.wait(client.submit_compile(request));
            if (result.ok()) return result.compile.compile;
        }
        ADD_FAILURE() << "no worker answered";
        return {};
    }

    // What the servers wrote to stderr (the .log beside the socket), for a failure's message.
    std::string server_logs() const {
        std::string text;
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(dir_.path() / "run" / "kplay", error))
            if (entry.path().extension() == ".log") text += test::read_file(entry.path());
        return text;
    }

    // The server's pid, from the lock file it holds.
    pid_t server_pid() const {
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(dir_.path() / "run" / "kplay", error))
            if (entry.path().extension() == ".lock") {
                pid_t pid = 0;
                std::ifstream(entry.path()) >> pid;
                if (pid > 0 && kill(pid, 0) == 0) return pid;
            }
        return 0;
    }

    test::TempDir dir_;
    fs::path file_ = dir_.path() / "scan.cu";
    WorkerOptions options_;
    std::vector<pid_t> killed_;  // servers killed on purpose: their PCH folders are the test's to remove
};

}  // namespace

TEST_F(CompileServer, AnEditedCcclKernelReusesThePchAcrossAReplacedWorker) {
    WorkerClient client(options_);
    const CompileResult first = compile(client, cccl_kernel(1));
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_EQ(first.pch, PchUse::created);
    const pid_t server = server_pid();
    ASSERT_GT(server, 0);
    EXPECT_NE(server, client.worker_pid());

    const CompileResult edited = compile(client, cccl_kernel(2));
    ASSERT_TRUE(edited.ok) << edited.log;
    EXPECT_FALSE(edited.cache_hit);
    EXPECT_EQ(edited.pch, PchUse::used);
    EXPECT_FALSE(has_pch_words(edited)) << edited.log;

    // The worker dies as after a sticky fault; its replacement finds the same server and its PCH.
    const pid_t worker = client.worker_pid();
    kill(worker, SIGKILL);
    const CompileResult after = compile(client, cccl_kernel(3));
    ASSERT_TRUE(after.ok) << after.log;
    EXPECT_NE(client.worker_pid(), worker);
    EXPECT_EQ(server_pid(), server);
    EXPECT_EQ(after.pch, PchUse::used);
}

TEST_F(CompileServer, PchWarningsAreNotTheFilesAndADeadServerIsRestartedAndSaid) {
    WorkerClient client(options_);
    ASSERT_TRUE(compile(client, cccl_kernel(1)).ok);
    // Other leading directives: NVRTC warns 630-D (not compatible with its PCH) and makes another.
    const CompileResult other = compile(client, cccl_kernel(1, "#define SCAN_WIDTH 32\n"));
    ASSERT_TRUE(other.ok) << other.log;
    EXPECT_EQ(other.pch, PchUse::created);
    EXPECT_EQ(other.count(Severity::warning), 0) << other.log;
    EXPECT_FALSE(has_pch_words(other)) << other.log;
    EXPECT_EQ(other.log.find("630"), std::string::npos) << other.log;

    const pid_t server = server_pid();
    ASSERT_GT(server, 0);
    kill(server, SIGKILL);
    killed_.push_back(server);
    const CompileResult restarted = compile(client, cccl_kernel(4));
    ASSERT_TRUE(restarted.ok) << restarted.log;
    ASSERT_FALSE(restarted.diagnostics.empty());
    EXPECT_EQ(restarted.diagnostics.back().severity, Severity::remark);
    EXPECT_NE(restarted.diagnostics.back().message.find("kplay's compile server stopped answering; a new one was started"), std::string::npos)
        << restarted.diagnostics.back().message << "\nservers' log:\n" << server_logs();
    EXPECT_EQ(restarted.pch, PchUse::created);  // a new process: its PCH starts again
    EXPECT_GT(server_pid(), 0);
    EXPECT_NE(server_pid(), server);
}

// A plain kernel is compiled without -pch even in the server: loading a PCH of a few small headers
// costs more than parsing them (50 against 34 ms an edit of the seed kernel on the dev machine).
TEST_F(CompileServer, APlainKernelIsCompiledWithoutThePch) {
    WorkerClient client(options_);
    const std::string plain = "// kplay: kernel=k args=a launch=1d block=32 grid=1\n#include <stdint.h>\n"
                              "__global__ void k(int* a) { a[threadIdx.x] = (int)UINT8_MAX; }\n";
    const CompileResult result = compile(client, plain);
    ASSERT_TRUE(result.ok) << result.log;
    EXPECT_EQ(result.pch, PchUse::none);
    EXPECT_TRUE(std::find(result.options_used.begin(), result.options_used.end(), "-pch") == result.options_used.end());
    EXPECT_EQ(compile(client, cccl_kernel(1)).pch, PchUse::created);
}

TEST(HeavyHeaders, LibrariesAndUnknownAngledHeadersButNotTheStandInsOrKplays) {
    EXPECT_TRUE(includes_heavy_headers("#include <cub/block/block_scan.cuh>\n"));
    EXPECT_TRUE(includes_heavy_headers("  #  include <cooperative_groups.h>\n"));
    EXPECT_TRUE(includes_heavy_headers("x\n#include \"cute/tensor.hpp\"  // from include=\n"));
    EXPECT_TRUE(includes_heavy_headers("#include <cuda_fp16.h>"));
    EXPECT_TRUE(includes_heavy_headers("#include <some_library.h>\n"));
    EXPECT_FALSE(includes_heavy_headers("#include <stdio.h>\n#include <cstdint>\n#include <math.h>\n"));
    EXPECT_FALSE(includes_heavy_headers("#include \"kplay.cuh\"\n#include \"../reduction/reference.h\"\n"));
    EXPECT_FALSE(includes_heavy_headers("// #include nothing <cub/x.cuh>\n#define X <cub/y>\n"));
}

// In one process (kplay-cli --in-process compiles without the server, so the option is the request's).
TEST(InProcessPch, TheSecondCompileOfAnEditedCcclKernelUsesIt) {
    CompileRequest request;
    request.source_path = "pch_unit/k.cu";
    request.options.arch = "compute_90";
    request.options.include_dirs = {default_engine_config().cuda_include_dir.string()};
    request.options.pch = true;
    request.source = cccl_kernel(1);
    const CompileResult first = compile_with_nvrtc(request);
    ASSERT_TRUE(first.ok) << first.log;
    request.source = cccl_kernel(2);
    const CompileResult second = compile_with_nvrtc(request);
    ASSERT_TRUE(second.ok) << second.log;
    EXPECT_EQ(second.pch, PchUse::used);
    EXPECT_FALSE(has_pch_words(second)) << second.log;
    EXPECT_EQ(second.options_used.back(), "-pch");
    request.options.pch = false;
    request.source = cccl_kernel(3);
    EXPECT_EQ(compile_with_nvrtc(request).pch, PchUse::none);
}
