// cuda_fp16.h on the emulated device: the software __half and __half2 of kplay_half.h.
#pragma once
#include "kplay_half.h"
