// mmap layout: [guard page][slack | data][guard page] (Edge::end) or [guard page][data | slack][guard page].
#include "emu/guarded_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <new>
#include <utility>

namespace kplay {

namespace {
size_t page_size() {
    static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return size;
}
size_t round_up(size_t value, size_t to) { return (value + to - 1) / to * to; }
}  // namespace

GuardedBuffer::GuardedBuffer(size_t bytes, Edge exact) : bytes_(bytes) {
    const size_t page = page_size();
    const size_t aligned = round_up(bytes == 0 ? 1 : bytes, 16);
    const size_t body = round_up(aligned, page);
    mapping_bytes_ = body + 2 * page;
    mapping_ = mmap(nullptr, mapping_bytes_, PROT_NONE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping_ == MAP_FAILED) {
        mapping_ = nullptr;
        throw std::bad_alloc();
    }
    unsigned char* body_start = static_cast<unsigned char*>(mapping_) + page;
    if (mprotect(body_start, body, PROT_READ | PROT_WRITE) != 0) {
        release();
        throw std::bad_alloc();
    }
    data_ = exact == Edge::start ? body_start : body_start + body - aligned;
}

GuardedBuffer::~GuardedBuffer() { release(); }

void GuardedBuffer::release() {
    if (mapping_) munmap(mapping_, mapping_bytes_);
    mapping_ = nullptr;
    data_ = nullptr;
}

GuardedBuffer::GuardedBuffer(GuardedBuffer&& other) noexcept
    : mapping_(std::exchange(other.mapping_, nullptr)),
      mapping_bytes_(other.mapping_bytes_),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(other.bytes_) {}

GuardedBuffer& GuardedBuffer::operator=(GuardedBuffer&& other) noexcept {
    if (this != &other) {
        release();
        mapping_ = std::exchange(other.mapping_, nullptr);
        mapping_bytes_ = other.mapping_bytes_;
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = other.bytes_;
    }
    return *this;
}

std::string describe_guard_hit(const BufferLabel& buffer, uintptr_t address) {
    if (address < buffer.mapping_begin || address >= buffer.mapping_end) return {};
    const size_t count = buffer.bytes / buffer.element_size;
    const std::string size_text = "'" + buffer.name + "' (" + std::to_string(count) + " " + buffer.element_name + (count == 1 ? "" : "s") + ")";
    // A region of bytes (dynamic shared memory) counts its distance in bytes, as its size is given.
    const std::string unit = buffer.element_size == 1 && buffer.element_name == "byte" ? "byte" : "element";
    auto elements = [&](long long n) { return std::to_string(n) + " " + unit + (n == 1 ? "" : "s"); };
    if (address >= buffer.data + buffer.bytes) {
        const long long past = static_cast<long long>((address - buffer.data) / buffer.element_size) - static_cast<long long>(count) + 1;
        return elements(past) + " past the end of " + size_text;
    }
    if (address < buffer.data) {
        const long long before = static_cast<long long>((buffer.data - address + buffer.element_size - 1) / buffer.element_size);
        return elements(before) + " before the start of " + size_text;
    }
    return {};
}

}  // namespace kplay
