// The process's age from /proc/self/stat's start time against CLOCK_BOOTTIME.
#include "base/process_clock.hpp"

#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace kplay {

double ms_since_process_start() {
    std::ifstream stat("/proc/self/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    // The command name (field 2) may hold spaces and parentheses: count fields from its closing one.
    const size_t close = text.rfind(')');
    if (close == std::string::npos) return -1;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    for (int index = 3; index < 22 && fields >> field; ++index) {
    }
    unsigned long long start_ticks = 0;
    if (!(fields >> start_ticks)) return -1;
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    const double ticks_per_s = static_cast<double>(sysconf(_SC_CLK_TCK));
    return (static_cast<double>(now.tv_sec) + now.tv_nsec * 1e-9 - static_cast<double>(start_ticks) / ticks_per_s) * 1e3;
}

}  // namespace kplay
