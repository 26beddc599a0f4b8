// Source lines of addresses in an emulated kernel's shared object, through binutils' addr2line.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kplay {

struct CodeLine {
    std::string file;  // the kernel file's name as messages show it (kernel_file_name)
    int line = 0;      // 0: not known
};

// One addr2line run for all `offsets` (from the object's load address), in order. Where code was
// inlined, the innermost frame outside `runtime_headers` (the prelude's folder) is taken: an atomicAdd
// is at the user's line that calls it, a __device__ helper's load at the helper's line.
std::vector<CodeLine> code_lines(const std::filesystem::path& shared_object, const std::vector<uintptr_t>& offsets,
                                 const std::string& runtime_headers);

}  // namespace kplay
