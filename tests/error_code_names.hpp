// Tests compare error codes with their names, as the JSON and the protocol spell them
// (EXPECT_EQ(report.error_code, "KPLAY_TIMEOUT")); kplay itself compares the values.
#pragma once

#include <string_view>

#include "values/error_code.hpp"

namespace kplay {

inline bool operator==(ErrorCode code, std::string_view name) { return error_code_name(code) == name; }

}  // namespace kplay
