// Driving a KernelSession from a test as the window's frame loop does: update() until a condition holds.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

#include "session/kernel_session.hpp"

namespace kplay::test {

// Calls session.update() every few milliseconds until `done` holds; false when `timeout` passes first.
inline bool pump_until(KernelSession& session, const std::function<bool()>& done,
                       std::chrono::milliseconds timeout = std::chrono::seconds(120)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        session.update();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

}  // namespace kplay::test
