// curand_kernel.h on the emulated device: cuRAND's device API from the CUDA toolkit's own headers,
// compiled by the host compiler against kplay_emu_prelude.h (curand_kplay_prologue.h says how and what
// matches a GPU), with MTGP32 refused by name. It costs host compile time (measured with g++ 12): about
// 0.3 s to include (the skip-ahead tables are 1.4 MB of source), half a second for README's dropout, and
// several seconds for a kernel that uses every generator and distribution (everything is force-inlined).
#pragma once
#include "curand_kplay_prologue.h"
#include_next <curand_kernel.h>
#define KPLAY_CURAND_WHERE "on the emulated CPU device"
#include "curand_kplay_refused.h"
