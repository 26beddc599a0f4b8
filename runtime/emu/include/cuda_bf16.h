// cuda_bf16.h on the emulated device: the software __nv_bfloat16 and __nv_bfloat162 of kplay_half.h.
#pragma once
#include "kplay_half.h"
