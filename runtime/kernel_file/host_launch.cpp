// Reading a kernel's <<<grid, block, smem>>> from the file's host code into expressions over the task.
#include "kernel_file/host_launch.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/host_code.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/source_scan.hpp"
#include "kernel_file/task_sizes.hpp"

namespace kplay {

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Token {
    enum Kind { word, number, punct } kind;
    std::string text;
};

// Words join `::` and `.member` (std::min, tpb.x); numbers keep their suffixes and dots; the operators
// that matter (<<, >>, ==, +=, ++, ...) are one token.
std::vector<Token> tokenize(std::string_view text) {
    std::vector<Token> tokens;
    size_t at = 0;
    while (at < text.size()) {
        const char c = text[at];
        if (std::isspace(static_cast<unsigned char>(c))) { ++at; continue; }
        const size_t start = at;
        if (std::isdigit(static_cast<unsigned char>(c))) {
            while (at < text.size() && (is_word_char(text[at]) || text[at] == '.')) ++at;
            tokens.push_back({Token::number, std::string(text.substr(start, at - start))});
        } else if (is_word_char(c)) {
            for (;;) {
                while (at < text.size() && is_word_char(text[at])) ++at;
                if (text.substr(at, 2) == "::" && at + 2 < text.size() && is_word_char(text[at + 2])) at += 2;
                else if (at + 1 < text.size() && text[at] == '.' && is_word_char(text[at + 1]) && !std::isdigit(static_cast<unsigned char>(text[at + 1]))) ++at;
                else break;
            }
            tokens.push_back({Token::word, std::string(text.substr(start, at - start))});
        } else {
            static const char* const pairs[] = {"<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "->", "++", "--",
                                                "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "::"};
            size_t length = 1;
            for (const char* pair : pairs)
                if (text.substr(at, std::char_traits<char>::length(pair)) == pair) { length = std::char_traits<char>::length(pair); break; }
            tokens.push_back({Token::punct, std::string(text.substr(at, length))});
            at += length;
        }
    }
    return tokens;
}

std::string join_tokens(const std::vector<Token>& tokens, size_t begin, size_t end) {
    std::string text;
    for (size_t i = begin; i < end && i < tokens.size(); ++i) {
        if (!text.empty() && tokens[i].kind != Token::punct && tokens[i - 1].kind != Token::punct) text += ' ';
        text += tokens[i].text;
    }
    return text;
}

// The tokens of a bracketed list from `open` (a '(' or '{') split at its top-level commas; `close` gets
// the index of the closing bracket.
std::vector<std::string> bracketed_list(const std::vector<Token>& tokens, size_t open, size_t& close) {
    std::vector<std::string> parts;
    int depth = 0;
    size_t start = open + 1;
    for (close = open; close < tokens.size(); ++close) {
        const std::string& t = tokens[close].text;
        if (t == "(" || t == "{" || t == "[") ++depth;
        else if (t == ")" || t == "}" || t == "]") {
            if (--depth == 0) break;
        } else if (t == "," && depth == 1) {
            parts.push_back(join_tokens(tokens, start, close));
            start = close + 1;
        }
    }
    if (close > start) parts.push_back(join_tokens(tokens, start, close));
    return parts;
}

bool is_assignment(const std::string& t) {
    return t == "=" || t == "+=" || t == "-=" || t == "*=" || t == "/=" || t == "%=" || t == "<<=" || t == ">>=" || t == "&=" ||
           t == "|=" || t == "^=" || t == "++" || t == "--";
}

// A variable of the host function, set once before the launch: its value, or its components (dim3).
struct Definition {
    bool found = false;
    bool is_dim3 = false;
    std::vector<std::string> components;
    std::string problem;
};

Definition find_definition(const std::vector<Token>& body, const std::string& name) {
    Definition definition;
    int sets = 0;
    for (size_t i = 0; i < body.size(); ++i) {
        const std::string& t = body[i].text;
        const std::string next = i + 1 < body.size() ? body[i + 1].text : "";
        const std::string previous = i > 0 ? body[i - 1].text : "";
        if (t.rfind(name + ".", 0) == 0 && is_assignment(next)) ++sets;  // tpb.x = 32
        if (t != name) continue;
        const bool typed = i > 0 && body[i - 1].kind == Token::word && previous != "return" && previous != "case" &&
                           previous != "else" && previous != "do";
        if (typed && (next == "=" || next == "(" || next == "{")) {
            ++sets;
            definition.found = true;
            definition.is_dim3 = previous == "dim3";
            size_t close = 0;
            if (next == "=") {
                size_t end = i + 2;
                for (int depth = 0; end < body.size(); ++end) {
                    const std::string& e = body[end].text;
                    if (e == "(" || e == "{" || e == "[") ++depth;
                    else if (e == ")" || e == "}" || e == "]") --depth;
                    else if (depth == 0 && (e == ";" || e == ",")) break;
                }
                if (i + 3 < end && body[i + 2].text == "dim3" && (body[i + 3].text == "(" || body[i + 3].text == "{")) {
                    definition.is_dim3 = true;
                    definition.components = bracketed_list(body, i + 3, close);
                } else {
                    definition.components = {join_tokens(body, i + 2, end)};
                }
            } else {
                definition.components = bracketed_list(body, i + 1, close);
            }
        } else if (is_assignment(next) || previous == "++" || previous == "--" || (previous == "&" && (i < 2 || body[i - 2].kind == Token::punct))) {
            ++sets;
        }
    }
    if (sets > 1) definition.problem = "'" + name + "' is set more than once before the launch";
    else if (sets == 1 && !definition.found) definition.problem = "'" + name + "' is set where kplay cannot read it";
    return definition;
}

// One launch's reading: its host function's body up to the launch, what it passes the kernel, and what
// each kernel parameter is bound to in the task.
class LaunchReader {
public:
    // `scope`: the file's namespace scope, and `macros` its object-like #defines, where a name the
    // function does not set may be defined (`#define TILE 16`, `constexpr int kThreads = 256;`).
    struct FileScope {
        std::vector<Token> tokens;
        std::map<std::string, std::string> macros;
    };

    LaunchReader(std::vector<Token> body, std::vector<std::string> call_args, const std::vector<std::string>& args,
                 const std::vector<std::string>& buffers, const NamedValues& known, const FileScope& scope)
        : body_(std::move(body)), call_args_(std::move(call_args)), args_(args), buffers_(buffers), known_(known), scope_(scope) {}

    // The components of a <<<...>>> entry (a dim3 variable, dim3(...), or one expression), translated;
    // trailing 1s dropped.
    std::vector<std::string> components(const std::string& text) {
        const std::vector<Token> tokens = tokenize(text);
        std::vector<std::string> parts{text};
        size_t close = 0;
        if (tokens.size() >= 2 && tokens[0].text == "dim3" && (tokens[1].text == "(" || tokens[1].text == "{")) {
            parts = bracketed_list(tokens, 1, close);
        } else if (tokens.size() == 1 && tokens[0].kind == Token::word && !is_call_arg(tokens[0].text)) {
            const Definition definition = definition_of(tokens[0].text);
            if (definition.found && definition.problem.empty() && definition.is_dim3) parts = definition.components;
        }
        std::vector<std::string> translated;
        for (const auto& part : parts) translated.push_back(translate(part, 0));
        while (translated.size() > 1 && translated.back() == "1") translated.pop_back();
        return translated;
    }

    const std::string& problem() const { return problem_; }

private:
    bool is_call_arg(const std::string& word) const { return std::find(call_args_.begin(), call_args_.end(), word) != call_args_.end(); }

    // The function's own variable, else a macro, else a namespace-scope constant.
    Definition definition_of(const std::string& name) const {
        Definition definition = find_definition(body_, name);
        if (definition.found || !definition.problem.empty()) return definition;
        if (const auto macro = scope_.macros.find(name); macro != scope_.macros.end() && !macro->second.empty()) {
            definition.found = true;
            definition.components = {macro->second};
            return definition;
        }
        return find_definition(scope_.tokens, name);
    }

    void fail(const std::string& why) {
        ++failures_;
        if (problem_.empty()) problem_ = why;
    }

    static std::string grouped(const std::string& text) {
        const bool single = std::all_of(text.begin(), text.end(), [](char c) { return is_word_char(c); });
        return single ? text : "(" + text + ")";
    }

    // The task's value bound to the kernel parameter the host code passes `index`.
    std::optional<std::string> passed(size_t index) {
        if (index >= args_.size()) return std::nullopt;
        const std::string& arg = args_[index];
        if (std::find(buffers_.begin(), buffers_.end(), arg) != buffers_.end()) return std::nullopt;
        return grouped(arg.substr(0, arg.find('=')));
    }

    // Each value the host code passes the kernel as a whole expression ("w*h") becomes the task's value
    // bound to that parameter, where it stands as a whole argument or parenthesised group.
    std::string replace_passed_expressions(std::string text) {
        text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }), text.end());
        for (size_t index = 0; index < call_args_.size(); ++index) {
            const std::string& passed_text = call_args_[index];
            if (std::all_of(passed_text.begin(), passed_text.end(), is_word_char)) continue;
            const auto value = passed(index);
            if (!value) continue;
            for (size_t at = text.find(passed_text); at != std::string::npos; at = text.find(passed_text, at + 1)) {
                const size_t end = at + passed_text.size();
                const bool starts = at == 0 || text[at - 1] == '(' || text[at - 1] == ',';
                const bool ends = end == text.size() || text[end] == ')' || text[end] == ',';
                if (starts && ends) text.replace(at, passed_text.size(), *value);
            }
        }
        return text;
    }

    std::string translate_word(const std::vector<Token>& tokens, size_t i, int depth) {
        const std::string& word = tokens[i].text;
        const bool called = i + 1 < tokens.size() && tokens[i + 1].text == "(";
        if (called) {
            const std::string name = word.rfind("std::", 0) == 0 ? word.substr(5) : word;
            if (name == "cdiv" || name == "min" || name == "max") return name;
            fail("it calls " + word + "(), which kplay does not read (it reads cdiv, min and max)");
            return word;
        }
        for (size_t index = 0; index < call_args_.size(); ++index) {
            if (call_args_[index] != word) continue;
            if (const auto value = passed(index)) return *value;
            fail("'" + word + "' is passed to the kernel as a buffer");
            return word;
        }
        if (known_.count(word)) return word;
        const size_t dot = word.find('.');
        const std::string base = word.substr(0, dot);
        const Definition definition = definition_of(base);
        if (!definition.problem.empty()) {
            fail(definition.problem);
            return word;
        }
        if (!definition.found || depth > 8) {
            fail("'" + base + "' is neither a value passed to the kernel, a size of the task, nor a variable set once before the launch");
            return word;
        }
        // A variable whose value cannot be read stays as its name in the suggested key, for the user to replace.
        const int before = failures_;
        const auto value = [&](const std::string& text) {
            const std::string translated = grouped(translate(text, depth + 1));
            return failures_ == before ? translated : word;
        };
        if (dot == std::string::npos) return definition.components.empty() ? word : value(definition.components.front());
        const std::string member = word.substr(dot + 1);
        const size_t index = member == "x" ? 0 : member == "y" ? 1 : member == "z" ? 2 : 3;
        if (!definition.is_dim3 || index > 2) {
            fail("'" + word + "' is not a dim3's x, y or z");
            return word;
        }
        return index < definition.components.size() ? value(definition.components[index]) : "1";
    }

    std::string translate(const std::string& text, int depth) {
        // Variables defined over each other several times over (`int a = b + b + b;`) would multiply the
        // work with every level: a budget bounds it.
        if (++steps_ > 2000) {
            fail("its variables nest too deeply for kplay to read");
            return text;
        }
        const std::vector<Token> tokens = tokenize(replace_passed_expressions(text));
        std::string out;
        for (size_t i = 0; i < tokens.size(); ++i) {
            const Token& token = tokens[i];
            if (token.kind == Token::word) {
                out += translate_word(tokens, i, depth);
            } else if (token.kind == Token::number) {
                std::string digits = token.text;
                while (!digits.empty() && std::string("uUlL").find(digits.back()) != std::string::npos) digits.pop_back();
                if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
                    fail("the number '" + token.text + "' is not a plain integer");
                out += digits.empty() ? token.text : digits;
            } else {
                if (std::string("+-*/%(),").find(token.text) == std::string::npos || token.text.size() != 1)
                    fail("it uses '" + token.text + "', which kplay's expressions do not have");
                out += token.text;
            }
        }
        return out;
    }

    std::vector<Token> body_;
    std::vector<std::string> call_args_;
    const std::vector<std::string>& args_;
    const std::vector<std::string>& buffers_;
    const NamedValues& known_;
    const FileScope& scope_;
    std::string problem_;
    int failures_ = 0;
    int steps_ = 0;
};

