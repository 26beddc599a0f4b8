// Small readers of compute-sanitizer's text that every tool's report shares: numbers with thousands
// separators, "(1,0,0)" triples, and code locations in the forms the versions print.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace kplay::detail {

constexpr std::string_view kSanitizerBar = "=========";

// Leading digits, with thousands separators when `separators`; false when none or over `limit`.
bool read_number(std::string_view& text, int64_t& value, int64_t limit = INT64_MAX / 16, bool separators = true);
// Plain digits: in "(96,0,0)" the comma separates values.
bool read_int(std::string_view& text, int& value);
void skip_spaces(std::string_view& text);
bool eat(std::string_view& text, std::string_view prefix);
// "(96,0,0)", "(96, 0, 0)" or "[85,0,0]" at the start of text.
bool read_triple(std::string_view& text, char open, char close, std::array<int, 3>& out);
std::string triple_text(const std::array<int, 3>& values);  // "(96,0,0)"

struct CodeLocation {
    std::string function, pc, file;  // pc "0x120"; each "" when not printed
    int line = 0;
};

// What follows "at ": "oob_write(unsigned char *, int)+0x120 in 01_out_of_bounds_write.cu:12",
// "__assertfail+0x19a0", or the older "0x120 in /path/file.cu:12:oob_write(...)".
CodeLocation read_code_location(std::string_view at);

}  // namespace kplay::detail
