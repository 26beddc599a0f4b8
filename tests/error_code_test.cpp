// Error codes: each has one name on the wire and in JSON, the same as CUDA's and NVRTC's headers
// spell it, and every name reads back as the code it came from.
#include "values/error_code.hpp"

#include <cuda.h>
#include <gtest/gtest.h>
#include <nvrtc.h>

#include <string>

namespace kplay {
namespace {

static_assert(static_cast<int>(ErrorCode::cuda_illegal_address) == CUDA_ERROR_ILLEGAL_ADDRESS);
static_assert(static_cast<int>(ErrorCode::cuda_assert) == CUDA_ERROR_ASSERT);
static_assert(static_cast<int>(ErrorCode::cuda_illegal_instruction) == CUDA_ERROR_ILLEGAL_INSTRUCTION);
static_assert(static_cast<int>(ErrorCode::cuda_launch_failed) == CUDA_ERROR_LAUNCH_FAILED);

#define KPLAY_CUDA_NAME(result) {result, #result}

TEST(ErrorCode, NamesCudaResultsAsTheDriverDoes) {
    const std::pair<int, const char*> results[] = {
        KPLAY_CUDA_NAME(CUDA_ERROR_INVALID_VALUE),         KPLAY_CUDA_NAME(CUDA_ERROR_OUT_OF_MEMORY),
        KPLAY_CUDA_NAME(CUDA_ERROR_NO_DEVICE),             KPLAY_CUDA_NAME(CUDA_ERROR_ECC_UNCORRECTABLE),
        KPLAY_CUDA_NAME(CUDA_ERROR_NO_BINARY_FOR_GPU),     KPLAY_CUDA_NAME(CUDA_ERROR_ILLEGAL_ADDRESS),
        KPLAY_CUDA_NAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES), KPLAY_CUDA_NAME(CUDA_ERROR_ASSERT),
        KPLAY_CUDA_NAME(CUDA_ERROR_HARDWARE_STACK_ERROR),  KPLAY_CUDA_NAME(CUDA_ERROR_ILLEGAL_INSTRUCTION),
        KPLAY_CUDA_NAME(CUDA_ERROR_MISALIGNED_ADDRESS),    KPLAY_CUDA_NAME(CUDA_ERROR_INVALID_ADDRESS_SPACE),
        KPLAY_CUDA_NAME(CUDA_ERROR_INVALID_PC),            KPLAY_CUDA_NAME(CUDA_ERROR_LAUNCH_FAILED),
        KPLAY_CUDA_NAME(CUDA_ERROR_INVALID_CLUSTER_SIZE),  KPLAY_CUDA_NAME(CUDA_ERROR_UNKNOWN)};
    for (const auto& [result, name] : results) {
        EXPECT_EQ(error_code_name(cuda_error_code(result)), name);
        EXPECT_TRUE(is_cuda_error(cuda_error_code(result))) << name;
    }
    // A result the table does not know is named as cuda_result_name names it without the driver.
    EXPECT_EQ(error_code_name(cuda_error_code(998)), "CUDA_ERROR_998");
}

TEST(ErrorCode, NamesNvrtcResultsAsNvrtcDoes) {
    for (int result = NVRTC_ERROR_OUT_OF_MEMORY; result <= NVRTC_ERROR_CANCELLED; ++result) {
        EXPECT_EQ(error_code_name(nvrtc_error_code(result)), nvrtcGetErrorString(static_cast<nvrtcResult>(result)));
        EXPECT_FALSE(is_cuda_error(nvrtc_error_code(result)));
    }
}

TEST(ErrorCode, KplaysOwnCodes) {
    EXPECT_EQ(error_code_name(ErrorCode::none), "");
    EXPECT_EQ(error_code_name(ErrorCode::launch_rejected), "KPLAY_LAUNCH_REJECTED");
    EXPECT_EQ(error_code_name(ErrorCode::out_of_bounds_write), "KPLAY_OUT_OF_BOUNDS_WRITE");
    EXPECT_EQ(error_code_name(ErrorCode::reference_failed), "KPLAY_REFERENCE_FAILED");
    EXPECT_EQ(error_code_name(ErrorCode::timeout), "KPLAY_TIMEOUT");
    EXPECT_EQ(error_code_name(ErrorCode::worker_failed), "KPLAY_WORKER_FAILED");
    EXPECT_EQ(error_code_name(ErrorCode::sandbox), "KPLAY_SANDBOX");
    EXPECT_EQ(error_code_name(ErrorCode::sanitizer), "KPLAY_SANITIZER");
    EXPECT_EQ(error_code_name(ErrorCode::deadlock), "KPLAY_DEADLOCK");
    EXPECT_EQ(error_code_name(ErrorCode::emulation_failed), "KPLAY_EMULATION_FAILED");
    EXPECT_FALSE(is_cuda_error(ErrorCode::none));
    EXPECT_FALSE(is_cuda_error(ErrorCode::timeout));
}

TEST(ErrorCode, EveryNameReadsBackAsItsCode) {
    std::vector<ErrorCode> codes = {ErrorCode::none, ErrorCode::launch_rejected, ErrorCode::out_of_bounds_write,
                                    ErrorCode::reference_failed, ErrorCode::timeout, ErrorCode::worker_failed,
                                    ErrorCode::sandbox, ErrorCode::sanitizer, ErrorCode::deadlock, ErrorCode::emulation_failed};
    for (int result = 1; result < 1000; ++result) codes.push_back(cuda_error_code(result));
    for (int result = 1; result < 40; ++result) codes.push_back(nvrtc_error_code(result));
    for (const ErrorCode code : codes) {
        const std::string name = error_code_name(code);
        EXPECT_EQ(parse_error_code(name), code) << name;
    }
}

TEST(ErrorCode, UnknownNamesAreRefused) {
    for (const char* name : {"KPLAY_NO_SUCH_CODE", "CUDA_ERROR_", "CUDA_ERROR_12x", "CUDA_ERROR_0", "CUDA_ERROR_5000", "NVRTC_ERROR_-1",
                             "cuda_illegal_address", "CUDA_SUCCESS"})
        EXPECT_FALSE(parse_error_code(name).has_value()) << name;
}

}  // namespace
}  // namespace kplay
