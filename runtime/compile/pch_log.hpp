// NVRTC's own lines about its automatic precompiled headers (-pch), taken out of a compile's log: they
// are kplay's business, not the file's, so they are never shown as the file's warnings.
//
//   "k.cu": creating precompiled header file "/tmp/__nvrtc_auto_pch_PID_0/k_0.pch"
//   "k.cu": using precompiled header file "/tmp/__nvrtc_auto_pch_PID_0/k_0.pch"
//   Warning #630-D: the initial sequence of preprocessing directives is not compatible with those of
//   precompiled header file "..."        (followed by a blank line and NVRTC's "Remark: The warnings can
//                                         be suppressed with ..." when it is the log's only warning)
#pragma once

#include <string>

#include "values/compile_result.hpp"

namespace kplay {

// Removes those lines from `log` and says what NVRTC did: used wins over created (a compile that found
// its PCH), created over none.
PchUse take_pch_lines(std::string& log);

}  // namespace kplay
