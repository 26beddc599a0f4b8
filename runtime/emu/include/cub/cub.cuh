// cub/cub.cuh on the emulated device: the block and warp primitives kplay runs (kplay_cub.cuh); the
// device-wide algorithms are refused by name there.
#pragma once
#include "kplay_cub.cuh"
