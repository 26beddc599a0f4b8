// Writes a sweep's chosen values into the `// kplay:` line as spans of that line's raw bytes, so every
// other byte of the file (and of the line) stays as it was; then saves it with a one-time .orig copy.
#include "sweep/annotation_edit.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "base/error.hpp"
#include "base/text.hpp"
#include "base/unique_fd.hpp"
#include "base/write_all.hpp"
#include "kernel_file/kernel_spec.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// As std::istream's >> sees a space, so tokens split where find_annotation splits them.
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

bool is_name(std::string_view text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string without_spaces(std::string_view text) {
    std::string out;
    for (char c : text)
        if (!is_space(c)) out += c;
    return out;
}

struct Span {
    size_t begin = 0, end = 0;  // offsets in the line
};

// One key=value of the line: the value runs from after '=' to the end of its last token.
struct Entry {
    std::string key;
    Span value;
};

// One item of a comma list inside an entry's value, trimmed; `equals` is npos without '='.
struct Item {
    Span span;
    size_t equals = std::string::npos;
    std::string name;  // before '=', spaces removed (find_annotation joins a value's tokens without them)
};

// The entries of the annotation line, by find_annotation's rule: a token whose text before '=' is a
// lowercase key starts an entry, any other token continues the previous one.
std::vector<Entry> line_entries(std::string_view line) {
    std::vector<Entry> entries;
    size_t at = line.find("kplay:") + 6;
    while (at < line.size()) {
        while (at < line.size() && is_space(line[at])) ++at;
        if (at == line.size()) break;
        const size_t start = at;
        while (at < line.size() && !is_space(line[at])) ++at;
        const std::string_view token = line.substr(start, at - start);
        const size_t equals = token.find('=');
        const std::string_view key = equals == std::string_view::npos ? std::string_view() : token.substr(0, equals);
        const bool is_key =
            !key.empty() && key.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string_view::npos;
        if (is_key)
            entries.push_back({std::string(key), {start + equals + 1, at}});
        else if (!entries.empty())
            entries.back().value.end = at;
        // A leading token that is not key=value made find_annotation throw already.
    }
    return entries;
}

// The comma items of a value, split as split_list splits (not inside (...), <...> or [...]), so an
// item here is an item of the spec's list.
std::vector<Item> value_items(std::string_view line, Span value) {
    std::vector<Item> items;
    auto add = [&](size_t begin, size_t end) {
        while (begin < end && is_space(line[begin])) ++begin;
        while (end > begin && is_space(line[end - 1])) --end;
        if (begin == end) return;
        Item item;
        item.span = {begin, end};
        const std::string_view text = line.substr(begin, end - begin);
        item.equals = text.find('=');
        if (item.equals != std::string_view::npos) item.equals += begin;
        item.name =
            without_spaces(text.substr(0, item.equals == std::string::npos ? text.size() : item.equals - begin));
        items.push_back(std::move(item));
    };
    int depth = 0;
    size_t start = value.begin;
    for (size_t at = value.begin; at < value.end; ++at) {
        const char c = line[at];
        if (c == '(' || c == '<' || c == '[') ++depth;
        if (c == ')' || c == '>' || c == ']') --depth;
        if (c == ',' && depth <= 0) {
            add(start, at);
            start = at + 1;
        }
    }
    add(start, value.end);
    return items;
}

// A value that reads back as itself: no spaces (tokens would join), no ',' (a new item) and no
// brackets (they change how later commas split).
void check_value(const std::string& name, const std::string& value, bool may_be_empty) {
    const bool bad = value.find_first_of(" \t\r\n\v\f,()<>[]") != std::string::npos;
    if (bad || (value.empty() && !may_be_empty))
        throw InputError("cannot write " + name + "=" + value +
                         " into the annotation: a value there is not empty and has no spaces, "
                         "commas or brackets");
}

struct Replacement {
    size_t begin = 0, end = 0;
    std::string text;
    int order = 0;  // among insertions at one place, the lower goes first
};

std::string apply(std::string_view line, std::vector<Replacement> replacements) {
    std::sort(replacements.begin(), replacements.end(), [](const Replacement& a, const Replacement& b) {
        return a.begin != b.begin ? a.begin > b.begin : a.order > b.order;
    });
    std::string out(line);
    for (const auto& replacement : replacements)
        out.replace(replacement.begin, replacement.end - replacement.begin, replacement.text);
    return out;
}

std::string os_reason(int error) { return std::strerror(error); }

// The whole file, or errno.
int read_all(const fs::path& path, std::string& bytes) {
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) return errno;
    bytes.clear();
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return errno;
        if (got == 0) return 0;
        bytes.append(buffer, static_cast<size_t>(got));
    }
}

