// How much memory this process holds, for the worker's statistics (a growth check over many runs), and
// how it keeps what it frees.
#pragma once

#include <cstdint>

namespace kplay {

// Resident set size in bytes, from /proc/self/statm; 0 when it cannot be read.
int64_t resident_memory_bytes();

// Every run brings arrays of some MiB (a picture, its difference map) and lets the last ones go. Kept in
// the heap (up to 128 MiB of them) rather than given back to the kernel, the next run's arrays reuse
// those pages instead of faulting in fresh ones, 4 KiB at a time, while a result waits. For the
// window and the worker, at their start.
void keep_freed_arrays_in_heap();

}  // namespace kplay
