// The first line of defence for emulated kernels: what a shared object may ask the process for.
//
// An emulated kernel is host code, so `extern "C" int system(const char*);` would reach libc. Before
// loading, kplay reads the object's dynamic symbol table and refuses any undefined symbol outside a
// short allowlist (memory copies, thread-local storage, pure libm functions), naming the symbol. It also
// refuses load-time constructors, which would run before the sandbox is in place.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kplay {

struct SharedObjectSymbols {
    std::vector<std::string> undefined;
    bool has_constructors = false;
};

// Throws InputError when the file is not a 64-bit ELF shared object.
SharedObjectSymbols read_shared_object_symbols(const std::filesystem::path& path);

bool symbol_allowed_for_kernels(const std::string& name);

// Throws InputError naming every symbol outside the allowlist, or the constructors.
// `sanitized`: a thorough build, which may also call into the sanitizer runtimes.
void check_shared_object_is_confined(const std::filesystem::path& path, const std::string& source_name, bool sanitized = false);

}  // namespace kplay