// Writes all of `bytes`, then makes them durable; 0 or errno.
int write_durably(int fd, std::string_view bytes) {
    if (const int error = write_all(fd, bytes)) return error;
    return ::fsync(fd) == 0 ? 0 : errno;
}

}  // namespace

std::string AnnotationEdit::preview() const {
    return "line " + std::to_string(line) + ":\n- " + before + "\n+ " + after + "\n";
}

AnnotationEdit edit_annotation(std::string_view file_bytes, const AnnotationValues& values) {
    // find_annotation picks the line (and refuses a malformed one), so the edit lands on the line the
    // spec is read from; its line numbers count '\n' as the raw bytes do.
    const std::optional<Annotation> annotation = find_annotation(file_bytes);
    if (!annotation)
        throw InputError(
            "the file has no '// kplay:' line to write the values into; add one, e.g. '// kplay: block=16,16', or "
            "change the file by hand");
    AnnotationEdit edit;
    edit.line = annotation->line;
    size_t line_begin = 0;
    for (int number = 1; number < edit.line; ++number) line_begin = file_bytes.find('\n', line_begin) + 1;
    size_t line_end = std::min(file_bytes.size(), file_bytes.find('\n', line_begin));
    if (line_end > line_begin && file_bytes[line_end - 1] == '\r') --line_end;  // the CR stays as the line ending
    // The mark is not part of the line as the user sees it; it stays in the file, outside the edit.
    if (line_begin == 0 && file_bytes.substr(0, 3) == kByteOrderMark) line_begin = 3;
    const std::string_view line = file_bytes.substr(line_begin, line_end - line_begin);
    const std::vector<Entry> entries = line_entries(line);

    std::vector<Replacement> replacements;
    int order = 0;
    // Additions go after the last token, so spaces at the end of the line stay at its end.
    size_t tail = line.find("kplay:") + 6;
    for (const auto& entry : entries) tail = std::max(tail, entry.value.end);

    if (values.block) {
        const std::vector<int64_t>& block = *values.block;
        std::vector<std::string> texts;
        for (int64_t value : block) texts.push_back(std::to_string(value));
        if (block.empty() || block.size() > 3)
            throw InputError("cannot write block=" + join(texts, ",") + ": a block takes 1 to 3 values (x,y,z)");
        if (std::any_of(block.begin(), block.end(), [](int64_t value) { return value < 1; }))
            throw InputError("cannot write block=" + join(texts, ",") + ": block sizes are 1 or more");
        size_t had = 0;
        for (const auto& entry : entries)
            if (entry.key == "block")
                had = value_items(line, entry.value).size();  // the last block= is the one that counts
        size_t needed = 1;
        for (size_t i = 0; i < block.size(); ++i)
            if (block[i] != 1) needed = i + 1;
        // As many values as it had keeps a 2D block 2D when block_y is 1; missing axes are 1.
        const size_t count = std::max(needed, std::min<size_t>(had, 3));
        texts.resize(count, "1");
        const std::string text = join(texts, ",");
        bool found = false;
        for (const auto& entry : entries)
            if (entry.key == "block") {
                replacements.push_back({entry.value.begin, entry.value.end, text, order++});
                found = true;
            }
        if (!found) replacements.push_back({tail, tail, " block=" + text, order++});
    }

    if (!values.literals.empty()) {
        std::vector<Item> args;
        bool has_args = false;
        for (const auto& entry : entries)
            if (entry.key == "args") {
                has_args = true;
                for (auto& item : value_items(line, entry.value)) args.push_back(std::move(item));
            }
        for (const auto& [name, value] : values.literals) {
            check_value(name, value, false);
            bool found = false;
            for (const auto& item : args) {
                if (item.name != name || item.equals == std::string::npos) continue;
                size_t begin = item.equals + 1;
                while (begin < item.span.end && is_space(line[begin])) ++begin;  // "tw= 16" keeps its space
                replacements.push_back({begin, item.span.end, value, order++});
                found = true;
            }
            if (found) continue;
            if (!has_args)
                throw InputError(name + " is not a literal of args= (line " + std::to_string(edit.line) +
                                 " has no args=), so it cannot be written; add args=...," + name +
                                 "=VALUE to the annotation");
            std::vector<std::string> listed;
            for (const auto& item : args)
                listed.push_back(without_spaces(line.substr(item.span.begin, item.span.end - item.span.begin)));
            throw InputError(name + " is not a literal of args=" + join(listed, ",") + " (line " +
                             std::to_string(edit.line) + "), so it cannot be written; add it there as " + name +
                             "=VALUE");
        }
    }

    if (!values.defines.empty()) {
        // The last value given for a name is the one written.
        std::vector<std::pair<std::string, std::string>> defines;
        for (const auto& [name, value] : values.defines) {
            if (!is_name(name))
                throw InputError("cannot write the define '" + name + "': a define's name is letters, digits and _");
            check_value(name, value, true);
            // The name is copied for the lambda: clang 14 (the fuzz build's) cannot capture a structured binding.
            auto same = std::find_if(defines.begin(), defines.end(),
                                     [&, wanted = name](const auto& define) { return define.first == wanted; });
            if (same != defines.end())
                same->second = value;
            else
                defines.emplace_back(name, value);
        }
        const Entry* last_defines = nullptr;
        std::vector<Item> items;
        for (const auto& entry : entries)
            if (entry.key == "defines") {
                last_defines = &entry;
                for (auto& item : value_items(line, entry.value)) items.push_back(std::move(item));
            }
        std::vector<std::string> appended;
        for (const auto& [name, value] : defines) {
            const std::string text = value.empty() ? name : name + "=" + value;
            bool found = false;
            for (const auto& item : items)
                if (item.name == name) {
                    replacements.push_back({item.span.begin, item.span.end, text, order++});
                    found = true;
                }
            if (!found) appended.push_back(text);
        }
        if (!appended.empty() && last_defines) {
            const bool empty = value_items(line, last_defines->value).empty();
            replacements.push_back(
                {last_defines->value.end, last_defines->value.end, (empty ? "" : ",") + join(appended, ","), order++});
        } else if (!appended.empty()) {
            replacements.push_back({tail, tail, " defines=" + join(appended, ","), order++});
        }
    }

    edit.before = std::string(line);
    edit.after = apply(line, std::move(replacements));
    edit.text = std::string(file_bytes.substr(0, line_begin)) + edit.after + std::string(file_bytes.substr(line_end));
    return edit;
}

