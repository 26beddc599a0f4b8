// The session's one clock: change times, edit->result latencies and busy times are all steady-clock
// durations (the wall clock may jump; only the history's time of day reads it).
#pragma once

#include <chrono>

namespace kplay {

using Clock = std::chrono::steady_clock;

}  // namespace kplay
