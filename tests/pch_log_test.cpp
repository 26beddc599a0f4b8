// NVRTC's -pch lines (as NVRTC 13.0 writes them) leave the log and never become the file's diagnostics.
#include <gtest/gtest.h>

#include "compile/nvrtc_log.hpp"
#include "compile/pch_log.hpp"

using namespace kplay;

TEST(PchLog, CreatingAndUsingAreReadAndRemoved) {
    std::string log = "\"k.cu\": creating precompiled header file \"/tmp/__nvrtc_auto_pch_18616_0/k_0.pch\"\n"
                      "ptxas info    : Used 6 registers, used 0 barriers\n";
    EXPECT_EQ(take_pch_lines(log), PchUse::created);
    EXPECT_EQ(log, "ptxas info    : Used 6 registers, used 0 barriers\n");
    log = "\"k.cu\": using precompiled header file \"/tmp/__nvrtc_auto_pch_18616_0/k_0.pch\"\n";
    EXPECT_EQ(take_pch_lines(log), PchUse::used);
    EXPECT_EQ(log, "");
}

TEST(PchLog, NotCompatibleIsNoWarningOfTheFiles) {
    std::string log =
        "Warning #630-D: the initial sequence of preprocessing directives is not compatible with those of precompiled header "
        "file \"/tmp/__nvrtc_auto_pch_18616_0/k_0.pch\"\n\n"
        "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n\n"
        "\"k.cu\": creating precompiled header file \"/tmp/__nvrtc_auto_pch_18616_0/k_1.pch\"\n"
        "ptxas info    : 27 bytes gmem\n";
    EXPECT_EQ(take_pch_lines(log), PchUse::created);
    EXPECT_EQ(log, "ptxas info    : 27 bytes gmem\n");
    EXPECT_TRUE(parse_nvrtc_log(log).empty());
}

TEST(PchLog, TheFilesOwnWarningsStayWithTheirHint) {
    const std::string own = "k.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n"
                            "    int x;\n"
                            "        ^\n\n"
                            "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n";
    std::string log = "\"k.cu\": using precompiled header file \"/tmp/p/k_0.pch\"\n" + own;
    EXPECT_EQ(take_pch_lines(log), PchUse::used);
    EXPECT_EQ(log, own);
    const auto diagnostics = parse_nvrtc_log(log);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].code, "177-D");
}

TEST(PchLog, ALogWithoutThemIsLeftAlone) {
    std::string log = "k.cu(2): error: expected a \";\"\n  a[0] = 1.0f\n             ^\n\n1 error detected in the compilation of \"k.cu\".\n";
    const std::string before = log;
    EXPECT_EQ(take_pch_lines(log), PchUse::none);
    EXPECT_EQ(log, before);
}
