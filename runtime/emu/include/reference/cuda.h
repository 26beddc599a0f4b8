// cuda.h for a host reference: what a reference can use of CUDA (the vector types, dim3) comes from
// kplay_reference_prelude.h, given with -include; the driver's device-side types are the emulated
// device's (../cuda.h), and the rest is device code, whose bodies are blanked.
#pragma once
#include "../cuda.h"
