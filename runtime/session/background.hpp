// One piece of work off the UI thread (nvdisasm, compute-sanitizer, ncu), polled each frame.
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <optional>

namespace kplay {

template <typename T>
class Background {
public:
    Background() = default;
    Background(const Background&) = delete;
    Background& operator=(const Background&) = delete;
    ~Background() noexcept = default;  // a std::async future waits for its work here

    void start(std::function<T()> work) { future_ = std::async(std::launch::async, std::move(work)); }
    bool running() const { return future_.valid(); }
    // The result once the work is done (then no longer running), else nothing; never blocks.
    std::optional<T> take() {
        if (!future_.valid() || future_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
        return future_.get();
    }

private:
    std::future<T> future_;
};

// Background work that follows one history run (a profile, a measurement): its outcome is kept with
// the run it belongs to until the next one comes.
template <typename T>
class RunFollowUp {
public:
    void start(int run, std::function<T()> work) {
        working_run_ = run;
        work_.start(std::move(work));
    }
    // Collects finished work; true when it came.
    bool poll() {
        auto outcome = work_.take();
        if (!outcome) return false;
        outcome_ = std::move(*outcome);
        run_ = working_run_;
        return true;
    }
    bool running() const { return work_.running(); }
    void clear() { outcome_.reset(); }
    const std::optional<T>& outcome() const { return outcome_; }
    int run() const { return run_; }

private:
    Background<T> work_;
    std::optional<T> outcome_;
    int run_ = 0, working_run_ = 0;
};

}  // namespace kplay
