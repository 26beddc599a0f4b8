// ncu's source page (written from its documented columns, tests/data/inspect/README.md) read into
// per-instruction counters and summed per line through a SASS listing.
#include <gtest/gtest.h>

#include "inspect/ncu_line_access.hpp"
#include "inspect/ncu_source_page.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

// nvdisasm's lines for the same instructions, as sass_listing keeps them.
Listing listing_of(std::vector<std::pair<std::string, int>> instructions) {
    Listing listing;
    listing.function = "_Z15transpose_naivePKfPfii";
    for (auto& [text, line] : instructions) listing.lines.push_back({text, line, "", true});
    return listing;
}

TEST(NcuSourcePage, TheNaiveTransposesInstructionsAreRead) {
    std::string error;
    const auto page = parse_ncu_source_csv(test::recorded_output("ncu-source-transpose-naive.csv"), &error);
    ASSERT_TRUE(page) << error;
    EXPECT_EQ(page->kernel, "transpose_naive(const float *, float *, int, int)");
    ASSERT_EQ(page->instructions.size(), 6u);
    EXPECT_TRUE(page->missing.empty());
    const SassCounters& load = page->instructions[3];
    EXPECT_EQ(load.offset, 0x100u);
    EXPECT_EQ(load.sass, "LDG.E.CONSTANT R5, desc[UR4][R2.64]");
    EXPECT_EQ(load.executed, 32768);
    EXPECT_EQ(load.stall_samples, 1520);
    EXPECT_TRUE(load.global);
    EXPECT_FALSE(load.store);
    EXPECT_EQ(load.l2_sectors, 131072);
    EXPECT_EQ(load.l2_ideal_sectors, 131072);
    const SassCounters& store = page->instructions[4];
    EXPECT_TRUE(store.global && store.store);
    EXPECT_EQ(store.l2_sectors, 1048576);
    EXPECT_EQ(store.l2_ideal_sectors, 131072);
    EXPECT_EQ(sass_opcode("@!P0 LDG.E.128 R4, [R2] ;"), "LDG.E.128");
    EXPECT_EQ(sass_opcode("  EXIT ;"), "EXIT");
}

TEST(NcuSourcePage, IdealsComeFromTheExcessiveColumnsAndKindsFromTheOpcode) {
    std::string error;
    const auto page = parse_ncu_source_csv(test::recorded_output("ncu-source-tile-excessive.csv"), &error);
    ASSERT_TRUE(page) << error;
    ASSERT_EQ(page->instructions.size(), 6u);
    const SassCounters& column_read = page->instructions[4];
    EXPECT_TRUE(column_read.shared && !column_read.store && !column_read.global);
    EXPECT_EQ(column_read.shared_wavefronts, 1048576);
    EXPECT_EQ(column_read.shared_ideal_wavefronts, 32768);
    EXPECT_TRUE(page->instructions[2].shared && page->instructions[2].store);
    EXPECT_TRUE(page->instructions[5].global && page->instructions[5].store);
    EXPECT_EQ(page->instructions[1].l2_ideal_sectors, 131072);
}

TEST(NcuSourcePage, TablesKplayCannotReadAreRefusedByName) {
    std::string error;
    EXPECT_FALSE(parse_ncu_source_csv("==PROF== nothing\n", &error));
    EXPECT_EQ(error, "ncu printed no CSV table");
    EXPECT_FALSE(parse_ncu_source_csv("\"ID\",\"Metric Name\"\n\"0\",\"x\"\n", &error));
    EXPECT_NE(error.find("no \"Address\",\"Source\" header"), std::string::npos) << error;
    EXPECT_FALSE(parse_ncu_source_csv("\"Address\",\"Source\",\"Instructions Executed\"\n\"0x0\",\"EXIT\",\"1\"\n", &error));
    EXPECT_NE(error.find("kplay does not know its memory columns"), std::string::npos) << error;
    EXPECT_FALSE(parse_ncu_source_csv("\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\"\n\"0x0\",\"LDS R1, [R2]\",\"many\",\"1\"\n", &error));
    EXPECT_EQ(error, "ncu's source page: 'many' in column \"Instructions Executed\" at 0x0 is not a count");
    // A number past what a count holds (found by fuzzing: its conversion was undefined) or NaN is no count either.
    EXPECT_FALSE(parse_ncu_source_csv("\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\"\n\"0x0\",\"LDS R1, [R2]\",\"3e37\",\"1\"\n", &error));
    EXPECT_EQ(error, "ncu's source page: '3e37' in column \"Instructions Executed\" at 0x0 is not a count");
    EXPECT_FALSE(parse_ncu_source_csv("\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\"\n\"0x0\",\"LDS R1, [R2]\",\"nan\",\"1\"\n", &error));
    const auto partial = parse_ncu_source_csv("\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\"\n\"0x0\",\"LDS R1, [R2]\",\"4\",\"8\"\n", &error);
    ASSERT_TRUE(partial) << error;
    // Only the counters its instructions need: a kernel with no global access needs no global sectors.
    EXPECT_EQ(partial->missing, (std::vector<std::string>{"warp stall samples", "ideal shared wavefronts"}));
    const auto both = parse_ncu_source_csv("\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\"\n"
                                           "\"0x0\",\"LDS R1, [R2]\",\"4\",\"8\"\n\"0x10\",\"LDG.E R1, [R2]\",\"4\",\"0\"\n", &error);
    ASSERT_TRUE(both) << error;
    EXPECT_EQ(both->missing, (std::vector<std::string>{"warp stall samples", "global sectors", "ideal global sectors", "ideal shared wavefronts"}));
}

