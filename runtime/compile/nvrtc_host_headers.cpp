// The stand-ins' texts. Values are glibc's on x86-64 Linux (the host nvcc would use there): `char` is
// signed, `long` is 64 bits; where CCCL defines a header's names for NVRTC, its definitions are used.
#include "compile/nvrtc_host_headers.hpp"

#include "base/content_hash.hpp"
#include "compile/cub_stand_in.hpp"

namespace kplay {

namespace {

// nvcc's implicit includes (<sys/types.h>'s short names, <math.h>'s macros, <limits.h>...): the one list
// the emulated and reference builds include too, compiled in from runtime/emu/include/kplay_nvcc_names.h.
constexpr const char* kPrelude =
#include "compile/nvcc_names_text.inc"
    ;

// CCCL defines the fixed-width types and their macros for NVRTC in the global namespace (int64_t is
// long long there), and a kernel may include both <stdint.h> and <cuda/std/cstdint>: where CCCL is on
// the path, its definitions are the ones, so the two never disagree.
constexpr const char* kStdint = R"(#pragma once
#if __has_include(<cuda/std/cstdint>)
#include <cuda/std/cstdint>
#else
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef int8_t int_least8_t;
typedef int16_t int_least16_t;
typedef int32_t int_least32_t;
typedef int64_t int_least64_t;
typedef uint8_t uint_least8_t;
typedef uint16_t uint_least16_t;
typedef uint32_t uint_least32_t;
typedef uint64_t uint_least64_t;
typedef int8_t int_fast8_t;
typedef int16_t int_fast16_t;
typedef int32_t int_fast32_t;
typedef int64_t int_fast64_t;
typedef uint8_t uint_fast8_t;
typedef uint16_t uint_fast16_t;
typedef uint32_t uint_fast32_t;
typedef uint64_t uint_fast64_t;
typedef int64_t intptr_t;
typedef uint64_t uintptr_t;
typedef int64_t intmax_t;
typedef uint64_t uintmax_t;
#define INT8_MIN (-128)
#define INT16_MIN (-32767-1)
#define INT32_MIN (-2147483647-1)
#define INT64_MIN (-9223372036854775807LL-1)
#define INT8_MAX (127)
#define INT16_MAX (32767)
#define INT32_MAX (2147483647)
#define INT64_MAX (9223372036854775807LL)
#define UINT8_MAX (255)
#define UINT16_MAX (65535)
#define UINT32_MAX (4294967295U)
#define UINT64_MAX (18446744073709551615ULL)
#define INTPTR_MIN INT64_MIN
#define INTPTR_MAX INT64_MAX
#define UINTPTR_MAX UINT64_MAX
#define INTMAX_MIN INT64_MIN
#define INTMAX_MAX INT64_MAX
#define UINTMAX_MAX UINT64_MAX
#define PTRDIFF_MIN INT64_MIN
#define PTRDIFF_MAX INT64_MAX
#define SIZE_MAX UINT64_MAX
#define INT8_C(c) c
#define INT16_C(c) c
#define INT32_C(c) c
#define INT64_C(c) c ## LL
#define UINT8_C(c) c
#define UINT16_C(c) c
#define UINT32_C(c) c ## U
#define UINT64_C(c) c ## ULL
#endif
)";

constexpr const char* kCstdint = R"(#pragma once
#include <stdint.h>
namespace std {
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::int_least8_t; using ::int_least16_t; using ::int_least32_t; using ::int_least64_t;
using ::uint_least8_t; using ::uint_least16_t; using ::uint_least32_t; using ::uint_least64_t;
using ::int_fast8_t; using ::int_fast16_t; using ::int_fast32_t; using ::int_fast64_t;
using ::uint_fast8_t; using ::uint_fast16_t; using ::uint_fast32_t; using ::uint_fast64_t;
using ::intptr_t; using ::uintptr_t; using ::intmax_t; using ::uintmax_t;
}
)";

// As for <stdint.h>: CCCL's <cuda/std/climits> where it is on the path; the prelude (kplay_nvcc_names.h)
// has defined the same macros, spelled as CCCL spells them, in any case.
constexpr const char* kLimits = R"(#pragma once
#if __has_include(<cuda/std/climits>)
#include <cuda/std/climits>
#endif
)";

