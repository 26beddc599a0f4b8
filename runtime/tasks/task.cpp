// Shared helpers of the task model.
#include "tasks/task.hpp"

namespace kplay {

size_t element_size(ElementType type) { return type == ElementType::u8 ? 1 : 4; }

const char* element_type_name(ElementType type) { return type == ElementType::u8 ? "uint8" : "float32"; }

HostBuffer* TaskData::find(const std::string& name) {
    for (auto& buffer : buffers)
        if (buffer.name == name) return &buffer;
    return nullptr;
}

const HostBuffer* TaskData::find(const std::string& name) const {
    return const_cast<TaskData*>(this)->find(name);
}

double CheckReport::metric(const std::string& name) const {
    for (const auto& m : metrics)
        if (m.name == name) return m.value;
    return 0;
}

}  // namespace kplay
