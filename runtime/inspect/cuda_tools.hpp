// Finding the CUDA toolkit's command-line tools (nvdisasm, compute-sanitizer, ncu) on this machine, and
// saying which toolkit component to install when one is missing.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace kplay {

enum class CudaTool { nvdisasm, compute_sanitizer, ncu };

struct ToolLookup {
    std::filesystem::path path;  // empty when not found
    std::string missing;         // then: where kplay looked and what provides it
    bool found() const { return !path.empty(); }
};

// Looks in $CUDA_HOME/bin, $CUDA_PATH/bin, PATH and /usr/local/cuda/bin (and the tool's own folder in
// the toolkit), in that order.
ToolLookup find_cuda_tool(CudaTool tool);
std::string_view name_of(CudaTool tool);

}  // namespace kplay
