// What a sanitizer that stopped an emulated kernel (thorough mode) reported, in kplay's words.
#pragma once

#include <string>

namespace kplay {

// "thread (3,0,0) of block (0,0,0): AddressSanitizer: stack-buffer-overflow (READ of size 4) at emu/x.cu:5"
// and the report itself below it (trimmed); `who` names the CUDA thread that ran. Sets `file` and
// `line` where the report names the kernel's line.
std::string explain_sanitizer_report(const std::string& who, const std::string& report, std::string& file, int& line);

}  // namespace kplay
