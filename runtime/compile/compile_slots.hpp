// Which compiles the compile server runs side by side: NVRTC programs are thread-safe each, so compiles
// run in parallel (up to one per core) unless one of two process-wide things stands in the way. A compile
// with NVRTC's automatic precompiled headers (-pch) runs alone: the PCH is one per process. And every
// compile runs in its worker's folder (chdir, the whole process's): compiles of another folder wait
// until the folder is free. A pool's workers, started from one folder, compile together.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>

namespace kplay {

class CompileSlots {
public:
    // `enter`: makes the folder the process's (chdir); called with no compile running. Throws on failure.
    CompileSlots(int most, std::function<void(const std::string&)> enter) : most_(most < 1 ? 1 : most), enter_(std::move(enter)) {}

    // One compile's place: waits until it may run, holds it while alive.
    class Slot {
    public:
        Slot(CompileSlots& slots, const std::string& folder, bool pch);
        ~Slot();
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;

    private:
        CompileSlots& slots_;
    };

    int running() const;
    int most_running() const;  // the most that ran at once so far (for tests)

private:
    mutable std::mutex mutex_;
    std::condition_variable freed_;
    const int most_;
    std::function<void(const std::string&)> enter_;
    std::string folder_;   // the folder entered last (compiles there may join)
    bool entered_ = false;
    int running_ = 0;
    bool alone_ = false;   // a -pch compile runs
    int peak_ = 0;
};

}  // namespace kplay