// The text between `open` (a bracket) and its match, split at top-level commas, spaces removed.
std::vector<std::string> split_top_level(std::string_view text) {
    std::vector<std::string> parts;
    std::string current;
    int depth = 0;
    for (char c : text) {
        if (c == '(' || c == '[' || c == '{') ++depth;
        else if (c == ')' || c == ']' || c == '}') --depth;
        if (c == ',' && depth == 0) {
            parts.push_back(current);
            current.clear();
        } else if (!std::isspace(static_cast<unsigned char>(c))) {
            current += c;
        }
    }
    if (!current.empty()) parts.push_back(current);
    return parts;
}

// The launch's <<<...>>> and (...) after the kernel's name at `at`, or false when it is no launch.
bool read_launch_text(const std::string& code, size_t at, size_t end, std::string& config, std::string& arguments) {
    while (at < end && std::isspace(static_cast<unsigned char>(code[at]))) ++at;
    if (at < end && code[at] == '<' && code.compare(at, 3, "<<<") != 0) {  // kernel<16><<<...
        int depth = 0;
        for (; at < end; ++at) {
            if (code[at] == '<') ++depth;
            else if (code[at] == '>' && --depth == 0) break;
        }
        ++at;
        while (at < end && std::isspace(static_cast<unsigned char>(code[at]))) ++at;
    }
    if (at >= end || code.compare(at, 3, "<<<") != 0) return false;
    const size_t close = code.find(">>>", at + 3);
    if (close == std::string::npos || close >= end) return false;
    config = code.substr(at + 3, close - at - 3);
    size_t open = close + 3;
    while (open < end && std::isspace(static_cast<unsigned char>(code[open]))) ++open;
    if (open >= end || code[open] != '(') return false;
    int depth = 0;
    size_t last = open;
    for (; last < end; ++last) {
        if (code[last] == '(') ++depth;
        else if (code[last] == ')' && --depth == 0) break;
    }
    if (last >= end) return false;
    arguments = code.substr(open + 1, last - open - 1);
    return true;
}

}  // namespace

