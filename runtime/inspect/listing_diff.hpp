// A line diff of two listings, for "what changed since the last save".
#pragma once

#include <string>
#include <vector>

#include "inspect/listing.hpp"

namespace kplay {

enum class DiffKind { same, added, removed };

struct DiffLine {
    DiffKind kind = DiffKind::same;
    std::string text;
    int before_index = -1, after_index = -1;  // indices into the two inputs
};

struct ListingDiff {
    std::vector<DiffLine> lines;
    int added = 0, removed = 0;
    bool truncated = false;   // the inputs were too different to diff within the bound; lines then empty
};

// Myers' O(ND) diff in linear space (the middle-snake bisection), with a bound on the work: a shortest
// edit script of at most max_edits lines added plus removed, else truncated (added/removed 0, lines empty).
// The work is then O((N+M) * max_edits); inputs whose lengths, or whose multisets of lines, alone show more
// than max_edits edits are refused in O(N+M). Within a run of changes the removed lines come first.
ListingDiff diff_lines(const std::vector<std::string>& before, const std::vector<std::string>& after, int max_edits = 20000);

// The text of a listing's lines as they should be compared: SASS without its /*0040*/ offsets and
// trailing encoding comments, PTX as is; blank lines dropped. Register renaming is NOT normalized.
// A listing with a function name is SASS (parse_nvdisasm names them; parse_ptx does not).
std::vector<std::string> comparable_lines(const Listing& listing);

}  // namespace kplay
