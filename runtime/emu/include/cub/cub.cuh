// cub/cub.cuh on the emulated device: every CUB block and warp primitive kplay runs, and the device-wide
// classes, refused by name at a call (kplay_cub.cuh).
#pragma once
#include "kplay_cub.cuh"
