// Listing diffs: minimal edit scripts, the work bound, and which text of a listing is compared.
#include <gtest/gtest.h>

#include <random>

#include "inspect/listing_diff.hpp"
#include "inspect/ptx_listing.hpp"
#include "inspect/sass_listing.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

const std::string kG5 = "/work/main/kernels_src/grayscale/05_sixteen_pixels_uint4.cu";
const std::string kM3 = "/work/main/kernels_src/matmul/03_tiled_static_smem.cu";

std::vector<std::string> chars(const std::string& text) {
    std::vector<std::string> lines;
    for (char c : text) lines.emplace_back(1, c);
    return lines;
}

// The diff is a valid script: its same+removed lines are `before` in order, its same+added ones `after`,
// and the counts match the lines.
void expect_consistent(const ListingDiff& diff, const std::vector<std::string>& before,
                       const std::vector<std::string>& after) {
    ASSERT_FALSE(diff.truncated);
    std::vector<std::string> old_side, new_side;
    int added = 0, removed = 0;
    for (const auto& line : diff.lines) {
        if (line.kind != DiffKind::added) {
            ASSERT_EQ(line.before_index, static_cast<int>(old_side.size()));
            ASSERT_EQ(line.text, before[line.before_index]);
            old_side.push_back(line.text);
        } else {
            EXPECT_EQ(line.before_index, -1);
        }
        if (line.kind != DiffKind::removed) {
            ASSERT_EQ(line.after_index, static_cast<int>(new_side.size()));
            ASSERT_EQ(line.text, after[line.after_index]);
            new_side.push_back(line.text);
        } else {
            EXPECT_EQ(line.after_index, -1);
        }
        added += line.kind == DiffKind::added;
        removed += line.kind == DiffKind::removed;
    }
    for (size_t i = 1; i < diff.lines.size(); ++i)
        EXPECT_FALSE(diff.lines[i - 1].kind == DiffKind::added && diff.lines[i].kind == DiffKind::removed)
            << "removed line " << diff.lines[i].before_index << " after an added one";
    EXPECT_EQ(old_side, before);
    EXPECT_EQ(new_side, after);
    EXPECT_EQ(diff.added, added);
    EXPECT_EQ(diff.removed, removed);
}

// Edit distance (insertions + deletions) by the quadratic LCS table, to check minimality against.
int reference_distance(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::vector<int>> lcs(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j)
            lcs[i][j] = a[i - 1] == b[j - 1] ? lcs[i - 1][j - 1] + 1 : std::max(lcs[i - 1][j], lcs[i][j - 1]);
    return static_cast<int>(a.size() + b.size()) - 2 * lcs[a.size()][b.size()];
}

}  // namespace

TEST(InspectDiff, ListingAgainstItselfHasNoChanges) {
    const auto sass = parse_nvdisasm(kplay::test::recorded_output("m3.nvdisasm-gi.txt"), kM3);
    const auto lines = comparable_lines(sass.functions.at(0));
    ASSERT_EQ(lines.size(), 131u);  // 7 directives and labels, 120 instructions, 4 .L_x labels
    const auto diff = diff_lines(lines, lines);
    EXPECT_FALSE(diff.truncated);
    EXPECT_EQ(diff.added, 0);
    EXPECT_EQ(diff.removed, 0);
    ASSERT_EQ(diff.lines.size(), lines.size());
    for (size_t i = 0; i < lines.size(); ++i) {
        EXPECT_EQ(diff.lines[i].kind, DiffKind::same);
        EXPECT_EQ(diff.lines[i].before_index, static_cast<int>(i));
        EXPECT_EQ(diff.lines[i].after_index, static_cast<int>(i));
    }
    // -g and -gi differ only in their markers, which are not listing lines.
    const auto g = comparable_lines(parse_nvdisasm(kplay::test::recorded_output("m3.nvdisasm-g.txt"), kM3).functions.at(0));
    const auto g_diff = diff_lines(g, lines);
    EXPECT_EQ(g_diff.added + g_diff.removed, 0);
}

TEST(InspectDiff, ModifiedCopyGivesExactChanges) {
    const auto before = comparable_lines(parse_ptx(kplay::test::recorded_output("g5.ptx"), kG5));
    ASSERT_GT(before.size(), 200u);
    auto after = before;
    after[150] = "mul.f32 \t%f3, %f2, 0f3F000000;";             // a changed line: 1 removed, 1 added
    after.insert(after.begin() + 60, {"add.s32 \t%r999, %r1, 1;", "add.s32 \t%r998, %r1, 2;"});
    after.erase(after.begin() + 10, after.begin() + 13);           // 3 removed
    after.push_back("// trailing");
    const auto diff = diff_lines(before, after);
    expect_consistent(diff, before, after);
    EXPECT_EQ(diff.added, 4);
    EXPECT_EQ(diff.removed, 4);
    std::vector<int> removed_at, added_at;
    for (const auto& line : diff.lines) {
        if (line.kind == DiffKind::removed) removed_at.push_back(line.before_index);
        if (line.kind == DiffKind::added) added_at.push_back(line.after_index);
    }
    EXPECT_EQ(removed_at, (std::vector<int>{10, 11, 12, 150}));
    EXPECT_EQ(added_at, (std::vector<int>{57, 58, 149, static_cast<int>(after.size()) - 1}));
}

