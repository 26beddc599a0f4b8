// How long this process has existed: from the kernel's record of its start (/proc/self/stat), so a
// cold-start figure includes the dynamic loader's work before main().
#pragma once

namespace kplay {

// Milliseconds since the process started (10 ms resolution: the kernel counts in clock ticks); -1 when
// /proc cannot say.
double ms_since_process_start();

}  // namespace kplay
