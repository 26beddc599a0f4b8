// One recursive-descent parser for expression.hpp's grammar, instantiated for int64 and for double.
//
// The grammar and the error messages are shared; what differs (checked integer arithmetic, real
// literals and functions) lives in the two arithmetic policies below.
#include "base/expression.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/error.hpp"

namespace kplay {

namespace {

// 64-bit integers; every operation that can overflow is checked.
struct IntArithmetic {
    using Value = int64_t;
    static constexpr bool reals = false;
    static bool add(Value a, Value b, Value* out) { return __builtin_add_overflow(a, b, out); }
    static bool subtract(Value a, Value b, Value* out) { return __builtin_sub_overflow(a, b, out); }
    static bool multiply(Value a, Value b, Value* out) { return __builtin_mul_overflow(a, b, out); }
    static bool is_zero(Value v) { return v == 0; }
    // The one quotient that does not fit: INT64_MIN / -1 (its remainder is 0, but x86 traps on it too).
    static bool divide(Value a, Value b, Value* out) {
        if (b == -1) return __builtin_sub_overflow(Value(0), a, out);
        *out = a / b;
        return false;
    }
    static bool modulo(Value a, Value b, Value* out) {
        *out = b == -1 ? 0 : a % b;
        return false;
    }
    static Value from_int(int64_t v) { return v; }
    static const char* functions() { return "cdiv, min, max"; }
};

// Doubles; a result that is not finite (overflow, 0/0, log of a negative) is an error.
struct RealArithmetic {
    using Value = double;
    static constexpr bool reals = true;
    static bool add(Value a, Value b, Value* out) { return !std::isfinite(*out = a + b); }
    static bool subtract(Value a, Value b, Value* out) { return !std::isfinite(*out = a - b); }
    static bool multiply(Value a, Value b, Value* out) { return !std::isfinite(*out = a * b); }
    static bool is_zero(Value v) { return v == 0; }
    static bool divide(Value a, Value b, Value* out) { return !std::isfinite(*out = a / b); }
    static bool modulo(Value a, Value b, Value* out) { return !std::isfinite(*out = std::fmod(a, b)); }
    static Value from_int(int64_t v) { return static_cast<double>(v); }
    static const char* functions() { return "cdiv, min, max, sqrt, log, log2, exp, abs, fabs, floor, ceil, pow"; }
};

template <typename Arithmetic>
class Parser {
public:
    using Value = typename Arithmetic::Value;
    Parser(std::string_view text, const NamedValues& names) : text_(text), names_(names) {}

    Value parse() {
        skip_spaces();
        if (at_ == text_.size()) fail("empty expression");
        const Value value = logical_or();
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

    // Takes `token` when it comes next (and is not the start of a longer one, e.g. '<' of "<=").
    bool take(std::string_view token, std::string_view not_followed_by = "") {
        skip_spaces();
        if (text_.substr(at_, token.size()) != token) return false;
        const size_t after = at_ + token.size();
        if (after < text_.size() && not_followed_by.find(text_[after]) != std::string_view::npos) return false;
        at_ = after;
        return true;
    }

    template <typename Operation>
    Value checked(Operation operation, Value a, Value b) const {
        Value out{};
        if (operation(a, b, &out)) fail(Arithmetic::reals ? "the result is not a finite number" : "integer overflow");
        return out;
    }

    static Value truth(bool value) { return value ? Value(1) : Value(0); }

    // Parentheses, calls and unary operators recurse; a bound keeps "((((...1" from overflowing the stack.
    static constexpr int kMaxDepth = 200;
    struct Nested {
        Parser& parser;
        explicit Nested(Parser& p) : parser(p) {
            if (++parser.depth_ > kMaxDepth) parser.fail("expression nested too deeply (at most " + std::to_string(kMaxDepth) + " levels)");
        }
        ~Nested() { --parser.depth_; }
    };

    Value logical_or() {
        const Nested nested(*this);
        Value value = logical_and();
        while (take("||")) {
            const Value rhs = logical_and();
            value = truth(value != 0 || rhs != 0);
        }
        return value;
    }

    Value logical_and() {
        Value value = comparison();
        while (take("&&")) {
            const Value rhs = comparison();
            value = truth(value != 0 && rhs != 0);
        }
        return value;
    }

    Value comparison() {
        Value value = sum();
        for (;;) {
            if (take("==")) value = truth(value == sum());
            else if (take("!=")) value = truth(value != sum());
            else if (take("<=")) value = truth(value <= sum());
            else if (take(">=")) value = truth(value >= sum());
            else if (take("<", "=")) value = truth(value < sum());
            else if (take(">", "=")) value = truth(value > sum());
            else return value;
        }
    }

    Value sum() {
        Value value = product();
        for (;;) {
            if (take("+")) value = checked(Arithmetic::add, value, product());
            else if (take("-")) value = checked(Arithmetic::subtract, value, product());
            else return value;
        }
    }

    Value product() {
        Value value = unary();
        for (;;) {
            if (take("*")) value = checked(Arithmetic::multiply, value, unary());
            else if (take("/")) value = checked(Arithmetic::divide, value, nonzero(unary()));
            else if (take("%")) value = checked(Arithmetic::modulo, value, nonzero(unary()));
            else return value;
        }
    }

    Value nonzero(Value value) const {
        if (Arithmetic::is_zero(value)) fail("division by zero");
        return value;
    }

    Value unary() {
        const Nested nested(*this);
        if (take("-")) return checked(Arithmetic::subtract, Value(0), unary());
        if (take("+")) return unary();
        if (take("!", "=")) return truth(unary() == 0);
        return primary();
    }

    Value number() {
        const size_t start = at_;
        if constexpr (Arithmetic::reals) {
            const std::string rest(text_.substr(at_));
            char* end = nullptr;
            const double value = std::strtod(rest.c_str(), &end);
            at_ += static_cast<size_t>(end - rest.c_str());
            if (!std::isfinite(value)) {
                at_ = start;
                fail("number too large");
            }
            return value;
        } else {
            int64_t value = 0;
            while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
                int64_t out = 0;
                if (__builtin_mul_overflow(value, 10, &out) || __builtin_add_overflow(out, text_[at_] - '0', &out))
                    fail("number too large");
                value = out;
                ++at_;
            }
            if (at_ < text_.size() && text_[at_] == '.') fail("an integer is expected here, not a decimal fraction");
            return value;
        }
    }

