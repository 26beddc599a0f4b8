// Builds ApiError values, looking up the readable names of CUDA and NVRTC result codes.
#include "base/error.hpp"

#include <nvrtc.h>

#include "cuda/driver.hpp"

namespace kplay {

namespace {
std::string file_name_only(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}
}  // namespace

ApiError::ApiError(std::string api, int code, std::string code_name, std::string description, std::string call,
                   std::string file, int line)
    : std::runtime_error(code_name + " (" + description + ") from " + call + " at " + file_name_only(file) + ":" +
                         std::to_string(line)),
      api_(std::move(api)),
      code_(code),
      code_name_(std::move(code_name)),
      description_(std::move(description)),
      call_(std::move(call)),
      file_(std::move(file)),
      line_(line) {}

namespace detail {

void throw_cuda_error(int result, const char* call, const char* file, int line) {
    throw ApiError("CUDA", result, cuda_result_name(result), cuda_result_description(result), call, file, line);
}

void throw_nvrtc_error(int result, const char* call, const char* file, int line) {
    const char* text = nvrtcGetErrorString(static_cast<nvrtcResult>(result));
    throw ApiError("NVRTC", result, text ? text : "NVRTC_ERROR_UNKNOWN", text ? text : "unknown NVRTC error", call,
                   file, line);
}

}  // namespace detail
}  // namespace kplay
