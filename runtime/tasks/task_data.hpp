// The host side of one run's inputs and outputs: every buffer of the task with its bytes, and the
// values (sizes and derived values) its expressions are evaluated over.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/expression.hpp"
#include "kernel_file/task_spec.hpp"

namespace kplay {

// Everything about a buffer but its bytes: what a result carries for an output checked where it lies
// (on the GPU), and what HostBuffer::described() keeps, so a field added here is never dropped by a copy.
struct BufferDescription {
    std::string name;
    ElementType type = ElementType::u8;
    BufferRole role = BufferRole::in;
    size_t count = 0;            // elements
    std::vector<int64_t> shape;  // {rows, cols} for a 2D buffer, {count} for a 1D one
    // Two fill patterns (32-bit words repeated over the buffer), written before alternate launches, so
    // an unwritten element is caught even when its right value happens to equal one of them. For
    // floating-point types both are NaNs of the type's width.
    std::array<uint32_t, 2> poison{0, 0};
    bool prefilled = false;  // an output that starts from `data` (its declared init) at every launch, not from poison
    bool constant = false;   // a kplay-constant: `data` goes into the module's __constant__ array of this name
    size_t bytes() const { return count * element_size(type); }
    bool is_output() const { return role == BufferRole::out || role == BufferRole::inout; }
    bool is_input() const { return role == BufferRole::in || role == BufferRole::inout; }
};

// One buffer of the task, on the host.
struct HostBuffer : BufferDescription {
    // Inputs and inout buffers: their content as made. Outputs: filled with what the kernel wrote.
    std::vector<unsigned char> data;
    // This buffer without its bytes.
    HostBuffer described() const {
        HostBuffer copy;
        static_cast<BufferDescription&>(copy) = *this;
        return copy;
    }
};

// The poison words for an element type (two distinct NaNs for floats, distinct bytes for integers).
std::array<uint32_t, 2> poison_patterns(ElementType type);

// What the repeated 32-bit poison word leaves in one element of `size` bytes: 1-byte types take the low
// byte, 2-byte types alternate the word's halves between even and odd elements (`parity`), 8-byte types
// hold the word twice.
uint64_t poison_element_bits(uint32_t word, size_t size, size_t parity);

struct TaskData {
    NamedValues values;               // the sizes and derived values
    std::vector<HostBuffer> buffers;  // in the task's order
    std::string sizes;                // "4096x1024", in the order of the task's size names
    // Names the input set (task, sizes, seed, image content): keys the input and reference caches.
    std::string identity;
    std::string description;  // for the user: "puppy.jpg, 1066x1600" or "random inputs at R=4096, C=1024 (seed 1)"
    HostBuffer* find(std::string_view name);
    const HostBuffer* find(std::string_view name) const;
    int index_of(std::string_view name) const;  // -1 when absent
};

}  // namespace kplay
