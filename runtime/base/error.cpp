// ApiError's message. (The CUDA and NVRTC layers throw it with their codes' names: cuda/cuda_error.cpp,
// compile/nvrtc_error.cpp.)
#include "base/error.hpp"


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

}  // namespace kplay
