// The fault finder end to end on the emulated device: a fault report as a GPU gives it (a sticky
// CUDA error at the GPU's size), fed to the finder, comes back with the kernel line that faulted.
#include <gtest/gtest.h>

#include "inspect/fault_finder.hpp"
#include "run/engine.hpp"
#include "test_support.hpp"

using namespace kplay;
namespace fs = std::filesystem;

namespace {

// What a GPU run of the fault file reports: the error, stuck context, at the built-in image's size.
RunReport gpu_fault(const std::string& code, const std::string& sizes = "1280x800") {
    RunReport report;
    report.stage = Stage::run;
    report.error = code + " while running the kernel";
    report.error_code = parse_error_code(code).value();
    report.fault.sticky = true;
    report.sizes = sizes;
    return report;
}

}  // namespace

TEST(FaultFinderEmulated, TheFaultCorpusIsLocatedToItsLines) {
    test::TempDir cache;
    EngineConfig config = default_engine_config();
    config.cache_dir = cache.path();
    Engine engine(config);
    // Each fault file and the line its header's expect-emulated text names.
    struct Fault {
        std::string name, code, sizes;
        int line;
    };
    const std::vector<Fault> faults = {{"01_out_of_bounds_write.cu", "CUDA_ERROR_ILLEGAL_ADDRESS", "1280x800", 12},
                                       {"03_null_pointer.cu", "CUDA_ERROR_ILLEGAL_ADDRESS", "1280x800", 11},
                                       {"06_device_assert.cu", "CUDA_ERROR_ASSERT", "1280x800", 13},
                                       // The CPU does not fault on the misaligned float4 load itself: the emulated
                                       // device finds the last one's read past the end of `a`, on the line
                                       // that uses it (compute-sanitizer, on the GPU, names the load's, 12).
                                       {"07_misaligned_float4.cu", "CUDA_ERROR_MISALIGNED_ADDRESS", "256x256x64", 13}};
    for (const auto& [name, code, sizes, line] : faults) {
        SCOPED_TRACE(name);
        RunRequest original;
        original.kernel_path = test::kernels_dir() / "faults" / name;
        original.device = 0;
        const RunReport faulted = gpu_fault(code, sizes);
        ASSERT_TRUE(can_find_fault_line(faulted));
        const RunRequest rerun = emulated_rerun_request(original, faulted);
        EXPECT_TRUE(rerun.emulate);
        EXPECT_EQ(rerun.inputs.size, sizes);
        EXPECT_FALSE(rerun.check_test_sizes);
        const FaultLocation location = location_from_emulated_run(engine.run(rerun));
        EXPECT_TRUE(location.found) << location.problem;
        EXPECT_EQ(location.line, line) << location.message;
        EXPECT_FALSE(location.message.empty());
    }
    // A kernel that runs clean on the emulated device: the finder says so instead of naming a line.
    RunRequest good;
    good.kernel_path = test::kernels_dir() / "grayscale/01_seed_1d.cu";
    const FaultLocation clean = location_from_emulated_run(engine.run(emulated_rerun_request(good, gpu_fault("CUDA_ERROR_ILLEGAL_ADDRESS"))));
    EXPECT_FALSE(clean.found);
    EXPECT_NE(clean.problem.find("without a fault"), std::string::npos) << clean.problem;
}
