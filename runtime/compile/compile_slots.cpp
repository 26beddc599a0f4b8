// Admitting compiles to run side by side (compile_slots.hpp).
#include "compile/compile_slots.hpp"

#include <algorithm>

namespace kplay {

CompileSlots::Slot::Slot(CompileSlots& slots, const std::string& folder, bool pch) : slots_(slots) {
    std::unique_lock lock(slots.mutex_);
    slots.freed_.wait(lock, [&] {
        if (slots.running_ == 0) return true;
        return !pch && !slots.alone_ && slots.running_ < slots.most_ && slots.entered_ && slots.folder_ == folder;
    });
    if (!slots.entered_ || slots.folder_ != folder) {
        slots.entered_ = false;  // a failed enter leaves no folder to join
        try {
            slots.enter_(folder);
        } catch (...) {
            // The compile is not run and holds nothing: the next waiter may try its own folder.
            lock.unlock();
            slots.freed_.notify_all();
            throw;
        }
        slots.folder_ = folder;
        slots.entered_ = true;
    }
    ++slots.running_;
    slots.alone_ = pch;
    slots.peak_ = std::max(slots.peak_, slots.running_);
}

CompileSlots::Slot::~Slot() {
    {
        std::lock_guard lock(slots_.mutex_);
        --slots_.running_;
        if (slots_.running_ == 0) slots_.alone_ = false;
    }
    slots_.freed_.notify_all();
}

int CompileSlots::running() const {
    std::lock_guard lock(mutex_);
    return running_;
}

int CompileSlots::most_running() const {
    std::lock_guard lock(mutex_);
    return peak_;
}

}  // namespace kplay
