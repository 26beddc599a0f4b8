// The toolkit's tools by name; the packages named are those of NVIDIA's CUDA repositories.
#include "inspect/cuda_tools.hpp"

#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "base/subprocess.hpp"

namespace kplay {

namespace fs = std::filesystem;

std::string_view name_of(CudaTool tool) {
    switch (tool) {
        case CudaTool::nvdisasm: return "nvdisasm";
        case CudaTool::compute_sanitizer: return "compute-sanitizer";
        case CudaTool::ncu: return "ncu";
    }
    return "?";
}

namespace {

// What provides each tool, for the message when it is missing.
std::string_view provider_of(CudaTool tool) {
    switch (tool) {
        case CudaTool::nvdisasm: return "the CUDA toolkit's nvdisasm component (package cuda-nvdisasm-13-0)";
        case CudaTool::compute_sanitizer: return "the CUDA toolkit's Compute Sanitizer (package cuda-sanitizer-13-0)";
        case CudaTool::ncu: return "Nsight Compute (package cuda-nsight-compute-13-0, or NVIDIA's nsight-compute installer)";
    }
    return "";
}

bool executable(const fs::path& path) { return !path.empty() && access(path.c_str(), X_OK) == 0 && !fs::is_directory(path); }

}  // namespace

ToolLookup find_cuda_tool(CudaTool tool) {
    const std::string name(name_of(tool));
    std::vector<fs::path> candidates;
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* root = std::getenv(variable); root && *root) candidates.push_back(fs::path(root) / "bin" / name);
    if (const std::string on_path = find_in_path(name); !on_path.empty()) candidates.emplace_back(on_path);
    candidates.push_back(fs::path("/usr/local/cuda/bin") / name);
    if (tool == CudaTool::compute_sanitizer) candidates.push_back("/usr/local/cuda/compute-sanitizer/compute-sanitizer");
    ToolLookup lookup;
    for (const auto& candidate : candidates)
        if (executable(candidate)) {
            lookup.path = candidate;
            return lookup;
        }
    lookup.missing = name + " was not found in $CUDA_HOME/bin, on PATH or in /usr/local/cuda/bin; it comes with " +
                     std::string(provider_of(tool)) + ".";
    return lookup;
}

}  // namespace kplay
