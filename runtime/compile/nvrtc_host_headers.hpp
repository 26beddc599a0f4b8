// What a kernel sees under nvcc beyond the CUDA language, for NVRTC.
//
// nvcc includes cuda_runtime.h before the file, and with it the host's <math.h>, <stdlib.h> and
// <string.h>: a kernel written for nvcc may use `uint`, INFINITY, NAN or M_PI without an include, and
// may include <stdio.h> for printf, <stdint.h>, <limits.h> or <float.h>. NVRTC has none of those files
// ("cannot open source file "stdio.h"", "identifier "uint" is undefined"). kplay hands NVRTC in-memory
// stand-ins: a prelude it includes first (-include) with the names nvcc's implicit includes give, and
// the C headers (and their <cXXX> forms) with the declarations device code can use. NVRTC itself
// declares printf, malloc, free, memcpy, memset, assert, size_t, ptrdiff_t and NULL, so the stand-ins
// add nothing that would clash with it. They reach NVRTC only: a host reference is built against the
// host's own headers, and the emulated device against its prelude (runtime/emu/include).
#pragma once

#include <string>
#include <vector>

namespace kplay {

struct NvrtcHeader {
    const char* name;  // as a kernel includes it: "stdio.h", "cstdint"
    const char* text;
};

// The prelude's name, given to NVRTC with -include.
constexpr const char* kNvrtcHostPrelude = "kplay_nvrtc_host.h";

// The prelude and the stand-ins, in the order NVRTC is given them.
const std::vector<NvrtcHeader>& nvrtc_host_headers();

// A short hash of every stand-in's text, for the compile cache's key: a changed stand-in is a new
// compile of every file.
const std::string& nvrtc_host_headers_hash();

}  // namespace kplay
