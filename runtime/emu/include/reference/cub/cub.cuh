// cub/cub.cuh for a host reference: the emulated device's.
#pragma once
#include "../../cub/kplay_cub.cuh"
