// Move-only owners of the small driver handles: device buffer, stream and event.
//
// Each destructor is noexcept and ignores the driver's result: after a sticky fault the driver refuses
// every call, and a destructor has nobody to report to. Creation failures throw ApiError.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <utility>

namespace kplay {

namespace detail {
// One owner template for all three: Traits::destroy(handle) releases, a null handle owns nothing.
template <typename Handle, typename Traits>
class UniqueHandle {
public:
    UniqueHandle() = default;
    explicit UniqueHandle(Handle handle) : handle_(handle) {}
    ~UniqueHandle() { reset(); }
    UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, Handle{})) {}
    UniqueHandle& operator=(UniqueHandle&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, Handle{});
        }
        return *this;
    }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;

    Handle get() const { return handle_; }
    explicit operator bool() const { return handle_ != Handle{}; }
    void reset() noexcept {
        if (handle_ != Handle{}) Traits::destroy(handle_);
        handle_ = Handle{};
    }

private:
    Handle handle_{};
};

struct StreamTraits { static void destroy(CUstream handle) noexcept; };
struct EventTraits { static void destroy(CUevent handle) noexcept; };
}  // namespace detail

class Stream : public detail::UniqueHandle<CUstream, detail::StreamTraits> {
public:
    using UniqueHandle::UniqueHandle;
    static Stream create();  // non-blocking with respect to the legacy default stream
    void synchronize() const;
};

class Event : public detail::UniqueHandle<CUevent, detail::EventTraits> {
public:
    using UniqueHandle::UniqueHandle;
    static Event create();
    void record(const Stream& stream) const;
    void synchronize() const;
    // Milliseconds between two recorded events.
    static float elapsed_ms(const Event& start, const Event& stop);
};

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    // `guard_bytes` more are allocated after the buffer's own, for guard_overrun.
    explicit DeviceBuffer(size_t bytes, size_t guard_bytes = 0);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    CUdeviceptr get() const { return pointer_; }
    size_t size() const { return bytes_; }
    void upload(const void* host, size_t bytes) const;
    void download(void* host, size_t bytes) const;
    void fill_bytes(unsigned char value, const Stream& stream) const;
    void fill_halves(unsigned short value, const Stream& stream) const;  // size must be a multiple of 2
    void fill_words(unsigned int value, const Stream& stream) const;     // size must be a multiple of 4
    // The guard zone after the buffer: filled with a pattern, then read back for how far past the end
    // the launches since wrote (0: nowhere). A write there does not fault on a GPU.
    void arm_guard(const Stream& stream) const;
    size_t guard_overrun(const Stream& stream) const;

private:
    void release() noexcept;
    CUdeviceptr pointer_ = 0;
    size_t bytes_ = 0;
    size_t guard_ = 0;
};

}  // namespace kplay
