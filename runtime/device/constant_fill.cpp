// Constant arrays: the size check's message and the fill of every kernel of a run.
#include "device/constant_fill.hpp"

#include <algorithm>

namespace kplay {

std::string constant_size_problem(const std::string& name, size_t symbol_bytes, size_t declared_bytes) {
    return "kplay-constant " + name + ": the kernel's __constant__ array '" + name + "' is " + std::to_string(symbol_bytes) +
           " bytes, but the declaration's length gives " + std::to_string(declared_bytes) +
           " bytes at these sizes: make the two agree (a fixed-length array holds one size of the task).";
}

void write_constants(Device& device, const std::vector<LoadedKernel*>& kernels, const TaskData& data) {
    std::vector<LoadedKernel*> done;
    for (LoadedKernel* kernel : kernels) {
        if (std::find(done.begin(), done.end(), kernel) != done.end()) continue;
        done.push_back(kernel);
        for (const HostBuffer& buffer : data.buffers)
            if (buffer.constant) device.write_constant(*kernel, buffer.name, buffer.data.data(), buffer.bytes());
    }
}

std::vector<std::string> constant_names(const TaskSpec& task) {
    std::vector<std::string> names;
    for (const BufferSpec& buffer : task.buffers)
        if (buffer.constant) names.push_back(buffer.name);
    return names;
}

}  // namespace kplay
