// What a run-time fault means in plain words, and what to try next.
#pragma once

#include <string>

namespace kplay {

struct FaultInfo {
    bool sticky = false;            // the CUDA context is unusable after it: the worker process must be replaced
    std::string explanation;        // what happened, in plain words
    std::string hint;               // what to look at
    std::string sanitizer_command;  // a command that pins the fault to a line, when it applies
    // The kernel wrote past the end of a buffer and the GPU did not fault (the write stayed inside the
    // allocation's granularity): found in the guard zone kplay leaves after each buffer.
    bool overrun = false;
};

}  // namespace kplay
