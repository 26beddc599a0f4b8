// A recursive-descent reader of kplay's expression grammar that writes Python instead of a value.
#include "export/python_expression.hpp"

#include <array>
#include <cctype>

#include "base/error.hpp"

namespace kplay {

std::string python_name(std::string_view name) {
    static constexpr std::array<std::string_view, 38> reserved{
        "False", "None",  "True",     "and",   "as",     "assert", "async",  "await",  "break", "class",
        "continue", "def", "del",     "elif",  "else",   "except", "finally", "for",   "from",  "global",
        "if",    "import", "in",      "is",    "lambda", "nonlocal", "not",  "or",     "pass",  "raise",
        "return", "try",   "while",   "with",  "yield",  "torch",  "math",   "os"};
    for (std::string_view word : reserved)
        if (word == name) return std::string(name) + "_";
    return std::string(name);
}

namespace {

class Translator {
public:
    Translator(std::string_view text, PythonArithmetic arithmetic) : text_(text), arithmetic_(arithmetic) {}

    std::string translate() {
        std::string result = logic_or();
        skip_spaces();
        if (at_ < text_.size()) fail("unexpected '" + std::string(1, text_[at_]) + "'");
        return unwrap(result);
    }

private:
    std::string logic_or() {
        std::string left = logic_and();
        while (take("||")) left = "int(bool(" + unwrap(left) + ") or bool(" + unwrap(logic_and()) + "))";
        return left;
    }
    std::string logic_and() {
        std::string left = comparison();
        while (take("&&")) left = "int(bool(" + unwrap(left) + ") and bool(" + unwrap(comparison()) + "))";
        return left;
    }
    std::string comparison() {
        std::string left = sum();
        for (;;) {
            std::string op;
            for (const char* candidate : {"==", "!=", "<=", ">=", "<", ">"})
                if (take(candidate)) {
                    op = candidate;
                    break;
                }
            if (op.empty()) return left;
            left = "int(" + left + " " + op + " " + sum() + ")";
        }
    }
    std::string sum() {
        std::string left = product();
        for (;;) {
            skip_spaces();
            if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) {
                const char op = text_[at_++];
                left = "(" + left + " " + op + " " + product() + ")";
            } else {
                return left;
            }
        }
    }
    std::string product() {
        std::string left = unary();
        for (;;) {
            skip_spaces();
            if (at_ >= text_.size() || (text_[at_] != '*' && text_[at_] != '/' && text_[at_] != '%')) return left;
            const char op = text_[at_++];
            // Sizes are never negative, so Python's floor division and remainder agree with C's here.
            const std::string written = op == '/' && arithmetic_ == PythonArithmetic::integer ? "//" : std::string(1, op);
            left = "(" + left + " " + written + " " + unary() + ")";
        }
    }
    std::string unary() {
        skip_spaces();
        if (take("!")) return "int(not " + unary() + ")";
        if (take("-")) return "(-" + unary() + ")";
        if (take("+")) return unary();
        return primary();
    }
    std::string primary() {
        skip_spaces();
        if (at_ >= text_.size()) fail("the expression ends too early");
        const char c = text_[at_];
        if (c == '(') {
            ++at_;
            std::string inner = logic_or();
            if (!take(")")) fail("missing ')'");
            return "(" + unwrap(inner) + ")";
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name_or_call();
        fail("unexpected '" + std::string(1, c) + "'");
    }
    std::string number() {
        const size_t start = at_;
        while (at_ < text_.size()) {
            const char c = text_[at_];
            const bool exponent_sign = (c == '+' || c == '-') && at_ > start && (text_[at_ - 1] == 'e' || text_[at_ - 1] == 'E');
            if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != 'e' && c != 'E' && !exponent_sign) break;
            ++at_;
        }
        return std::string(text_.substr(start, at_ - start));
    }
    std::string name_or_call() {
        const size_t start = at_;
        while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
        const std::string name(text_.substr(start, at_ - start));
        if (!take("(")) return python_name(name);
        std::string arguments;
        if (!take(")")) {
            do {
                if (!arguments.empty()) arguments += ", ";
                arguments += unwrap(logic_or());
            } while (take(","));
            if (!take(")")) fail("missing ')' after the arguments of " + name);
        }
        return callee(name) + "(" + arguments + ")";
    }
    std::string callee(const std::string& name) {
        if (name == "cdiv" || name == "min" || name == "max" || name == "abs") return name;
        if (arithmetic_ == PythonArithmetic::real) {
            if (name == "sqrt" || name == "log" || name == "log2" || name == "exp" || name == "pow") return "math." + name;
        }
        fail("unknown function '" + name + "'");
    }

    // "(a + b)" -> "a + b" where the parentheses enclose the whole text.
    static std::string unwrap(const std::string& text) {
        if (text.size() < 2 || text.front() != '(' || text.back() != ')') return text;
        int depth = 0;
        for (size_t i = 0; i < text.size(); ++i) {
            depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
            if (depth == 0 && i + 1 < text.size()) return text;
        }
        return text.substr(1, text.size() - 2);
    }
    void skip_spaces() {
        while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    }
    // Takes `token` when it is next; "<" and "!" are not taken from "<=" and "!=".
    bool take(std::string_view token) {
        skip_spaces();
        if (text_.substr(at_, token.size()) != token) return false;
        const char after = at_ + token.size() < text_.size() ? text_[at_ + token.size()] : '\0';
        if ((token == "<" || token == ">" || token == "!") && after == '=') return false;
        at_ += token.size();
        return true;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(what + " at position " + std::to_string(at_ + 1) + " in '" + std::string(text_) + "'");
    }

    std::string_view text_;
    PythonArithmetic arithmetic_;
    size_t at_ = 0;
};

}  // namespace

std::string python_expression(std::string_view expression, PythonArithmetic arithmetic) {
    return Translator(expression, arithmetic).translate();
}

}  // namespace kplay
