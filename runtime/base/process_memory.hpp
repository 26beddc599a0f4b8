// How much memory this process holds, for the worker's statistics (a growth check over many runs).
#pragma once

#include <cstdint>

namespace kplay {

// Resident set size in bytes, from /proc/self/statm; 0 when it cannot be read.
int64_t resident_memory_bytes();

}  // namespace kplay