std::vector<HostLaunch> read_host_launches(std::string_view source, const std::string& kernel, const std::vector<std::string>& args,
                                           const std::vector<std::string>& buffers, const NamedValues& known) {
    std::vector<HostLaunch> launches;
    const std::string code = blank_comments_and_strings(source);
    const LaunchReader::FileScope scope{tokenize(namespace_scope_code(source)), object_macros(source)};
    for (const SourceFunction& function : find_defined_functions(source)) {
        if (function.is_device) continue;
        for (size_t at = code.find(kernel, function.body_open); at != std::string::npos && at < function.end; at = code.find(kernel, at + 1)) {
            const size_t after = at + kernel.size();
            if ((at > 0 && is_word_char(code[at - 1])) || (after < code.size() && is_word_char(code[after]))) continue;
            std::string config, arguments;
            if (!read_launch_text(code, after, function.end, config, arguments)) continue;
            HostLaunch launch;
            launch.line = static_cast<int>(std::count(code.begin(), code.begin() + static_cast<long>(at), '\n')) + 1;
            launch.function = function.name;
            LaunchReader reader(tokenize(std::string_view(code).substr(function.body_open + 1, at - function.body_open - 1)),
                                split_top_level(arguments), args, buffers, known, scope);
            const std::vector<std::string> entries = split_top_level(config);
            if (entries.size() < 2) {
                launch.problem = "its <<<...>>> has " + std::to_string(entries.size()) + " entries";
            } else {
                launch.suggested_grid = reader.components(entries[0]);
                launch.suggested_block = reader.components(entries[1]);
                const std::string smem = entries.size() > 2 ? reader.components(entries[2]).front() : "";
                launch.problem = reader.problem();
                if (launch.problem.empty()) {
                    launch.grid = launch.suggested_grid;
                    launch.block = launch.suggested_block;
                    launch.smem = smem == "0" ? "" : smem;
                    try {
                        for (const auto* list : {&launch.grid, &launch.block})
                            for (const auto& expression : *list) evaluate_int_expr(expression, known);
                        if (!launch.smem.empty()) evaluate_int_expr(launch.smem, known);
                    } catch (const InputError& error) {
                        launch.problem = error.what();
                    }
                }
                if (!launch.problem.empty()) {
                    launch.grid.clear();
                    launch.block.clear();
                    launch.smem.clear();
                }
            }
            launches.push_back(std::move(launch));
        }
    }
    return launches;
}