// The page as ncu really prints it (recorded on the H200): a kernel without shared memory has no shared
// columns, and nothing it needs is missing; the store's sectors are 8x their ideal.
TEST(NcuSourcePage, TheRecordedPageOfAKernelWithoutSharedMemoryLacksNothingItNeeds) {
    std::string error;
    const auto page = parse_ncu_source_csv(test::recorded_output("ncu-source-transpose-naive-h200.csv"), &error);
    ASSERT_TRUE(page) << error;
    EXPECT_EQ(page->kernel, "transpose_naive(const float *, float *, int, int)");
    EXPECT_TRUE(page->missing.empty());
    int stores = 0;
    for (const SassCounters& i : page->instructions) {
        EXPECT_FALSE(i.shared) << i.sass;
        if (i.global && i.store) {
            ++stores;
            EXPECT_EQ(i.l2_sectors, 8 * i.l2_ideal_sectors) << i.sass;
        }
    }
    EXPECT_EQ(stores, 1);
}

TEST(NcuLineAccess, CountersAreSummedOnTheLinesOfTheListing) {
    const auto page = parse_ncu_source_csv(test::recorded_output("ncu-source-transpose-naive.csv"));
    ASSERT_TRUE(page);
    const Listing sass = listing_of({{"/*0000*/ LDC R1, c[0x0][0x28] ;", 18},
                                     {"/*0010*/ S2R R0, SR_CTAID.X ;", 19},
                                     {"/*00a0*/ @P0 EXIT ;", 21},
                                     {"/*0100*/ LDG.E.CONSTANT R5, desc[UR4][R2.64] ;", 21},
                                     {"/*0180*/ STG.E desc[UR4][R6.64], R5 ;", 21},
                                     {"/*0190*/ EXIT ;", 22}});
    std::string problem;
    const auto mapped = map_ncu_to_lines(*page, sass, "/k/transpose/01_naive.cu", &problem);
    ASSERT_TRUE(mapped) << problem;
    ASSERT_EQ(mapped->instructions.size(), 6u);
    EXPECT_EQ(mapped->instructions[4].line, 21);
    const LineAccess* line = find_line(mapped->profile, "/k/transpose/01_naive.cu", 21);
    ASSERT_NE(line, nullptr);
    EXPECT_EQ(line->global_loads, (GlobalAccess{32768, 131072, 131072}));
    EXPECT_EQ(line->global_stores, (GlobalAccess{32768, 1048576, 131072}));
    EXPECT_EQ(line->stall_samples, 5 + 1520 + 2210);
    EXPECT_EQ(describe_line_access(*line), "loads 4 sectors/request, at the ideal; stores 32 sectors/request, 8x the ideal: uncoalesced");
    EXPECT_EQ(mapped->profile.lines.size(), 4u);  // lines 18, 19, 21, 22
}

TEST(NcuLineAccess, AnotherBuildsInstructionsAreRefused) {
    const auto page = parse_ncu_source_csv(test::recorded_output("ncu-source-transpose-naive.csv"));
    ASSERT_TRUE(page);
    const Listing other = listing_of({{"/*0000*/ LDC R1, c[0x0][0x28] ;", 18}, {"/*0100*/ LDS R5, [R2] ;", 21}});
    std::string problem;
    EXPECT_FALSE(map_ncu_to_lines(*page, other, "/k/t.cu", &problem));
    EXPECT_EQ(problem, "5 of ncu's 6 instructions are not those of kplay's SASS listing (first at 0x0010: ncu has 'S2R', the listing nothing): ncu "
                       "profiled another build");
    EXPECT_FALSE(map_ncu_to_lines(*page, Listing{}, "/k/t.cu", &problem));
    EXPECT_NE(problem.find("no instruction offsets"), std::string::npos) << problem;
}

}  // namespace
}  // namespace kplay
