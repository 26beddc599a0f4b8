// The last line of defence for emulated kernels: a seccomp filter on the launch process.
//
// Installed after the kernel's shared object is loaded and the worker threads exist, for every thread
// at once. It allows what executing needs (memory, futexes, signals returning, exit) and traps
// everything else, so a kernel that got past the symbol check still cannot open a file, a socket or
// start a process. A trapped call is reported by name.
#pragma once

#include <string>

namespace kplay {

// Returns an empty string on success, else why the filter could not be installed.
std::string install_kernel_sandbox();

// "openat" for a syscall number on this architecture ("syscall 257" when unknown).
std::string syscall_name(int number);

}  // namespace kplay
