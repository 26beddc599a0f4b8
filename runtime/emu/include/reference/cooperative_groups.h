// cooperative_groups.h for a host reference: the emulated device's own (the names a kernel file
// mentions outside its kernels' bodies, `namespace cg = cooperative_groups;` or a helper that takes a
// cg::thread_block_tile<32>, must parse; the bodies that use them are blanked).
#pragma once
#include "../cooperative_groups.h"
