// The kplay-torch lines, checked against the task's outputs.
#include "kernel_file/torch_expectation.hpp"

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/kplay_lines.hpp"

namespace kplay {

std::vector<TorchExpectation> torch_expectations(std::string_view source, const TaskSpec& task, const std::string& file) {
    std::vector<TorchExpectation> found;
    for (const KplayLine& line : kplay_lines(source, "torch")) {
        const std::string at = file + ":" + std::to_string(line.number) + ": kplay-torch: ";
        const auto equals = line.rest.find('=');
        const std::string name = trim(line.rest.substr(0, equals == std::string::npos ? 0 : equals));
        const std::string expression = equals == std::string::npos ? "" : trim(line.rest.substr(equals + 1));
        if (name.empty() || expression.empty())
            throw InputError(at + "write the output's name, '=' and a PyTorch expression, e.g. '// kplay-torch: y = torch.softmax(x.view(R, C), dim=1)'");
        const BufferSpec* buffer = task.find_buffer(name);
        if (!buffer || !buffer->is_output()) {
            std::vector<std::string> outputs;
            for (const auto& candidate : task.buffers)
                if (candidate.is_output()) outputs.push_back(candidate.name);
            throw InputError(at + "'" + name + "' is not an output of the task (its outputs: " + join(outputs) + ")");
        }
        for (const auto& earlier : found)
            if (earlier.buffer == name)
                throw InputError(at + "'" + name + "' is given twice (first on line " + std::to_string(earlier.line) + ")");
        found.push_back({name, expression, line.number});
    }
    return found;
}

}  // namespace kplay
