// cuda_fp16.h for a host reference: the software __half of the emulated device, so a reference can
// round through binary16 exactly as the kernel does.
#pragma once
#include "../kplay_half.h"