TEST(InspectDiff, MinimalOnThePapersExampleAndRandomInputs) {
    // Myers' example: ABCABBA -> CBABAC takes 5 edits (an LCS of 4).
    const auto a = chars("ABCABBA"), b = chars("CBABAC");
    const auto diff = diff_lines(a, b);
    expect_consistent(diff, a, b);
    EXPECT_EQ(diff.added + diff.removed, 5);
    EXPECT_EQ(diff.removed, 3);

    std::mt19937 random(12345);
    for (int trial = 0; trial < 300; ++trial) {
        std::string x, y;
        const int alphabet = 2 + trial % 5;
        for (int i = static_cast<int>(random() % 40); i > 0; --i) x += static_cast<char>('a' + random() % alphabet);
        for (int i = static_cast<int>(random() % 40); i > 0; --i) y += static_cast<char>('a' + random() % alphabet);
        const auto before = chars(x), after = chars(y);
        const auto d = diff_lines(before, after);
        expect_consistent(d, before, after);
        EXPECT_EQ(d.added + d.removed, reference_distance(before, after)) << x << " -> " << y;
    }
}

TEST(InspectDiff, RemovedLinesComeBeforeAddedOnesInAChange) {
    const std::vector<std::string> before{"a", "b", "c", "d"}, after{"a", "x", "y", "d"};
    const auto diff = diff_lines(before, after);
    expect_consistent(diff, before, after);
    ASSERT_EQ(diff.lines.size(), 6u);
    const std::vector<DiffKind> kinds{DiffKind::same, DiffKind::removed, DiffKind::removed,
                                      DiffKind::added, DiffKind::added, DiffKind::same};
    for (size_t i = 0; i < kinds.size(); ++i) EXPECT_EQ(diff.lines[i].kind, kinds[i]) << i;
}

TEST(InspectDiff, TruncatedWhenTooDifferent) {
    // Huge and unrelated: refused from the line counts alone, at once.
    std::vector<std::string> before, after;
    for (int i = 0; i < 50000; ++i) {
        before.push_back("old " + std::to_string(i));
        after.push_back("new " + std::to_string(i));
    }
    auto diff = diff_lines(before, after);
    EXPECT_TRUE(diff.truncated);
    EXPECT_TRUE(diff.lines.empty());
    EXPECT_EQ(diff.added, 0);
    EXPECT_EQ(diff.removed, 0);

    // The same lines reversed: the bound is hit inside the search.
    std::vector<std::string> forward, reversed;
    for (int i = 0; i < 1000; ++i) forward.push_back(std::to_string(i));
    reversed.assign(forward.rbegin(), forward.rend());
    diff = diff_lines(forward, reversed, 100);
    EXPECT_TRUE(diff.truncated);
    EXPECT_TRUE(diff.lines.empty());
    diff = diff_lines(forward, reversed);
    expect_consistent(diff, forward, reversed);
    EXPECT_EQ(diff.added, 999);
    EXPECT_EQ(diff.removed, 999);

    // Exactly at the bound is allowed; one more edit is not.
    const std::vector<std::string> x{"a", "b", "c"}, y{"a", "c", "d"};
    EXPECT_FALSE(diff_lines(x, y, 2).truncated);
    EXPECT_TRUE(diff_lines(x, y, 1).truncated);
    EXPECT_TRUE(diff_lines(x, y, 0).truncated);
    EXPECT_FALSE(diff_lines(x, x, 0).truncated);
    const std::vector<std::string> ab{"a", "b"}, ba{"b", "a"};  // same lines and length: only the search knows
    EXPECT_EQ(diff_lines(ab, ba, 2).added, 1);
    EXPECT_TRUE(diff_lines(ab, ba, 1).truncated);
}

TEST(InspectDiff, EmptyInputs) {
    const std::vector<std::string> none, three{"a", "b", "c"};
    auto diff = diff_lines(none, none);
    EXPECT_FALSE(diff.truncated);
    EXPECT_TRUE(diff.lines.empty());
    diff = diff_lines(none, three);
    expect_consistent(diff, none, three);
    EXPECT_EQ(diff.added, 3);
    diff = diff_lines(three, none);
    expect_consistent(diff, three, none);
    EXPECT_EQ(diff.removed, 3);
    EXPECT_TRUE(diff_lines(three, none, -5).truncated);
    EXPECT_TRUE(comparable_lines(Listing{}).empty());
}

TEST(InspectDiff, ComparableLinesDropOffsetsEncodingsAndBlanks) {
    Listing sass;
    sass.function = "_Z1kv";
    for (const std::string text : {"/*0070*/               @P0 EXIT ;", "",
                                   "/*0000*/                   MOV R1, c[0x0][0x28] ;               /* 0x00000a0000017a02 */",
                                   "/* 0x000fc40000000f00 */", ".L_x_0:", "/*0010*/ BRA `(.L_x_0) ; /* not an encoding */"})
        sass.lines.push_back({text, 0, "", false});
    EXPECT_EQ(comparable_lines(sass), (std::vector<std::string>{"@P0 EXIT ;", "MOV R1, c[0x0][0x28] ;", ".L_x_0:",
                                                                 "BRA `(.L_x_0) ; /* not an encoding */"}));

    Listing ptx;  // PTX as is: registers not renamed, offsets-looking text untouched
    for (const std::string text : {"add.s32 \t%r1, %r2, 1;", "", "   ", "/*0010*/ not sass here"})
        ptx.lines.push_back({text, 0, "", false});
    EXPECT_EQ(comparable_lines(ptx), (std::vector<std::string>{"add.s32 \t%r1, %r2, 1;", "/*0010*/ not sass here"}));

    const auto f1 = comparable_lines(parse_nvdisasm(kplay::test::recorded_output("f1.nvdisasm-gi.txt"),
                                                    "/work/main/kernels_src/faults/01_out_of_bounds_write.cu")
                                         .functions.at(0));
    ASSERT_EQ(f1.size(), 41u);
    EXPECT_EQ(f1[7], "LDC R1, c[0x0][0x28] ;");
    EXPECT_EQ(f1[14], "@P0 EXIT ;");
}
