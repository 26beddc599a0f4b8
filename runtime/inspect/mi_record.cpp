// A recursive-descent reader of GDB/MI's output syntax (gdb manual, "GDB/MI Output Syntax").
#include "inspect/mi_record.hpp"

#include <cctype>
#include <stdexcept>

namespace kplay {

const MiValue* MiValue::find(const std::string& name) const {
    for (const auto& [key, value] : items)
        if (key == name) return &value;
    return nullptr;
}

std::string MiValue::text_of(const std::string& name, const std::string& fallback) const {
    const MiValue* value = find(name);
    return value && value->kind == Kind::text ? value->text : fallback;
}

namespace {

struct Reader {
    const std::string& line;
    size_t at = 0;

    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument(what + " at column " + std::to_string(at + 1));
    }
    bool done() const { return at >= line.size(); }
    char peek() const { return done() ? '\0' : line[at]; }
    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++at;
    }

    std::string c_string() {
        expect('"');
        std::string out;
        while (!done() && line[at] != '"') {
            char c = line[at++];
            if (c == '\\') {
                if (done()) fail("an escape at the end of the line");
                const char e = line[at++];
                switch (e) {
                    case 'n': c = '\n'; break;
                    case 't': c = '\t'; break;
                    case 'r': c = '\r'; break;
                    case 'e': c = '\x1b'; break;
                    default:
                        if (e >= '0' && e <= '7') {  // gdb writes bytes it will not show as \ooo
                            int code = e - '0';
                            for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i) code = code * 8 + (line[at++] - '0');
                            c = static_cast<char>(code);
                        } else {
                            c = e;  // \" \\ and anything else stands for itself
                        }
                }
            }
            out += c;
        }
        expect('"');
        return out;
    }

    std::string name() {
        const size_t start = at;
        while (!done() && line[at] != '=' && line[at] != ',' && line[at] != '}' && line[at] != ']') ++at;
        if (at == start) fail("expected a name");
        return line.substr(start, at - start);
    }

    MiValue value() {
        MiValue v;
        if (peek() == '"') {
            v.text = c_string();
        } else if (peek() == '{') {
            v.kind = MiValue::Kind::tuple;
            ++at;
            if (peek() != '}') results_into(v, '}');
            expect('}');
        } else if (peek() == '[') {
            v.kind = MiValue::Kind::list;
            ++at;
            if (peek() != ']') results_into(v, ']');
            expect(']');
        } else {
            fail("expected a value");
        }
        return v;
    }

    // name=value or, in a list, a bare value; separated by commas up to `end`.
    void results_into(MiValue& into, char end) {
        for (;;) {
            if (peek() == '"' || peek() == '{' || peek() == '[') {
                into.items.push_back(MiItem{"", value()});
            } else {
                std::string key = name();
                expect('=');
                into.items.push_back(MiItem{std::move(key), value()});
            }
            if (peek() == end) return;
            expect(',');
        }
    }
};

MiRecordType type_of(char c) {
    switch (c) {
        case '^': return MiRecordType::result;
        case '*': return MiRecordType::exec;
        case '+': return MiRecordType::status;
        case '=': return MiRecordType::notify;
        case '~': return MiRecordType::console;
        case '@': return MiRecordType::target;
        case '&': return MiRecordType::log;
        default: throw std::invalid_argument(std::string("'") + c + "' begins no MI record");
    }
}

}  // namespace

std::optional<MiRecord> parse_mi_record(const std::string& text, std::string* problem) {
    std::string line = text;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    MiRecord record;
    if (line == "(gdb)") return record;
    Reader reader{line};
    try {
        if (line.empty()) reader.fail("an empty line");
        size_t digits = 0;
        while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
        if (digits > 0) record.token = std::stol(line.substr(0, digits));
        reader.at = digits;
        if (reader.done()) reader.fail("a token without a record");
        record.type = type_of(line[reader.at++]);
        record.results.kind = MiValue::Kind::tuple;
        if (record.type == MiRecordType::console || record.type == MiRecordType::target || record.type == MiRecordType::log) {
            record.stream = reader.c_string();
        } else {
            record.record_class = reader.name();
            if (reader.peek() == ',') {
                ++reader.at;
                reader.results_into(record.results, '\0');
            }
        }
        if (!reader.done()) reader.fail("unexpected text");
    } catch (const std::exception& error) {
        if (problem) *problem = std::string("not an MI record (") + error.what() + "): " + line.substr(0, 200);
        return std::nullopt;
    }
    return record;
}

std::string mi_quote(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

}  // namespace kplay
