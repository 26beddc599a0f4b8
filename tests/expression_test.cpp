// Expressions used by annotations and task declarations: precedence, functions, names, comparisons,
// reals and every error path.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "base/error.hpp"
#include "base/expression.hpp"

using kplay::evaluate_int_expr;
using kplay::InputError;

TEST(IntExpr, LiteralsAndPrecedence) {
    EXPECT_EQ(evaluate_int_expr("42", {}), 42);
    EXPECT_EQ(evaluate_int_expr("2+3*4", {}), 14);
    EXPECT_EQ(evaluate_int_expr("(2+3)*4", {}), 20);
    EXPECT_EQ(evaluate_int_expr("-3 + 10 / 3", {}), 0);
    EXPECT_EQ(evaluate_int_expr("17 % 5", {}), 2);
    EXPECT_EQ(evaluate_int_expr(" 7 - 2 - 1 ", {}), 4);  // left associative
}

TEST(IntExpr, NamesAndFunctions) {
    const kplay::NamedValues names{{"tw", 16}, {"n", 1000}, {"M", 999}};
    EXPECT_EQ(evaluate_int_expr("2*tw*tw*4", names), 2048);
    EXPECT_EQ(evaluate_int_expr("cdiv(n,256)", names), 4);
    EXPECT_EQ(evaluate_int_expr("cdiv(M, tw) * tw", names), 1008);
    EXPECT_EQ(evaluate_int_expr("min(n, M) + max(1, 2)", names), 1001);
}

TEST(IntExpr, ErrorsNameTheProblem) {
    const kplay::NamedValues names{{"tw", 16}};
    try {
        evaluate_int_expr("tw*q", names);
        FAIL() << "expected an error";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("unknown name 'q'"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("known: tw"), std::string::npos) << error.what();
    }
    EXPECT_THROW(evaluate_int_expr("", names), InputError);
    EXPECT_THROW(evaluate_int_expr("1/0", names), InputError);
    EXPECT_THROW(evaluate_int_expr("cdiv(4,0)", names), InputError);
    EXPECT_THROW(evaluate_int_expr("(1+2", names), InputError);
    EXPECT_THROW(evaluate_int_expr("1 2", names), InputError);
    EXPECT_THROW(evaluate_int_expr("16tw", names), InputError);
    EXPECT_THROW(evaluate_int_expr("pow(2,3)", names), InputError);
    EXPECT_THROW(evaluate_int_expr("9223372036854775807 + 1", names), InputError);
    EXPECT_THROW(evaluate_int_expr("99999999999999999999", names), InputError);
}

TEST(IntExpr, ComparisonsAndLogicGiveOneOrZero) {
    const kplay::NamedValues names{{"n", 1000}};
    EXPECT_EQ(evaluate_int_expr("n%4==0", names), 1);
    EXPECT_EQ(evaluate_int_expr("n%3==0", names), 0);
    EXPECT_EQ(evaluate_int_expr("n >= 256 && n < 4096", names), 1);
    EXPECT_EQ(evaluate_int_expr("n > 1000 || n <= 1", names), 0);
    EXPECT_EQ(evaluate_int_expr("!(n != 1000)", names), 1);
    EXPECT_EQ(evaluate_int_expr("1 + 2 == 3", names), 1);  // arithmetic binds tighter
    EXPECT_THROW(evaluate_int_expr("1.5", names), InputError);
    EXPECT_THROW(evaluate_int_expr("min(1)", names), InputError);
}

TEST(RealExpr, LiteralsFunctionsAndNames) {
    using kplay::evaluate_real_expr;
    const kplay::NamedValues names{{"n", 1024}, {"R", 3}, {"C", 1000}};
    EXPECT_DOUBLE_EQ(evaluate_real_expr("1e-6*sqrt(n)", names), 1e-6 * 32);
    EXPECT_DOUBLE_EQ(evaluate_real_expr("8*R*C", names), 24000);
    EXPECT_DOUBLE_EQ(evaluate_real_expr("-1.5", names), -1.5);
    EXPECT_DOUBLE_EQ(evaluate_real_expr(".25 + 2E2", names), 200.25);
    EXPECT_DOUBLE_EQ(evaluate_real_expr("log2(n) + abs(-2) + pow(2, 3) + exp(0) + log(1)", names), 10 + 2 + 8 + 1);
    EXPECT_DOUBLE_EQ(evaluate_real_expr("n / 3", names), 1024.0 / 3);  // no integer division for reals
    EXPECT_DOUBLE_EQ(evaluate_real_expr("cdiv(n, 1000)", names), 2);
    EXPECT_THROW(evaluate_real_expr("sqrt(-1)", names), InputError);
    EXPECT_THROW(evaluate_real_expr("1/0", names), InputError);
    EXPECT_THROW(evaluate_real_expr("1e400", names), InputError);
    EXPECT_THROW(evaluate_real_expr("sqrt(1, 2)", names), InputError);
    EXPECT_THROW(evaluate_real_expr("gamma(2)", names), InputError);
    try {
        evaluate_real_expr("2*m", names);
        FAIL() << "expected an error";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("unknown name 'm' (known: C, R, n) at position 3 in '2*m'"), std::string::npos)
            << error.what();
    }
}

// Found by tests/fuzz (fuzz_expression): the quotients that do not fit in 64 bits, results that are not
// finite, and nesting deep enough to overflow the stack are errors, never undefined behaviour or a crash.
TEST(IntExpr, FuzzFindingsAreErrors) {
    const kplay::NamedValues names{{"small", INT64_MIN}, {"big", INT64_MAX}};
    EXPECT_THROW(evaluate_int_expr("small / -1", names), InputError);
    EXPECT_EQ(evaluate_int_expr("small % -1", names), 0);
    EXPECT_EQ(evaluate_int_expr("big / -1", names), -INT64_MAX);
    EXPECT_THROW(evaluate_int_expr("cdiv(1, small)", names), InputError);
    EXPECT_THROW(evaluate_int_expr("cdiv(small + 1, -1)", names), InputError);
    EXPECT_EQ(evaluate_int_expr("cdiv(7, 2)", names), 4);
    EXPECT_THROW(kplay::evaluate_real_expr("1e300 / 1e-300", {}), InputError);
    EXPECT_THROW(kplay::evaluate_real_expr("cdiv(1e300, 1e-300)", {}), InputError);
    EXPECT_THROW(evaluate_int_expr(std::string(50000, '(') + "1" + std::string(50000, ')'), {}), InputError);
    EXPECT_THROW(evaluate_int_expr(std::string(50000, '-') + "1", {}), InputError);
    EXPECT_EQ(evaluate_int_expr(std::string(50, '(') + "1" + std::string(50, ')'), {}), 1);
}
