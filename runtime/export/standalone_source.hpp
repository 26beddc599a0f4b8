// The kernel file as one text that builds anywhere: what an exported snippet carries.
//
// A kernel file may include headers that live next to it (`block_sum.cuh`), in its include= folders,
// or in kplay's own include folder (`kplay.cuh`); a PyTorch notebook has none of them. Each such quoted
// include is replaced by the header's text (once, as #pragma once would), and what sits under
// KPLAY_REFERENCE (the host reference, which the snippet replaces by a PyTorch expression) is left out.
// Angle-bracket includes and headers found nowhere stay #include lines, for the compiler's own paths.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kplay {

// `include_dirs`: the spec's include= folders, as written (relative ones are beside the file).
// Throws InputError naming a header that cannot be read or nests more than 8 deep.
std::string standalone_kernel_source(std::string_view source, const std::filesystem::path& path,
                                     const std::vector<std::string>& include_dirs);

}  // namespace kplay
