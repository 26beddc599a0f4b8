// How long the window's loop may sleep before it looks again: the one place the wait is computed.
#pragma once

#include <algorithm>
#include <chrono>

namespace kplay::window {

// While a run is in flight the window draws a frame a thirtieth of a second (its progress); idle, it
// wakes a few times a second (the Waker ends any wait at once when a save or an answer arrives); while
// a sweep runs (its worker is not watched) it looks every 2 ms.
struct FramePacing {
    static constexpr std::chrono::duration<double> kBusyFrame{1.0 / 30};
    static constexpr double kIdleWait_s = 0.1;
    static constexpr double kSweepWait_s = 0.002;

    // Seconds to wait, never less than a millisecond. The arithmetic is done in seconds on purpose:
    // a double-seconds duration minus a steady_clock one is a double-NANOSECONDS duration, whose
    // count() read as seconds once made a busy window sleep for months (a run queued by F5 then
    // waited for the next X event to be sent).
    static double wait_s(bool sweeping, bool busy, std::chrono::steady_clock::time_point last_drawn,
                         std::chrono::steady_clock::time_point now) {
        if (sweeping) return kSweepWait_s;
        if (!busy) return kIdleWait_s;
        const std::chrono::duration<double> since_drawn = now - last_drawn;
        return std::clamp((kBusyFrame - since_drawn).count(), 0.001, kBusyFrame.count());
    }
    // A wake that took nothing in while busy draws no frame until one is due.
    static bool frame_due(std::chrono::steady_clock::time_point last_drawn, std::chrono::steady_clock::time_point now) {
        return now - last_drawn >= kBusyFrame;
    }
};

}  // namespace kplay::window
