// How the emulated device's messages name things: a CUDA thread ("thread (3,0,0) of block (1,0,0)")
// and a kernel file ("matmul/01_seed_naive.cu", folder and name, the way the ladders are known).
#pragma once

#include <string>

#include "emu/include/kplay_emu_abi.h"

namespace kplay {

std::string dim_text(const kplay_emu_dim& d);  // "(3,0,0)"
std::string thread_name(const kplay_emu_dim& thread_idx, const kplay_emu_dim& block_idx);
std::string kernel_file_name(const std::string& path);  // "/any/where/matmul/x.cu" -> "matmul/x.cu"

}  // namespace kplay
