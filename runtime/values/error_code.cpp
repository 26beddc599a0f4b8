// The names of error codes, for JSON and the protocol: kplay's own, and the CUDA driver's and NVRTC's
// results as their headers name them (cuda.h and nvrtc.h of CUDA 13.0, listed here so the client side
// names them without either library).
#include "values/error_code.hpp"

#include <array>
#include <charconv>
#include <utility>

#include "base/enum_names.hpp"

namespace kplay {

namespace {

constexpr int kNvrtcBase = 1000;  // past the last CUresult (CUDA_ERROR_UNKNOWN = 999)

constexpr EnumNames<ErrorCode, 9> kOwn{{{ErrorCode::launch_rejected, "KPLAY_LAUNCH_REJECTED"},
                                        {ErrorCode::out_of_bounds_write, "KPLAY_OUT_OF_BOUNDS_WRITE"},
                                        {ErrorCode::reference_failed, "KPLAY_REFERENCE_FAILED"},
                                        {ErrorCode::timeout, "KPLAY_TIMEOUT"},
                                        {ErrorCode::worker_failed, "KPLAY_WORKER_FAILED"},
                                        {ErrorCode::sandbox, "KPLAY_SANDBOX"},
                                        {ErrorCode::sanitizer, "KPLAY_SANITIZER"},
                                        {ErrorCode::deadlock, "KPLAY_DEADLOCK"},
                                        {ErrorCode::emulation_failed, "KPLAY_EMULATION_FAILED"}}};

using ResultNames = std::pair<int, const char*>;

constexpr std::array<ResultNames, 100> kCudaResults{{{1, "CUDA_ERROR_INVALID_VALUE"},
                                                     {2, "CUDA_ERROR_OUT_OF_MEMORY"},
                                                     {3, "CUDA_ERROR_NOT_INITIALIZED"},
                                                     {4, "CUDA_ERROR_DEINITIALIZED"},
                                                     {5, "CUDA_ERROR_PROFILER_DISABLED"},
                                                     {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"},
                                                     {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"},
                                                     {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"},
                                                     {34, "CUDA_ERROR_STUB_LIBRARY"},
                                                     {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
                                                     {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
                                                     {100, "CUDA_ERROR_NO_DEVICE"},
                                                     {101, "CUDA_ERROR_INVALID_DEVICE"},
                                                     {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
                                                     {200, "CUDA_ERROR_INVALID_IMAGE"},
                                                     {201, "CUDA_ERROR_INVALID_CONTEXT"},
                                                     {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"},
                                                     {205, "CUDA_ERROR_MAP_FAILED"},
                                                     {206, "CUDA_ERROR_UNMAP_FAILED"},
                                                     {207, "CUDA_ERROR_ARRAY_IS_MAPPED"},
                                                     {208, "CUDA_ERROR_ALREADY_MAPPED"},
                                                     {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
                                                     {210, "CUDA_ERROR_ALREADY_ACQUIRED"},
                                                     {211, "CUDA_ERROR_NOT_MAPPED"},
                                                     {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"},
                                                     {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"},
                                                     {214, "CUDA_ERROR_ECC_UNCORRECTABLE"},
                                                     {215, "CUDA_ERROR_UNSUPPORTED_LIMIT"},
                                                     {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"},
                                                     {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
                                                     {218, "CUDA_ERROR_INVALID_PTX"},
                                                     {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"},
                                                     {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"},
                                                     {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
                                                     {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
                                                     {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
                                                     {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"},
                                                     {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC"},
                                                     {226, "CUDA_ERROR_CONTAINED"},
                                                     {300, "CUDA_ERROR_INVALID_SOURCE"},
                                                     {301, "CUDA_ERROR_FILE_NOT_FOUND"},
                                                     {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"},
                                                     {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"},
                                                     {304, "CUDA_ERROR_OPERATING_SYSTEM"},
                                                     {400, "CUDA_ERROR_INVALID_HANDLE"},
                                                     {401, "CUDA_ERROR_ILLEGAL_STATE"},
                                                     {402, "CUDA_ERROR_LOSSY_QUERY"},
                                                     {500, "CUDA_ERROR_NOT_FOUND"},
                                                     {600, "CUDA_ERROR_NOT_READY"},
                                                     {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
                                                     {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
                                                     {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
                                                     {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"},
                                                     {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"},
                                                     {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"},
                                                     {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"},
                                                     {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"},
                                                     {710, "CUDA_ERROR_ASSERT"},
                                                     {711, "CUDA_ERROR_TOO_MANY_PEERS"},
                                                     {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
                                                     {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
                                                     {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
                                                     {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
                                                     {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
                                                     {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
                                                     {718, "CUDA_ERROR_INVALID_PC"},
                                                     {719, "CUDA_ERROR_LAUNCH_FAILED"},
                                                     {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
                                                     {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK"},
                                                     {800, "CUDA_ERROR_NOT_PERMITTED"},
                                                     {801, "CUDA_ERROR_NOT_SUPPORTED"},
                                                     {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
                                                     {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
                                                     {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
                                                     {805, "CUDA_ERROR_MPS_CONNECTION_FAILED"},
                                                     {806, "CUDA_ERROR_MPS_RPC_FAILURE"},
                                                     {807, "CUDA_ERROR_MPS_SERVER_NOT_READY"},
                                                     {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"},
                                                     {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"},
                                                     {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"},
                                                     {811, "CUDA_ERROR_CDP_NOT_SUPPORTED"},
                                                     {812, "CUDA_ERROR_CDP_VERSION_MISMATCH"},
                                                     {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
                                                     {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
                                                     {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"},
                                                     {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"},
                                                     {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"},
                                                     {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"},
                                                     {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"},
                                                     {907, "CUDA_ERROR_CAPTURED_EVENT"},
                                                     {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"},
                                                     {909, "CUDA_ERROR_TIMEOUT"},
                                                     {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
                                                     {911, "CUDA_ERROR_EXTERNAL_DEVICE"},
                                                     {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
                                                     {913, "CUDA_ERROR_FUNCTION_NOT_LOADED"},
                                                     {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE"},
                                                     {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"},
                                                     {916, "CUDA_ERROR_KEY_ROTATION"},
                                                     {999, "CUDA_ERROR_UNKNOWN"}}};

constexpr std::array<ResultNames, 17> kNvrtcResults{{{1, "NVRTC_ERROR_OUT_OF_MEMORY"},
                                                     {2, "NVRTC_ERROR_PROGRAM_CREATION_FAILURE"},
                                                     {3, "NVRTC_ERROR_INVALID_INPUT"},
                                                     {4, "NVRTC_ERROR_INVALID_PROGRAM"},
                                                     {5, "NVRTC_ERROR_INVALID_OPTION"},
                                                     {6, "NVRTC_ERROR_COMPILATION"},
                                                     {7, "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE"},
                                                     {8, "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION"},
                                                     {9, "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION"},
                                                     {10, "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID"},
                                                     {11, "NVRTC_ERROR_INTERNAL_ERROR"},
                                                     {12, "NVRTC_ERROR_TIME_FILE_WRITE_FAILED"},
                                                     {13, "NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED"},
                                                     {14, "NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED"},
                                                     {15, "NVRTC_ERROR_PCH_CREATE"},
                                                     {16, "NVRTC_ERROR_CANCELLED"},
                                                     {17, "NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED"}}};

template <size_t N>
const char* result_name(const std::array<ResultNames, N>& table, int result) {
    for (const auto& [number, name] : table)
        if (number == result) return name;
    return nullptr;
}

template <size_t N>
std::optional<int> result_number(const std::array<ResultNames, N>& table, std::string_view text) {
    for (const auto& [number, name] : table)
        if (text == name) return number;
    return std::nullopt;
}

// "CUDA_ERROR_<number>": the name of a result the table does not know.
std::optional<int> numbered(std::string_view text, std::string_view prefix) {
    if (text.substr(0, prefix.size()) != prefix) return std::nullopt;
    const std::string_view digits = text.substr(prefix.size());
    int number = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return number;
}

}  // namespace

ErrorCode cuda_error_code(int cuda_result) { return static_cast<ErrorCode>(cuda_result); }
ErrorCode nvrtc_error_code(int nvrtc_result) { return static_cast<ErrorCode>(kNvrtcBase + nvrtc_result); }
bool is_cuda_error(ErrorCode code) { return static_cast<int>(code) > 0 && static_cast<int>(code) < kNvrtcBase; }

std::string error_code_name(ErrorCode code) {
    const int number = static_cast<int>(code);
    if (code == ErrorCode::none) return "";
    if (is_cuda_error(code)) {
        const char* name = result_name(kCudaResults, number);
        return name ? name : "CUDA_ERROR_" + std::to_string(number);
    }
    if (number > kNvrtcBase && number < static_cast<int>(ErrorCode::launch_rejected)) {
        const char* name = result_name(kNvrtcResults, number - kNvrtcBase);
        return name ? name : "NVRTC_ERROR_" + std::to_string(number - kNvrtcBase);
    }
    return enum_name(kOwn, code);
}

std::optional<ErrorCode> parse_error_code(std::string_view name) {
    if (name.empty()) return ErrorCode::none;
    if (const auto own = enum_value(kOwn, name)) return own;
    if (const auto cuda = result_number(kCudaResults, name)) return cuda_error_code(*cuda);
    if (const auto nvrtc = result_number(kNvrtcResults, name)) return nvrtc_error_code(*nvrtc);
    if (const auto cuda = numbered(name, "CUDA_ERROR_"); cuda && *cuda > 0 && *cuda < kNvrtcBase)
        return cuda_error_code(*cuda);
    if (const auto nvrtc = numbered(name, "NVRTC_ERROR_"); nvrtc && *nvrtc > 0 && *nvrtc < kNvrtcBase)
        return nvrtc_error_code(*nvrtc);
    return std::nullopt;
}

}  // namespace kplay
