// Reading /proc/self/statm.
#include "base/process_memory.hpp"

#include <unistd.h>

#include <fstream>

namespace kplay {

int64_t resident_memory_bytes() {
    std::ifstream statm("/proc/self/statm");
    long long pages_total = 0, pages_resident = 0;
    statm >> pages_total >> pages_resident;
    return pages_resident * sysconf(_SC_PAGESIZE);
}

}  // namespace kplay
