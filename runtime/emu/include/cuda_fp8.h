// cuda_fp8.h on the emulated device: the software fp8 types of kplay_fp8.h.
#pragma once
#include "kplay_fp8.h"
