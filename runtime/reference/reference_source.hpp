// A kernel file's text as the host compiler gets it to build the file's host reference.
//
// Line numbers stay the user's: a #line directive names the original file, and the bodies of kernels
// and device-only functions are blanked in place, keeping each newline (a reference cannot call them,
// and their CUDA built-ins do not exist on the host). What would let the reference run code outside
// its call, or reach the system through raw instructions (inline asm, asm labels, constructor,
// destructor, ifunc and section attributes), is refused here with the line, before a compiler starts.
#pragma once

#include <string>
#include <vector>

namespace kplay {

// Throws InputError naming the file and line of a refused construct, or a function name that is not
// an identifier (qualified names such as ref::softmax are fine).
// `constants`: the file's `__constant__` arrays a run fills (kplay-constant); the reference reads them as
// the host arrays of the same names, filled before it runs through generated accessors.
std::string prepare_reference_source(const std::string& source, const std::string& display_path,
                                     const std::string& function, const std::vector<std::string>& constants = {});

// The body of every __global__ function, and of every __device__ function that is neither __host__ nor
// constexpr, replaced by `{` and `}` around the body's newlines. `blank` is the source with comments and strings
// blanked (blank_comments_and_strings). Keywords inside preprocessor directives are left alone.
std::string blank_device_bodies(const std::string& source, const std::string& blank);

// The name a message gives a file's generated entry (the appended lines), so a compile error there can
// be told from one in the user's code.
const char* reference_entry_file_name();

}  // namespace kplay
