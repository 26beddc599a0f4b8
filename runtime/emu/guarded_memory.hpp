// Buffers for emulated kernels that fault at their edges: PROT_NONE pages lie on both sides, so an
// access past the end or before the start is a fault with an exact address, not silent corruption.
// A buffer sits against one guard exactly (the end, or the start) and within a page of the other; the
// engine runs its two checked launches once each way, so both edges are exact. The mapping is shared, so
// a forked launch process writes into the same pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kplay {

class GuardedBuffer {
public:
    GuardedBuffer() = default;
    enum class Edge { end, start };
    // The data start is 16-byte aligned (vector loads rely on it), so with Edge::end and `bytes` not a
    // multiple of 16, up to 15 bytes of slack lie before the upper guard.
    explicit GuardedBuffer(size_t bytes, Edge exact = Edge::end);
    ~GuardedBuffer();
    GuardedBuffer(GuardedBuffer&& other) noexcept;
    GuardedBuffer& operator=(GuardedBuffer&& other) noexcept;
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;

    unsigned char* data() const { return data_; }
    size_t size() const { return bytes_; }
    uintptr_t mapping_begin() const { return reinterpret_cast<uintptr_t>(mapping_); }
    uintptr_t mapping_end() const { return reinterpret_cast<uintptr_t>(mapping_) + mapping_bytes_; }

private:
    void release();
    void* mapping_ = nullptr;
    size_t mapping_bytes_ = 0;
    unsigned char* data_ = nullptr;
    size_t bytes_ = 0;
};

// What a fault address means with respect to one buffer.
struct BufferLabel {
    std::string name;          // "out", or "dynamic shared memory"
    std::string element_name;  // "float", "byte"
    size_t element_size = 1;
    uintptr_t data = 0;
    size_t bytes = 0;
    uintptr_t mapping_begin = 0, mapping_end = 0;
};

// "1 element past the end of 'out' (1000 floats)", "113 bytes past the end of 'dynamic shared memory'
// (1024 bytes)"; empty when the address is not in this buffer's
// guard pages.
std::string describe_guard_hit(const BufferLabel& buffer, uintptr_t address);

}  // namespace kplay
