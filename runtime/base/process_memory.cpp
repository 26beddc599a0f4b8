// Reading /proc/self/statm, and the heap's keeping of freed arrays.
#include "base/process_memory.hpp"

#include <malloc.h>

#include <unistd.h>

#include <fstream>

namespace kplay {

int64_t resident_memory_bytes() {
    std::ifstream statm("/proc/self/statm");
    long long pages_total = 0, pages_resident = 0;
    statm >> pages_total >> pages_resident;
    return pages_resident * sysconf(_SC_PAGESIZE);
}

void keep_freed_arrays_in_heap() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // the largest a heap block may be (glibc's own limit)
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
}

}  // namespace kplay
