// cuda_fp16.h on the emulated device: the software __half of kplay_half.h.
#pragma once
#include "kplay_half.h"
