// The text a host reference is built from: the kernel file with each quoted #include of a header next
// to the including file replaced by that header, between #line directives. One reference.h under
// `#ifdef KPLAY_REFERENCE` then serves every step of a ladder, and everything kplay checks in a
// reference's text (its declaration and parameters, the constructs refused before a build, the key
// its outputs are cached under) covers the header as well as the file. A header of device code that
// the kernels share (block_sum.cuh) is expanded too, so its device bodies are blanked for the host
// build like the file's own. Headers from the include path (kplay.cuh) stay #include lines.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace kplay {

// Throws InputError "FILE:LINE: ..." for a header under KPLAY_REFERENCE that is missing, and for one
// that is unreadable, larger than 1 MiB, or nested more than 8 deep. Each header is expanded once.
// Text without such includes is returned unchanged.
std::string expand_reference_includes(std::string_view source, const std::filesystem::path& path);

// Where line `line` (1-based) of an expanded text came from, by its #line directives: "reference.h:12",
// or "FILE:LINE" with the kernel file's name where no directive applies.
std::string expanded_location(std::string_view expanded, int line, const std::string& file_name);

}  // namespace kplay
