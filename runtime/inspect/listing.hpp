// A PTX or SASS listing as lines linked to lines of the kernel file; ptx_listing and sass_listing make them.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kplay {

struct ListingLine {
    std::string text;          // as shown: the disassembler's indentation trimmed (SASS keeps its /*0040*/ offset)
    int source_line = 0;       // 1-based line of the kernel file this line came from; 0: none
    std::string origin;        // "kplay.cuh:5" when the innermost location is another file (a header), else empty
    bool instruction = false;  // counts toward its source line's instruction count
};

struct Listing {
    std::string function;              // SASS: the mangled function name; PTX: empty (the whole module)
    std::vector<ListingLine> lines;
    std::map<int, int> instructions_by_line() const;   // source line -> instruction count (lines > 0 only)
    std::vector<int> lines_of(int source_line) const;  // indices of the listing lines linked to a source line
};

// True when a path named in a listing is the kernel file: the same string, or the same file name when
// the listing gives only a name (compute-sanitizer does) or paths differ by directory.
bool is_kernel_file(std::string_view listed_path, std::string_view kernel_file);

// --- shared by the PTX and SASS parsers ---

// One location a listing names; an inlining chain is a list of them, innermost first.
struct ListedLocation {
    std::string file;  // as the listing names it; empty when the listing's file number is unknown
    int line = 0;
};

// Links a listing line through an inlining chain: source_line is the first location, innermost to
// outermost, that is in the kernel file (line > 0); origin is "name:line" of the innermost location
// when that one is in another file. An empty chain leaves the line unlinked.
void link_to_kernel_file(ListingLine& line, const std::vector<ListedLocation>& chain, std::string_view kernel_file);

// A decimal number at the start of text (after spaces); -1 when there is none or it does not fit an int.
// used is set to how many characters it took.
int parse_listed_number(std::string_view text, size_t* used = nullptr);

// The part after the last '/' or '\\'.
std::string_view file_name_of(std::string_view path);

}  // namespace kplay
