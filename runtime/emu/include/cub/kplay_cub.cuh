// kplay_cub.cuh: every CUB primitive the emulated device runs, written from CUB's documented API (CCCL 3):
// the block collectives (BlockLoad, BlockStore, BlockExchange, BlockReduce, BlockScan, BlockRadixSort,
// BlockHistogram, BlockDiscontinuity, BlockAdjacentDifference), the warp collectives (WarpReduce,
// WarpScan, WarpLoad, WarpStore, WarpExchange), and the device-wide classes, whose calls are refused by
// name (kplay_device_wide.cuh). <cub/cub.cuh> is this file; each primitive's own header
// (<cub/block/block_scan.cuh>, ...) gives that primitive alone. kplay_cub_detail.cuh says how they work.
#pragma once

#include "block/block_adjacent_difference.cuh"
#include "block/block_discontinuity.cuh"
#include "block/block_exchange.cuh"
#include "block/block_histogram.cuh"
#include "block/block_load.cuh"
#include "block/block_radix_sort.cuh"
#include "block/block_reduce.cuh"
#include "block/block_scan.cuh"
#include "block/block_store.cuh"
#include "kplay_device_wide.cuh"
#include "warp/warp_exchange.cuh"
#include "warp/warp_load.cuh"
#include "warp/warp_reduce.cuh"
#include "warp/warp_scan.cuh"
#include "warp/warp_store.cuh"
