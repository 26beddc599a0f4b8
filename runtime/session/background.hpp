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

}  // namespace kplay
