// Writing a sweep's chosen point back into the kernel file's `// kplay:` line, and only into it.
//
// This and saving an output PNG are the only times kplay writes a user's file, and only when asked.
// The edit changes the annotation line's block=, the literal in args= (tw=16 -> tw=32) and defines=
// (replacing a define's value or appending it); every other byte of the file stays as it was, CRLF
// line endings and a byte-order mark included.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kplay {

struct AnnotationValues {
    std::optional<std::vector<int64_t>> block;              // the whole block (x[,y[,z]]); unset: leave block= alone
    std::map<std::string, std::string> literals;            // tw -> 32: must already be literals of args=
    std::vector<std::pair<std::string, std::string>> defines;  // TILE -> 64: replaced in defines=, or appended
};

struct AnnotationEdit {
    std::string text;      // the whole file after the edit
    int line = 0;          // the annotation's line number (1-based)
    std::string before;    // that line before and after, without its line ending
    std::string after;
    bool changed() const { return before != after; }
    std::string preview() const;  // "line 1:\n- before\n+ after\n", for the window and --apply
};

// The edit of raw file bytes. Throws InputError with an exact message when the file has no `// kplay:`
// line, or a literal is not among args= (then it cannot be written: "tw is not a literal of args=...").
// block= is written with as many values as it had (at least as many as are not 1), and added when absent.
// Also refused, with exact messages: a block of no or more than 3 values or one below 1, a value that
// would not read back (empty, spaces, commas, brackets), a define's name that is not a name. The line is
// the one find_annotation reads (its InputError passes through); a key given twice there is written in
// each place; what is added (block=, defines=) goes after the line's last token.
AnnotationEdit edit_annotation(std::string_view file_bytes, const AnnotationValues& values);

// Writes the edit to `path`: first, once, a copy of the file as it is now at `path` + ".orig" (an
// existing .orig is never overwritten), then the new text through a temporary file in the same folder
// and a rename, keeping the file's permissions. Throws InputError when the file changed since
// `file_bytes` was read (its content differs) or cannot be written. Returns the .orig path.
// A symbolic link is followed: the file it names is replaced, the link stays.
std::filesystem::path write_annotation_edit(const std::filesystem::path& path, std::string_view file_bytes, const AnnotationEdit& edit);

}  // namespace kplay
