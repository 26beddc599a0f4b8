// One line of gdb's machine interface (GDB/MI, `gdb --interpreter=mi3`) read into a value.
//
// A line is a result record (^done, ^error, ^running), an async record (*stopped, =thread-created), a
// stream record (~ console text, @ target output, & log) or the "(gdb)" prompt. Results are
// name=value pairs whose values are C strings, {tuples} or [lists] of values or of results.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kplay {

struct MiItem;

struct MiValue {
    enum class Kind { text, tuple, list };
    Kind kind = Kind::text;
    std::string text;                                  // Kind::text, unescaped
    std::vector<MiItem> items;  // a tuple's results; a list's items (names empty for bare values)

    // The item called `name` (a tuple's or a list's result), or null.
    const MiValue* find(const std::string& name) const;
    // The text of the item called `name`, or `fallback` when there is none or it is not text.
    std::string text_of(const std::string& name, const std::string& fallback = "") const;
};

// A named value of a tuple or list. (A struct of its own, not std::pair: a pair of the still incomplete
// MiValue inside MiValue is not a complete type for every standard library.)
struct MiItem {
    std::string name;
    MiValue value;
};

enum class MiRecordType { result, exec, status, notify, console, target, log, prompt };

struct MiRecord {
    MiRecordType type = MiRecordType::prompt;
    std::optional<long> token;  // the number a command was sent with, echoed by its result record
    std::string record_class;   // "done", "error", "running", "stopped", "thread-created", ...
    MiValue results;            // a tuple of the record's results
    std::string stream;         // a stream record's text, unescaped

    std::string text_of(const std::string& name, const std::string& fallback = "") const { return results.text_of(name, fallback); }
};

// The record on one line (without its newline), or nullopt with `problem` saying where it does not
// parse. gdb's own lines never fail; a program's output mixed into the stream does.
std::optional<MiRecord> parse_mi_record(const std::string& line, std::string* problem = nullptr);

// `text` as an MI C string ("..." with \" \\ \n escapes), for a command's argument.
std::string mi_quote(const std::string& text);

}  // namespace kplay
