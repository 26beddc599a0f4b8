// KPLAY_CU's failure path: an ApiError with the CUDA result's name and description.
#include "base/error.hpp"
#include "cuda/driver.hpp"

namespace kplay::detail {

void throw_cuda_error(int result, const char* call, const char* file, int line) {
    throw ApiError("CUDA", result, cuda_result_name(result), cuda_result_description(result), call, file, line);
}

}  // namespace kplay::detail
