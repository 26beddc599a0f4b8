// cub/block/block_exchange.cuh for a host reference: the emulated device's, so that a kernel file's declarations parse.
#pragma once
#include "../../../cub/kplay_cub.cuh"
