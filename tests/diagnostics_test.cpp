// Parsing NVRTC's log: locations, caret columns (tabs, CRLF), codes, context lines, gcc formatting.
#include <gtest/gtest.h>

#include "compile/nvrtc_log.hpp"

using namespace kplay;

TEST(Diagnostics, ParsesErrorWithCaretColumn) {
    const std::string log =
        "dir/kern.cu(3): error: identifier \"undefined_thing\" is undefined\n"
        "  \tint i = threadIdx.x;  a[i] = undefined_thing + 1;\n"
        "  \t                             ^\n"
        "\n"
        "dir/kern.cu(4): warning #177-D: variable \"unused\" was declared but never referenced\n"
        "      int unused = 3;\n"
        "          ^\n"
        "\n"
        "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
        "\n"
        "1 error detected in the compilation of \"dir/kern.cu\".\n";
    const auto diagnostics = parse_nvrtc_log(log);
    ASSERT_EQ(diagnostics.size(), 2u);
    EXPECT_EQ(diagnostics[0].file, "dir/kern.cu");
    EXPECT_EQ(diagnostics[0].line, 3);
    EXPECT_EQ(diagnostics[0].column, 31);  // the tab counts as one column, as in gcc
    EXPECT_EQ(diagnostics[0].severity, Severity::error);
    EXPECT_EQ(diagnostics[0].source_line, "\tint i = threadIdx.x;  a[i] = undefined_thing + 1;");
    EXPECT_EQ(diagnostics[1].severity, Severity::warning);
    EXPECT_EQ(diagnostics[1].code, "177-D");
    EXPECT_EQ(diagnostics[1].column, 9);
    EXPECT_EQ(format_gcc_style(diagnostics[0]), "dir/kern.cu:3:31: error: identifier \"undefined_thing\" is undefined");
}

TEST(Diagnostics, HandlesCrlfLogs) {
    const std::string log = "k.cu(2): error: expected a \";\"\r\n  int x = 1\r\n           ^\r\n\r\n";
    const auto diagnostics = parse_nvrtc_log(log);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].line, 2);
    EXPECT_EQ(diagnostics[0].column, 10);
    EXPECT_EQ(diagnostics[0].source_line, "int x = 1");
}

TEST(Diagnostics, KeepsInstantiationContextAndGlobalErrors) {
    const std::string log =
        "t.cu(5): error: no suitable conversion\n"
        "    T x = y;\n"
        "          ^\n"
        "          detected during instantiation of \"void k<T>(T *) [with T=int]\" at line 9\n"
        "\n"
        "error: unrecognized option --bogus\n";
    const auto diagnostics = parse_nvrtc_log(log);
    ASSERT_EQ(diagnostics.size(), 2u);
    EXPECT_NE(diagnostics[0].context.find("detected during instantiation"), std::string::npos);
    EXPECT_EQ(diagnostics[1].file, "");
    EXPECT_EQ(diagnostics[1].line, 0);
    EXPECT_EQ(format_gcc_style(diagnostics[1]), "error: unrecognized option --bogus");
}

TEST(Diagnostics, EmptyLogHasNoDiagnostics) { EXPECT_TRUE(parse_nvrtc_log("").empty()); }

// Found by tests/fuzz (fuzz_nvrtc_log): a line number past INT_MAX threw std::out_of_range, and a long
// header line overflowed the stack inside std::regex.
TEST(Diagnostics, HugeLineNumbersAndLongLinesAreHarmless) {
    const auto huge = parse_nvrtc_log("k.cu(99999999999): error: x\n");
    ASSERT_EQ(huge.size(), 1u);
    EXPECT_EQ(huge[0].file, "k.cu");
    EXPECT_EQ(huge[0].line, 0);
    EXPECT_EQ(huge[0].message, "x");
    const std::string long_path(200000, 'a');
    const auto located = parse_nvrtc_log(long_path + "(3): error: expected a \";\"\n");
    ASSERT_EQ(located.size(), 1u);
    EXPECT_EQ(located[0].file, long_path);
    EXPECT_EQ(located[0].line, 3);
    const auto global = parse_nvrtc_log("error: " + long_path + "\n");
    ASSERT_EQ(global.size(), 1u);
    EXPECT_EQ(global[0].message, long_path);
    // The rightmost "(LINE): " that parses is the location, as before.
    const auto nested = parse_nvrtc_log("a(1).cu(7): warning #177-D: m(2): error: n\n");
    ASSERT_EQ(nested.size(), 1u);
    EXPECT_EQ(nested[0].file, "a(1).cu(7): warning #177-D: m");
    EXPECT_EQ(nested[0].line, 2);
    EXPECT_EQ(nested[0].severity, Severity::error);
}

// ptxas runs after the front end for an sm_XX target: its errors name a PTX line, and its closing
// "aborted" line is no error of its own.
TEST(Diagnostics, PtxasErrorsAreErrorsWithTheirPtxLine) {
    const std::string log =
        "ptxas application ptx input, line 577; error   : Instruction 'wgmma.fence' not supported on .target 'sm_90'\n"
        "ptxas application ptx input, line 586; error   : Instruction 'wgmma.mma_async with floating point types' not supported on "
        ".target 'sm_90'\n"
        "ptxas warning : Registers are spilled to local memory in function '_Z1kPf', 8 bytes spill stores, 8 bytes spill loads\n"
        "ptxas info    : Used 40 registers, 368 bytes cmem[0]\n"
        "ptxas fatal   : Ptx assembly aborted due to errors\n";
    const auto diagnostics = parse_nvrtc_log(log);
    ASSERT_EQ(diagnostics.size(), 3u);
    EXPECT_EQ(diagnostics[0].severity, Severity::error);
    EXPECT_EQ(diagnostics[0].ptx_line, 577);
    EXPECT_EQ(diagnostics[0].code, "ptxas");
    EXPECT_EQ(diagnostics[0].message, "ptxas: Instruction 'wgmma.fence' not supported on .target 'sm_90'");
    EXPECT_EQ(diagnostics[1].ptx_line, 586);
    EXPECT_EQ(diagnostics[2].severity, Severity::warning);
    EXPECT_EQ(diagnostics[2].ptx_line, 0);

    // Alone, the fatal line is the error: nothing else says why ptxas stopped.
    const auto alone = parse_nvrtc_log("ptxas fatal   : Unresolved extern function '_Z3foov'\n");
    ASSERT_EQ(alone.size(), 1u);
    EXPECT_EQ(alone[0].severity, Severity::error);
    EXPECT_EQ(alone[0].message, "ptxas: Unresolved extern function '_Z3foov'");
}
