// The code a failed run is known by: a CUDA driver result (a GPU's fault, or the emulated device's
// fault that CUDA names the same way), an NVRTC result, or one of kplay's own. Code compares these
// values; the names ("CUDA_ERROR_ILLEGAL_ADDRESS", "KPLAY_TIMEOUT") exist only for JSON and the protocol.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace kplay {

// CUDA driver results keep their CUresult numbers (1..999), so any result the driver returns is an
// ErrorCode (cuda_error_code); only those kplay produces itself or tests for are named here. NVRTC
// results are offset past them (nvrtc_error_code).
enum class ErrorCode : int {
    none = 0,
    cuda_illegal_address = 700,      // CUDA_ERROR_ILLEGAL_ADDRESS
    cuda_assert = 710,               // CUDA_ERROR_ASSERT
    cuda_illegal_instruction = 715,  // CUDA_ERROR_ILLEGAL_INSTRUCTION
    cuda_launch_failed = 719,        // CUDA_ERROR_LAUNCH_FAILED (a trap, on the emulated device too)
    cuda_cooperative_launch_too_large = 720,  // CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE (the emulated device's limit too)
    // kplay's own, named KPLAY_...
    launch_rejected = 2001,  // the plan breaks a device or kernel limit or the kernel's requires=
    out_of_bounds_write,     // a GPU write past a buffer's end that did not fault (seen in the guard zone)
    reference_failed,        // the reference crashed, aborted or faulted
    timeout,                 // a kernel or a reference ran out of time and was stopped
    worker_failed,           // the worker died or sent a broken answer
    sandbox,                 // the emulated device's sandbox stopped a forbidden system call
    sanitizer,               // AddressSanitizer or UBSan stopped the emulated kernel (thorough mode)
    deadlock,                // emulated threads waited at barriers that never all met
    emulation_failed,        // the emulated launch ended in another way
};

// A CUresult other than CUDA_SUCCESS, and an nvrtcResult other than NVRTC_SUCCESS.
ErrorCode cuda_error_code(int cuda_result);
ErrorCode nvrtc_error_code(int nvrtc_result);
bool is_cuda_error(ErrorCode code);

// "" for none; a CUDA or NVRTC result this toolkit does not name is "CUDA_ERROR_<number>" (as
// cuda_result_name says it) or "NVRTC_ERROR_<number>".
std::string error_code_name(ErrorCode code);
std::optional<ErrorCode> parse_error_code(std::string_view name);
inline std::ostream& operator<<(std::ostream& out, ErrorCode code) { return out << error_code_name(code); }

}  // namespace kplay