fs::path write_annotation_edit(const fs::path& path, std::string_view file_bytes, const AnnotationEdit& edit) {
    const std::string where = path.string();
    std::string now;
    if (const int error = read_all(path, now))
        throw InputError("cannot read " + where + " to write the values into it: " + os_reason(error) +
                         "; nothing was written");
    if (now != file_bytes)
        throw InputError(where +
                         " changed since kplay read it; nothing was written. Reload it and apply the values again.");
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0)
        throw InputError("cannot read " + where + " to write the values into it: " + os_reason(errno) +
                         "; nothing was written");
    const mode_t mode = status.st_mode & 07777;

    fs::path orig = path;
    orig += ".orig";
    // O_EXCL: an .orig that exists (a file, a folder, even a dangling link) is never replaced, so it
    // keeps the file as it was before kplay's first edit, however many edits follow.
    if (UniqueFd copy(::open(orig.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)); copy) {
        int error = write_durably(copy.get(), now);
        if (!error && ::fchmod(copy.get(), mode) != 0) error = errno;  // the umask may have taken bits away
        if (error) {
            copy.reset();
            ::unlink(orig.c_str());
            throw InputError("cannot write " + orig.string() +
                             " (the copy of the file before the edit): " + os_reason(error) + "; nothing was written");
        }
    } else if (errno != EEXIST) {
        throw InputError("cannot write " + orig.string() +
                         " (the copy of the file before the edit): " + os_reason(errno) + "; nothing was written");
    }

    // A link is followed, so the file it names is edited and the link stays a link.
    std::error_code link_error;
    const fs::path target = fs::is_symlink(path) ? fs::canonical(path, link_error) : path;
    const auto fail = [&](int error) {
        return InputError("cannot write " + where + ": " + os_reason(error) + "; the file is unchanged (a copy is at " +
                          orig.string() + ")");
    };
    if (link_error) throw fail(link_error.value());
    std::string temp = (target.parent_path() / ("." + target.filename().string() + ".kplay-XXXXXX")).string();
    UniqueFd out(::mkstemp(temp.data()));
    if (!out) throw fail(errno);
    // The new file is a new inode: it takes the old one's permissions, and its owner where allowed
    // (root editing another user's file); a failed chown leaves the file ours, which is no error.
    int error = ::fchmod(out.get(), mode) == 0 ? 0 : errno;
    if (!error && ::fchown(out.get(), status.st_uid, status.st_gid) != 0) {
        // Not ours to give away: the file stays ours.
    }
    if (!error) error = write_durably(out.get(), edit.text);
    out.reset();
    if (!error && ::rename(temp.c_str(), target.c_str()) != 0) error = errno;
    if (error) {
        ::unlink(temp.c_str());
        throw fail(error);
    }
    return orig;
}

}  // namespace kplay
