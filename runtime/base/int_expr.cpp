// Recursive-descent evaluator for int_expr.hpp's grammar.
#include "base/int_expr.hpp"

#include <cctype>

#include "base/error.hpp"

namespace kplay {

namespace {

class Parser {
public:
    Parser(std::string_view text, const NamedValues& names) : text_(text), names_(names) {}

    int64_t parse() {
        skip_spaces();
        if (at_ == text_.size()) fail("empty expression");
        const int64_t value = sum();
        skip_spaces();
        if (at_ != text_.size()) fail(std::string("unexpected '") + text_[at_] + "'");
        return value;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(what + " at position " + std::to_string(at_ + 1) + " in '" + std::string(text_) + "'");
    }

    void skip_spaces() {
        while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    }

    bool take(char c) {
        skip_spaces();
        if (at_ < text_.size() && text_[at_] == c) {
            ++at_;
            return true;
        }
        return false;
    }

    // Applies a __builtin_*_overflow operation; the overflow flag is read before the result is used.
    template <typename Operation>
    int64_t checked(Operation operation, int64_t a, int64_t b) const {
        int64_t out = 0;
        if (operation(a, b, &out)) fail("integer overflow");
        return out;
    }
    static bool add(int64_t a, int64_t b, int64_t* out) { return __builtin_add_overflow(a, b, out); }
    static bool subtract(int64_t a, int64_t b, int64_t* out) { return __builtin_sub_overflow(a, b, out); }
    static bool multiply(int64_t a, int64_t b, int64_t* out) { return __builtin_mul_overflow(a, b, out); }

    int64_t sum() {
        int64_t value = product();
        for (;;) {
            if (take('+')) value = checked(add, value, product());
            else if (take('-')) value = checked(subtract, value, product());
            else return value;
        }
    }

    int64_t product() {
        int64_t value = unary();
        for (;;) {
            if (take('*')) value = checked(multiply, value, unary());
            else if (take('/')) { const int64_t rhs = unary(); if (rhs == 0) fail("division by zero"); value /= rhs; }
            else if (take('%')) { const int64_t rhs = unary(); if (rhs == 0) fail("division by zero"); value %= rhs; }
            else return value;
        }
    }

    int64_t unary() {
        if (take('-')) return checked(subtract, 0, unary());
        if (take('+')) return unary();
        return primary();
    }

    int64_t primary() {
        skip_spaces();
        if (take('(')) {
            const int64_t value = sum();
            if (!take(')')) fail("missing ')'");
            return value;
        }
        if (at_ >= text_.size()) fail("expression ends too early");
        const char c = text_[at_];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            int64_t value = 0;
            while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
                int64_t out = 0;
                if (__builtin_mul_overflow(value, 10, &out) || __builtin_add_overflow(out, text_[at_] - '0', &out))
                    fail("number too large");
                value = out;
                ++at_;
            }
            if (at_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
                fail("a number cannot be followed by a letter");
            return value;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const size_t start = at_;
            while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
            const std::string name(text_.substr(start, at_ - start));
            if (take('(')) return call(name, start);
            const auto found = names_.find(name);
            if (found == names_.end()) {
                std::string known;
                for (const auto& [key, value] : names_) known += (known.empty() ? "" : ", ") + key;
                at_ = start;
                fail("unknown name '" + name + "' (known: " + (known.empty() ? "none" : known) + ")");
            }
            return found->second;
        }
        fail(std::string("unexpected '") + c + "'");
    }

    int64_t call(const std::string& name, size_t start) {
        const int64_t a = sum();
        if (!take(',')) fail("'" + name + "' takes two arguments");
        const int64_t b = sum();
        if (!take(')')) fail("missing ')' after the arguments of '" + name + "'");
        if (name == "min") return a < b ? a : b;
        if (name == "max") return a > b ? a : b;
        if (name == "cdiv") {
            if (b == 0) fail("division by zero in cdiv");
            return checked(add, a, b - 1) / b;
        }
        at_ = start;
        fail("unknown function '" + name + "' (known: cdiv, min, max)");
    }

    std::string_view text_;
    const NamedValues& names_;
    size_t at_ = 0;
};

}  // namespace

int64_t evaluate_int_expr(std::string_view expression, const NamedValues& names) {
    return Parser(expression, names).parse();
}

}  // namespace kplay
