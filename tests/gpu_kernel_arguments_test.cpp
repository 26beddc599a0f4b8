// The kernels of tests/data/args on a GPU: float hyperparameters, 1/sqrt(d), a -inf start, a struct
// parameter (its size checked against cuFuncGetParamInfo), an offset pointer and a null one.
#include <gtest/gtest.h>

#include "kernel_arguments_cases.hpp"
#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

class GpuKernelArguments : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuKernelArguments, RunsAndBindsAsDeclared) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir cache;
    Engine engine([&] {
        EngineConfig config = default_engine_config();
        config.cache_dir = cache.path();
        return config;
    }());
    RunRequest request;
    request.kernel_path = test::data_dir() / "args" / GetParam();
    request.warmup = 1;
    request.repeat = 3;
    request.measure_ceiling = false;
    const RunReport report = engine.run(request);
    EXPECT_FALSE(report.emulated);
    test::expect_argument_case(GetParam(), report);
}

INSTANTIATE_TEST_SUITE_P(Files, GpuKernelArguments, ::testing::ValuesIn(test::argument_case_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param.substr(0, info.param.find('.')); });

}  // namespace
}  // namespace kplay
