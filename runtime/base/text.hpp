// Small text helpers every layer uses: trimming, splitting lists that hold expressions, joining.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kplay {

// Without leading and trailing spaces, tabs, CRs and newlines.
std::string trim(std::string_view text);

// "a, cdiv(n,256), k<1,2>" -> {"a", "cdiv(n,256)", "k<1,2>"}: separators inside (...), [...] or <...>
// do not split; parts are trimmed and empty ones dropped.
std::vector<std::string> split_list(std::string_view text, char separator = ',');

// {"a","b"} -> "a, b" (or with any separator).
std::string join(const std::vector<std::string>& parts, std::string_view separator = ", ");

// The text split at '\n' with any '\r' before it removed (CRLF text reads as LF); no trailing empty
// piece. The pieces view `text`.
std::vector<std::string_view> split_lines(std::string_view text);

// "%.3g" of a double, for messages.
std::string short_number(double value);

}  // namespace kplay
