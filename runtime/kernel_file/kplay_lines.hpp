// The `// kplay-NAME: ...` lines of one NAME in a kernel file, with their line numbers: the readers of
// kplay-launch and kplay-tma lines walk the file the same way.
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_file/source_scan.hpp"

namespace kplay {

struct KplayLine {
    int number = 0;    // 1-based
    std::string rest;  // what follows the colon
};

inline std::vector<KplayLine> kplay_lines(std::string_view source, std::string_view kind) {
    std::vector<KplayLine> found;
    std::istringstream lines{std::string(source)};
    std::string line, name, rest;
    for (int number = 1; std::getline(lines, line); ++number)
        if (match_kplay_line(line, name, rest) && name == kind) found.push_back({number, rest});
    return found;
}

}  // namespace kplay
