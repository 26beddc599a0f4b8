// KPLAY_NVRTC's failure path: an ApiError with NVRTC's name for the result.
#include <nvrtc.h>

#include "base/error.hpp"

namespace kplay::detail {

void throw_nvrtc_error(int result, const char* call, const char* file, int line) {
    const char* text = nvrtcGetErrorString(static_cast<nvrtcResult>(result));
    throw ApiError("NVRTC", result, text ? text : "NVRTC_ERROR_UNKNOWN", text ? text : "unknown NVRTC error", call, file, line);
}

}  // namespace kplay::detail
