// curand_kernel.h for a host reference: the same cuRAND device API as the emulated device's, from the
// CUDA toolkit's own headers (../curand_kplay_prologue.h), so a reference that calls curand_init and
// curand_uniform on the host draws the numbers the kernel draws.
#pragma once
#include "../curand_kplay_prologue.h"
#include_next <curand_kernel.h>
#define KPLAY_CURAND_WHERE "in a host reference"
#include "../curand_kplay_refused.h"