    Value primary() {
        skip_spaces();
        if (take("(")) {
            const Value value = logical_or();
            if (!take(")")) fail("missing ')'");
            return value;
        }
        if (at_ >= text_.size()) fail("expression ends too early");
        const char c = text_[at_];
        if (std::isdigit(static_cast<unsigned char>(c)) || (Arithmetic::reals && c == '.')) {
            const Value value = number();
            if (at_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
                fail("a number cannot be followed by a letter");
            return value;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const size_t start = at_;
            while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
            const std::string name(text_.substr(start, at_ - start));
            if (take("(")) return call(name, start);
            const auto found = names_.find(name);
            if (found == names_.end()) {
                std::string known;
                for (const auto& [key, value] : names_) known += (known.empty() ? "" : ", ") + key;
                at_ = start;
                fail("unknown name '" + name + "' (known: " + (known.empty() ? "none" : known) + ")");
            }
            return Arithmetic::from_int(found->second);
        }
        fail(std::string("unexpected '") + c + "'");
    }

    Value call(const std::string& name, size_t start) {
        std::vector<Value> args{logical_or()};
        while (take(",")) args.push_back(logical_or());
        if (!take(")")) fail("missing ')' after the arguments of '" + name + "'");
        auto arity = [&](size_t count) {
            if (args.size() != count) {
                at_ = start;
                fail("'" + name + "' takes " + std::to_string(count) + (count == 1 ? " argument" : " arguments"));
            }
        };
        if (name == "min" || name == "max") {
            arity(2);
            return name == "min" ? (args[0] < args[1] ? args[0] : args[1]) : (args[0] > args[1] ? args[0] : args[1]);
        }
        if (name == "cdiv") {
            arity(2);
            if (Arithmetic::is_zero(args[1])) fail("division by zero in cdiv");
            if constexpr (Arithmetic::reals) return std::ceil(checked(Arithmetic::divide, args[0], args[1]));
            else return checked(Arithmetic::divide, checked(Arithmetic::add, args[0], checked(Arithmetic::subtract, args[1], Value(1))), args[1]);
        }
        if constexpr (Arithmetic::reals) {
            const bool one = name == "sqrt" || name == "log" || name == "log2" || name == "exp" || name == "abs" || name == "fabs" ||
                             name == "floor" || name == "ceil";
            if (one || name == "pow") {
                arity(one ? 1 : 2);
                const double x = args[0];
                const double value = name == "sqrt" ? std::sqrt(x)
                                     : name == "log" ? std::log(x)
                                     : name == "log2" ? std::log2(x)
                                     : name == "exp" ? std::exp(x)
                                     : name == "abs" || name == "fabs" ? std::fabs(x)
                                     : name == "floor" ? std::floor(x)
                                     : name == "ceil" ? std::ceil(x)
                                                     : std::pow(x, args[1]);
                if (!std::isfinite(value)) {
                    at_ = start;
                    fail("'" + name + "' of " + std::to_string(x) + " is not a finite number");
                }
                return value;
            }
        }
        at_ = start;
        fail("unknown function '" + name + "' (known: " + Arithmetic::functions() + ")");
    }

    std::string_view text_;
    const NamedValues& names_;
    size_t at_ = 0;
    int depth_ = 0;
};

}  // namespace

int64_t evaluate_int_expr(std::string_view expression, const NamedValues& names) {
    return Parser<IntArithmetic>(expression, names).parse();
}

double evaluate_real_expr(std::string_view expression, const NamedValues& names) {
    return Parser<RealArithmetic>(expression, names).parse();
}

}  // namespace kplay
