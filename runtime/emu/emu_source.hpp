// The user's .cu text as the host compiler gets it for the emulated device.
//
// Line numbers stay the user's: a #line directive names the original file, `extern __shared__`
// declarations are rewritten in place on their own line, and the launch entries are appended after the
// last line. What the emulated device cannot run (inline PTX, kernel launches from a kernel, libraries
// it does not have: CUB beyond its block and warp primitives, Thrust, libcu++, CUTLASS) is refused here
// with the line, before a compiler is started.
#pragma once

#include <string>
#include <vector>

namespace kplay {

struct EmulatedSource {
    std::string text;
    // One entry per kernel name expression, in order: kplay_emu_entry_<i>, kplay_emu_params_<i>.
    std::vector<std::string> kernels;
};

// Throws InputError naming the file, line and feature when the source uses something not emulated.
// `constants`: the `__constant__` arrays a run fills (kplay-constant); each gets an accessor.
EmulatedSource prepare_emulated_source(const std::string& source, const std::string& display_path,
                                       const std::vector<std::string>& kernel_expressions, const std::vector<std::string>& constants = {});

// The accessors of `__constant__` arrays, appended after a file's last line (kernel or host reference):
//   void* <constant_symbol(i)>(unsigned long* bytes)   the array's address; stores its sizeof
// The objects are built with hidden visibility, so the arrays' own names are not found by dlsym.
std::string constant_accessors(const std::vector<std::string>& constants);
std::string emulated_constant_symbol(size_t index);

// `#line 1 "path"`, quoted for the compiler, and a newline: what keeps a rewritten file's lines the user's.
std::string line_directive(const std::string& display_path);

std::string emulated_entry_symbol(size_t index);
std::string emulated_params_symbol(size_t index);

}  // namespace kplay
