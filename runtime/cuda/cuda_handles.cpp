// Driver calls behind Stream, Event and DeviceBuffer.
#include "cuda/cuda_handles.hpp"

#include <string>
#include <vector>

#include "cuda/driver.hpp"
#include "base/error.hpp"

namespace kplay {

namespace detail {
void StreamTraits::destroy(CUstream handle) noexcept { driver_api().cuStreamDestroy(handle); }
void EventTraits::destroy(CUevent handle) noexcept { driver_api().cuEventDestroy(handle); }
}  // namespace detail

Stream Stream::create() {
    CUstream handle = nullptr;
    KPLAY_CU(driver_api().cuStreamCreate(&handle, CU_STREAM_NON_BLOCKING));
    return Stream(handle);
}

void Stream::synchronize() const { KPLAY_CU(driver_api().cuStreamSynchronize(get())); }

Event Event::create() {
    CUevent handle = nullptr;
    KPLAY_CU(driver_api().cuEventCreate(&handle, CU_EVENT_DEFAULT));
    return Event(handle);
}

void Event::record(const Stream& stream) const { KPLAY_CU(driver_api().cuEventRecord(get(), stream.get())); }

void Event::synchronize() const { KPLAY_CU(driver_api().cuEventSynchronize(get())); }

float Event::elapsed_ms(const Event& start, const Event& stop) {
    float ms = 0;
    KPLAY_CU(driver_api().cuEventElapsedTime(&ms, start.get(), stop.get()));
    return ms;
}

DeviceBuffer::DeviceBuffer(size_t bytes, size_t guard_bytes) : bytes_(bytes), guard_(guard_bytes) {
    // A zero-sized allocation is refused by the driver; keep one byte so every bound buffer has an address.
    KPLAY_CU(driver_api().cuMemAlloc(&pointer_, bytes + guard_bytes == 0 ? 1 : bytes + guard_bytes));
}

DeviceBuffer::~DeviceBuffer() { release(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : pointer_(std::exchange(other.pointer_, 0)), bytes_(std::exchange(other.bytes_, 0)), guard_(std::exchange(other.guard_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
        release();
        pointer_ = std::exchange(other.pointer_, 0);
        bytes_ = std::exchange(other.bytes_, 0);
        guard_ = std::exchange(other.guard_, 0);
    }
    return *this;
}

void DeviceBuffer::release() noexcept {
    if (pointer_) driver_api().cuMemFree(pointer_);
    pointer_ = 0;
    bytes_ = 0;
}

void DeviceBuffer::upload(const void* host, size_t bytes) const {
    if (bytes > bytes_) throw InputError("upload of " + std::to_string(bytes) + " bytes into a buffer of " + std::to_string(bytes_));
    if (bytes) KPLAY_CU(driver_api().cuMemcpyHtoD(pointer_, host, bytes));
}

void DeviceBuffer::download(void* host, size_t bytes) const {
    if (bytes > bytes_) throw InputError("download of " + std::to_string(bytes) + " bytes from a buffer of " + std::to_string(bytes_));
    if (bytes) KPLAY_CU(driver_api().cuMemcpyDtoH(host, pointer_, bytes));
}

void DeviceBuffer::fill_bytes(unsigned char value, const Stream& stream) const {
    if (bytes_) KPLAY_CU(driver_api().cuMemsetD8Async(pointer_, value, bytes_, stream.get()));
}

void DeviceBuffer::fill_halves(unsigned short value, const Stream& stream) const {
    if (bytes_) KPLAY_CU(driver_api().cuMemsetD16Async(pointer_, value, bytes_ / 2, stream.get()));
}

void DeviceBuffer::fill_words(unsigned int value, const Stream& stream) const {
    if (bytes_) KPLAY_CU(driver_api().cuMemsetD32Async(pointer_, value, bytes_ / 4, stream.get()));
}

namespace {
constexpr unsigned char kGuardByte = 0xA7;  // an unlikely value for a kernel to write
}  // namespace

void DeviceBuffer::arm_guard(const Stream& stream) const {
    if (guard_) KPLAY_CU(driver_api().cuMemsetD8Async(pointer_ + bytes_, kGuardByte, guard_, stream.get()));
}

size_t DeviceBuffer::guard_overrun(const Stream& stream) const {
    if (!guard_) return 0;
    stream.synchronize();
    std::vector<unsigned char> zone(guard_);
    KPLAY_CU(driver_api().cuMemcpyDtoH(zone.data(), pointer_ + bytes_, guard_));
    for (size_t i = guard_; i > 0; --i)
        if (zone[i - 1] != kGuardByte) return i;
    return 0;
}

}  // namespace kplay
