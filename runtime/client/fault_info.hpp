// What a run-time fault means in plain words, and what to try next.
#pragma once

#include <string>

namespace kplay {

struct FaultInfo {
    bool sticky = false;            // the CUDA context is unusable after it: the worker process must be replaced
    std::string explanation;        // what happened, in plain words
    std::string hint;               // what to look at
    std::string sanitizer_command;  // a command that pins the fault to a line, when it applies
};

}  // namespace kplay