constexpr const char* kFloat = R"(#pragma once
#define FLT_RADIX 2
#define FLT_MANT_DIG 24
#define DBL_MANT_DIG 53
#define FLT_DIG 6
#define DBL_DIG 15
#define FLT_MIN_EXP (-125)
#define DBL_MIN_EXP (-1021)
#define FLT_MAX_EXP 128
#define DBL_MAX_EXP 1024
#define FLT_MAX 3.40282346638528859811704183484516925e+38F
#define DBL_MAX 1.79769313486231570814527423731704357e+308
#define FLT_MIN 1.17549435082228750796873653722224568e-38F
#define DBL_MIN 2.22507385850720138309023271733240406e-308
#define FLT_EPSILON 1.19209289550781250000000000000000000e-7F
#define DBL_EPSILON 2.22044604925031308084726333618164062e-16
#define FLT_TRUE_MIN 1.40129846432481707092372958328991613e-45F
#define DBL_TRUE_MIN 4.94065645841246544176568792868221372e-324
)";

constexpr const char* kStddef = R"(#pragma once
#ifndef offsetof
#define offsetof(type, member) ((size_t) & (((type*)0)->member))
#endif
)";

constexpr const char* kCstddef = R"(#pragma once
#include <stddef.h>
namespace std {
using ::size_t; using ::ptrdiff_t;
typedef decltype(nullptr) nullptr_t;
}
)";

// printf, malloc, free, memcpy, memset and assert are NVRTC's own; the headers need only exist.
constexpr const char* kEmpty = "#pragma once\n";

constexpr const char* kCstdio = "#pragma once\nnamespace std { using ::printf; }\n";
constexpr const char* kCstdlib = "#pragma once\nnamespace std { using ::malloc; using ::free; using ::abs; using ::labs; using ::llabs; }\n";
constexpr const char* kCstring = "#pragma once\nnamespace std { using ::memcpy; using ::memset; }\n";

// CUDA's math functions are NVRTC's own, overloaded for float and double; <cmath> adds their std:: names:
// the emulated device's list, compiled in from runtime/emu/include/kplay_std_math.h.
constexpr const char* kCmath =
#include "compile/std_math_text.inc"
    ;

// The C++ standard library's header-only parts a kernel reaches for (<type_traits>, <limits>, <utility>...):
// NVRTC has none, CCCL has them as cuda::std, and nvcc's host headers give them as std. So std:: names them.
constexpr const char* kTypeTraits = "#pragma once\n#include <cuda/std/type_traits>\nnamespace std { using namespace cuda::std; }\n";
constexpr const char* kLimitsHeader = "#pragma once\n#include <cuda/std/limits>\nnamespace std { using namespace cuda::std; }\n";
constexpr const char* kUtility = "#pragma once\n#include <cuda/std/utility>\nnamespace std { using namespace cuda::std; }\n";
constexpr const char* kArray = "#pragma once\n#include <cuda/std/array>\nnamespace std { using namespace cuda::std; }\n";
constexpr const char* kTuple = "#pragma once\n#include <cuda/std/tuple>\nnamespace std { using namespace cuda::std; }\n";

// A kernel file includes <cuda.h> for a type (a TMA descriptor's CUtensorMap, a CUdeviceptr): those types,
// as the driver's header lays them out, from the emulated device's own cuda.h (one file for both).
constexpr const char* kCudaH =
#include "compile/cuda_h_text.inc"
    ;

}  // namespace

const std::vector<NvrtcHeader>& nvrtc_host_headers() {
    static const std::vector<NvrtcHeader> headers = {
        {kNvrtcHostPrelude, kPrelude},
        {"stdint.h", kStdint},   {"cstdint", kCstdint},  {"inttypes.h", kStdint},
        {"limits.h", kLimits},   {"climits", kLimits},   {"float.h", kFloat},   {"cfloat", kFloat},
        {"stddef.h", kStddef},   {"cstddef", kCstddef},  {"stdio.h", kEmpty},   {"cstdio", kCstdio},
        {"stdlib.h", kEmpty},    {"cstdlib", kCstdlib},  {"string.h", kEmpty},  {"cstring", kCstring},
        {"assert.h", kEmpty},    {"cassert", kEmpty},    {"math.h", kEmpty},    {"cmath", kCmath},
        {"type_traits", kTypeTraits}, {"limits", kLimitsHeader}, {"utility", kUtility}, {"array", kArray}, {"tuple", kTuple},
        {"cuda.h", kCudaH},
        {"cub/cub.cuh", cub_umbrella_stand_in()},  // CUB's umbrella without its device-wide layer (cub_stand_in.hpp)
    };
    return headers;
}

const std::string& nvrtc_host_headers_hash() {
    static const std::string hash = [] {
        std::string all;
        for (const NvrtcHeader& header : nvrtc_host_headers()) (all += header.name) += header.text;
        return hash_hex(all).substr(0, 16);
    }();
    return hash;
}

}  // namespace kplay
