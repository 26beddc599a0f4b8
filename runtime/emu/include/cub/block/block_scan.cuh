// cub/block/block_scan.cuh on the emulated device: kplay's CUB primitives (kplay_cub.cuh).
#pragma once
#include "../kplay_cub.cuh"