namespace {

std::string launch_keys(const std::vector<std::string>& block, const std::vector<std::string>& grid, const std::string& smem) {
    return "block=" + (block.empty() ? std::string("...") : join(block, ",")) + " grid=" + (grid.empty() ? std::string("...") : join(grid, ",")) +
           (smem.empty() ? "" : " smem=" + smem);
}

}  // namespace

void take_launch_from_host_code(std::string_view source, bool launch_given, KernelSpec& spec) {
    const KernelDecl* decl = spec.declaration();
    if (!decl) return;
    NamedValues known = size_values(spec.task, spec.task.sizes.gpu_default);
    for (const auto& arg : spec.args) {
        const size_t equals = arg.find('=');
        if (equals == std::string::npos) continue;
        try {
            known[trim(arg.substr(0, equals))] = evaluate_int_expr(arg.substr(equals + 1), known);
        } catch (const InputError&) {
        }  // a literal that is no integer is none of a launch's business
    }
    std::vector<std::string> buffers;
    for (const auto& buffer : spec.task.buffers) buffers.push_back(buffer.name);
    std::vector<std::string> sizes;
    for (const auto& [name, value] : known) sizes.push_back(name);
    const std::vector<HostLaunch> launches = read_host_launches(source, decl->name, spec.args, buffers, known);
    if (launches.empty()) return;
    const HostLaunch& first = launches.front();
    const std::string where = "the launch in " + first.function + " at line " + std::to_string(first.line);
    std::string problem = first.problem;
    for (const auto& launch : launches)
        if (problem.empty() && (launch.grid != first.grid || launch.block != first.block || launch.smem != first.smem))
            problem = "the host code launches " + decl->name + " differently at line " + std::to_string(launch.line);
    if (!problem.empty()) {
        spec.inferred.push_back(where + " was not read: " + problem + ". kplay launches its own block over the task's extent instead; to launch as " +
                                "the host code does, add '// kplay: " + launch_keys(first.suggested_block, first.suggested_grid, "") +
                                "' with every name a size of the task (" + join(sizes) + ")");
        return;
    }
    spec.block = first.block;
    spec.grid = first.grid;
    if (spec.smem.empty()) spec.smem = first.smem;
    if (!launch_given) {
        spec.launch_dims = first.grid.size() > 1 || first.block.size() > 1 ? 2 : 1;
        spec.inferred.erase(std::remove_if(spec.inferred.begin(), spec.inferred.end(), [](const std::string& note) { return note.rfind("launch: ", 0) == 0; }),
                            spec.inferred.end());
    }
    spec.inferred.push_back("launch from the host code: " + launch_keys(first.block, first.grid, first.smem) + ", as " + where + " launches it");
}

}  // namespace kplay
