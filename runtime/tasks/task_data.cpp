// Lookups in a run's buffers, and the poison words outputs are filled with before each checked launch.
#include "tasks/task_data.hpp"

namespace kplay {

std::array<uint32_t, 2> poison_patterns(ElementType type) {
    switch (type) {
        case ElementType::u8:
        case ElementType::i8:
        case ElementType::i32:
        case ElementType::u32:
        case ElementType::i64: return {0x5A5A5A5Au, 0xA5A5A5A5u};
        // A byte type's element takes the word's low byte: every byte of the word is the same NaN.
        case ElementType::fp8_e4m3: return {0x7F7F7F7Fu, 0xFFFFFFFFu};
        case ElementType::fp8_e5m2: return {0x7E7E7E7Eu, 0xFDFDFDFDu};
        case ElementType::bf16: return {0x7FC07FC0u, 0xFFC1FFC1u};
        // Each half of the word is a NaN, so every f16 element holds one whatever its position.
        case ElementType::f16: return {0x7E007E00u, 0xFE01FE01u};
        case ElementType::f32: return {0x7FC00000u, 0xFFC0DEADu};
        // Repeated twice per element, each word's top bits make a double NaN (0xFFF8DEAD'FFF8DEAD, ...).
        case ElementType::f64: return {0xFFF8DEADu, 0x7FF4BEEFu};
    }
    return {0x5A5A5A5Au, 0xA5A5A5A5u};
}

HostBuffer* TaskData::find(std::string_view name) {
    const int index = index_of(name);
    return index < 0 ? nullptr : &buffers[static_cast<size_t>(index)];
}

const HostBuffer* TaskData::find(std::string_view name) const { return const_cast<TaskData*>(this)->find(name); }

int TaskData::index_of(std::string_view name) const {
    for (size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].name == name) return static_cast<int>(i);
    return -1;
}

uint64_t poison_element_bits(uint32_t word, size_t size, size_t parity) {
    switch (size) {
        case 1: return word & 0xFFu;
        case 2: return parity ? word >> 16 : word & 0xFFFFu;
        case 4: return word;
        default: return (uint64_t{word} << 32) | word;
    }
}

}  // namespace kplay
