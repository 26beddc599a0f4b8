// The first line of defence for emulated kernels: what a shared object may ask the process for.
//
// An emulated kernel is host code, so `extern "C" int system(const char*);` would reach libc. Before
// loading, kplay reads the object's dynamic symbol table and refuses any undefined symbol outside a
// short allowlist (memory copies, thread-local storage, pure libm functions), naming the symbol. It also
// refuses code the loader runs by itself (constructors, _init and _fini, ifunc resolvers), which would
// run before the sandbox is in place, or in kplay's own process when it reads the parameter table.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kplay {

struct SharedObjectSymbols {
    std::vector<std::string> undefined;
    // Code the dynamic loader would run by itself, before the sandbox or at unload: constructors,
    // destructors, _init/_fini, ifunc resolvers.
    bool has_constructors = false;
};

// Throws InputError when the file is not a 64-bit ELF shared object.
SharedObjectSymbols read_shared_object_symbols(const std::filesystem::path& path);

// A __shared__ array of an emulated kernel: a static thread_local of the shared object (the prelude's
// __shared__), at `offset` in the object's thread-local block.
struct SharedArraySymbol {
    std::string name;  // as the kernel names it
    uint64_t offset = 0, bytes = 0;
};
// Read from the object's symbol table (-g1 keeps it); the prelude's own thread-locals are left out.
std::vector<SharedArraySymbol> read_shared_arrays(const std::filesystem::path& path);

bool symbol_allowed_for_kernels(const std::string& name);

// Throws InputError naming every symbol outside the allowlist, or the constructors.
// `sanitized`: a thorough build, which may also call into the sanitizer runtimes.
void check_shared_object_is_confined(const std::filesystem::path& path, const std::string& source_name, bool sanitized = false);

// A host reference is hosted C++: beyond the kernels' list, the C++ standard library's containers and
// algorithms (allocation, exceptions, trees, lists, hashing, std::string), the pure helpers of
// <cstdlib> and <cstring> they use, and all of libm. Never files, printing, threads, the clock,
// environment or processes, and never __cxa_atexit: static objects with destructors run code at exit.
bool symbol_allowed_for_references(const std::string& name);

// Throws InputError naming the symbols outside that list, or the load-time code, like the kernels' check.
void check_host_reference_is_confined(const std::filesystem::path& path, const std::string& source_name);

}  // namespace kplay
