// Which kernel files NVRTC's precompiled headers (-pch) pay off for: those that include a large header
// library (CCCL's cub/ and cuda/, cooperative groups, CuTe, CUTLASS, the fp16/bf16/fp8 types, mma.h).
// A plain kernel pays for -pch instead: loading the PCH of a few small headers took 50 ms an edit where
// parsing them took 34 (the seed kernel, NVRTC 13.0, the 2-core dev machine).
#pragma once

#include <string_view>

namespace kplay {

// Whether `source` has an #include of a header outside kplay's own and the C stand-ins NVRTC is handed
// (nvrtc_host_headers.hpp): an <angle> include of any other header, or any include of a known library.
bool includes_heavy_headers(std::string_view source);

}  // namespace kplay
