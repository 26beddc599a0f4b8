// Error policy of the engine: API failures and bad user input are exceptions; a failed compile is a value.
//
// - ApiError: a CUDA driver or NVRTC call returned an error. It carries the result's name and text, the
//   call as written and file:line, so a message can say exactly what failed.
// - InputError: something the user gave (a file, an annotation, a launch setting, an image) cannot be used.
//   The message is written for the user and says what to change.
// Both are caught at the engine boundary (Engine::run) and turned into a RunReport error, so programs
// never see a throw from a request. A compile failure is never thrown: CompileResult holds diagnostics.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace kplay {

class ApiError : public std::runtime_error {
public:
    ApiError(std::string api, int code, std::string code_name, std::string description, std::string call,
             std::string file, int line);

    const std::string& api() const { return api_; }  // "CUDA" or "NVRTC"
    int code() const { return code_; }
    const std::string& code_name() const { return code_name_; }  // e.g. CUDA_ERROR_ILLEGAL_ADDRESS
    const std::string& description() const { return description_; }
    const std::string& call() const { return call_; }
    const std::string& file() const { return file_; }
    int line() const { return line_; }

private:
    std::string api_;
    int code_;
    std::string code_name_;
    std::string description_;
    std::string call_;
    std::string file_;
    int line_;
};

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A launch refused before it ran: it breaks a device or kernel limit, or the kernel's `requires`. Its
// own type so the report can say so (KPLAY_LAUNCH_REJECTED) and a sweep lists the point as pruned, with
// the limit, rather than as a kernel that failed.
// The problems come as a list too, one sentence each, so that a sweep reads them without taking the
// message apart.
class LaunchRejected : public InputError {
public:
    LaunchRejected(const std::string& message, std::vector<std::string> problems)
        : InputError(message), problems_(std::move(problems)) {}
    const std::vector<std::string>& problems() const { return problems_; }

private:
    std::vector<std::string> problems_;
};

namespace detail {
[[noreturn]] void throw_cuda_error(int result, const char* call, const char* file, int line);
[[noreturn]] void throw_nvrtc_error(int result, const char* call, const char* file, int line);
}  // namespace detail

}  // namespace kplay

// Checks a driver call made through the loaded table, e.g. KPLAY_CU(api.cuMemAlloc(&p, n)).
#define KPLAY_CU(call)                                                                   \
    do {                                                                                 \
        const int kplay_result_ = static_cast<int>(call);                                \
        if (kplay_result_ != 0) ::kplay::detail::throw_cuda_error(kplay_result_, #call, __FILE__, __LINE__); \
    } while (0)

#define KPLAY_NVRTC(call)                                                                \
    do {                                                                                 \
        const int kplay_result_ = static_cast<int>(call);                                \
        if (kplay_result_ != 0) ::kplay::detail::throw_nvrtc_error(kplay_result_, #call, __FILE__, __LINE__); \
    } while (0)
