// Integer expressions used by annotations: precedence, functions, names and every error path.
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "base/int_expr.hpp"

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
