// A sweep's space: --param/kplay-sweep text, ranges, kinds settled against the spec, points in mixed
// radix, restrictions and labels, with every error message exactly.
#include "sweep/sweep_space.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "test_support.hpp"
#include "kernel_file/kernel_spec.hpp"

using namespace kplay;

namespace {

using Values = std::vector<std::string>;

// The message of the InputError `run` throws, or a marker when it throws none.

std::string param_error(const std::string& text) {
    return kplay::test::input_error_of([&] { parse_sweep_param(text); });
}

Values values_of(const std::string& text) { return parse_sweep_param(text).values; }

SweepSpace space_of(const std::vector<std::string>& params, const std::vector<std::string>& restrictions = {}) {
    SweepSpace space;
    for (const auto& param : params) space.params.push_back(parse_sweep_param(param));
    space.restrictions = restrictions;
    return space;
}

const char* const kMatmul =
    "// kplay: task=matmul kernel=matmul_k args=a,b,c,M,N,K,tw=16 launch=2d block=tw,tw smem=2*tw*tw*4\n"
    "__global__ void matmul_k(float* a, float* b, float* c, int M, int N, int K, int tw) {}\n";

const char* const kMatmulWithDefines =
    "// kplay: task=matmul kernel=matmul_k args=a,b,c,M,N,K,tw=16 launch=2d block=tw,tw defines=TILE=8,FAST\n"
    "__global__ void matmul_k(float* a, float* b, float* c, int M, int N, int K, int tw) {}\n";

std::string resolve_error(const char* source, const std::vector<std::string>& params) {
    const KernelSpec spec = resolve_kernel_spec(source, "x.cu");
    SweepSpace space = space_of(params);
    return kplay::test::input_error_of([&] { resolve_sweep_params(space, spec); });
}

}  // namespace

TEST(SweepParam, ListsKeepOrderAndDropRepeats) {
    const SweepParam tw = parse_sweep_param("  tw=8,16,32 ");
    EXPECT_EQ(tw.name, "tw");
    EXPECT_EQ(tw.kind, SweepParamKind::literal);
    EXPECT_FALSE(tw.written_as_define);
    EXPECT_EQ(tw.values, (Values{"8", "16", "32"}));
    EXPECT_EQ(tw.text, "tw=8,16,32");
    EXPECT_EQ(values_of("tw=32,8,16,8,32,16"), (Values{"32", "8", "16"}));
    EXPECT_EQ(values_of("tw = 8 , 16,,-4"), (Values{"8", "16", "-4"}));
    EXPECT_EQ(values_of("n=7"), (Values{"7"}));
}

TEST(SweepParam, RangesAddOrMultiplyAndIncludeTheEndWhenReached) {
    EXPECT_EQ(values_of("block_x=64..1024 step *2"), (Values{"64", "128", "256", "512", "1024"}));
    EXPECT_EQ(values_of("tw=1..10 step 3"), (Values{"1", "4", "7", "10"}));
    EXPECT_EQ(values_of("tw=8..20 step +8"), (Values{"8", "16"}));
    EXPECT_EQ(values_of("tw=1..3"), (Values{"1", "2", "3"}));
    EXPECT_EQ(values_of("tw=5..5"), (Values{"5"}));
    EXPECT_EQ(values_of("tw=-4..4 step 4"), (Values{"-4", "0", "4"}));
    EXPECT_EQ(values_of("tw=3..100 step *3"), (Values{"3", "9", "27", "81"}));
    EXPECT_EQ(values_of("tw = 32 .. 128   step   * 2"), (Values{"32", "64", "128"}));
    EXPECT_EQ(values_of("tw=32..128 step*2"), (Values{"32", "64", "128"}));
    // The ends of int64 without overflow.
    const Values doublings = values_of("tw=1..9223372036854775807 step *2");
    ASSERT_EQ(doublings.size(), 63u);
    EXPECT_EQ(doublings.back(), "4611686018427387904");
    EXPECT_EQ(values_of("tw=9223372036854775800..9223372036854775807 step 3"),
              (Values{"9223372036854775800", "9223372036854775803", "9223372036854775806"}));
    EXPECT_EQ(values_of("tw=-9223372036854775808..-9223372036854775807"),
              (Values{"-9223372036854775808", "-9223372036854775807"}));
    EXPECT_EQ(values_of("tw=1..4096").size(), kMaxSweepValues);
}

TEST(SweepParam, PreliminaryKinds) {
    const SweepParam block = parse_sweep_param("block_y=1,2,4");
    EXPECT_EQ(block.kind, SweepParamKind::block);
    const SweepParam tile = parse_sweep_param("-DTILE=8,16");
    EXPECT_EQ(tile.name, "TILE");
    EXPECT_EQ(tile.kind, SweepParamKind::define);
    EXPECT_TRUE(tile.written_as_define);
    EXPECT_EQ(tile.text, "-DTILE=8,16");
    EXPECT_EQ(values_of("-DT=float,double,float"), (Values{"float", "double"}));
    // A block axis is surely an integer: its values are read as numbers at once.
    EXPECT_EQ(values_of("block_x=032,32,64"), (Values{"32", "64"}));
    EXPECT_EQ(parse_sweep_param("-Dblock_x=8").kind, SweepParamKind::define);
    EXPECT_STREQ(sweep_param_kind_name(SweepParamKind::block), "block");
    EXPECT_STREQ(sweep_param_kind_name(SweepParamKind::literal), "literal");
    EXPECT_STREQ(sweep_param_kind_name(SweepParamKind::define), "define");
    EXPECT_STREQ(sweep_param_kind_name(SweepParamKind::size), "size");
}

TEST(SweepParam, ExactMessages) {
    EXPECT_EQ(param_error("tw"),
              "sweep parameter 'tw': expected NAME=VALUES, e.g. tw=8,16,32 or block_x=32..1024 step *2");
    EXPECT_EQ(param_error("=8"), "sweep parameter '=8': the name is empty; write NAME=VALUES, e.g. tw=8,16,32");
    EXPECT_EQ(param_error("-D=8"), "sweep parameter '-D=8': the name is empty; write NAME=VALUES, e.g. tw=8,16,32");
    EXPECT_EQ(param_error("t w=8"),
              "sweep parameter 't w=8': 't w' is not a name (letters, digits and _, not starting with a digit)");
    EXPECT_EQ(param_error("2x=8"),
              "sweep parameter '2x=8': '2x' is not a name (letters, digits and _, not starting with a digit)");
    EXPECT_EQ(param_error("tw="),
              "sweep parameter 'tw=': no values; give a list (8,16,32) or a range (32..1024 step *2)");
    EXPECT_EQ(param_error("tw= , ,"),
              "sweep parameter 'tw= , ,': no values; give a list (8,16,32) or a range (32..1024 step *2)");
    EXPECT_EQ(param_error("-DT=unsigned int"),
              "sweep parameter '-DT=unsigned int': 'unsigned int' holds a space; separate values with ','");
    EXPECT_EQ(param_error("block_x=32,x"),
              "sweep parameter 'block_x=32,x': 'x' is not an integer (a block axis takes integers, e.g. 32,64,128)");
    EXPECT_EQ(param_error("block_x=+32"),
              "sweep parameter 'block_x=+32': '+32' is not an integer (a block axis takes integers, e.g. 32,64,128)");
    EXPECT_EQ(param_error("block_x=99999999999999999999"),
              "sweep parameter 'block_x=99999999999999999999': '99999999999999999999' does not fit in 64 bits");
    EXPECT_EQ(param_error("tw=8,16..32"),
              "sweep parameter 'tw=8,16..32': give either a list (8,16,32) or one range (8..32), not both");
    EXPECT_EQ(param_error("tw=8.."), "sweep parameter 'tw=8..': a range needs both ends, e.g. 32..1024");
    EXPECT_EQ(param_error("tw=..8"), "sweep parameter 'tw=..8': a range needs both ends, e.g. 32..1024");
    EXPECT_EQ(param_error("tw=a..8"), "sweep parameter 'tw=a..8': 'a' is not an integer");
    EXPECT_EQ(param_error("tw=1..2..3"), "sweep parameter 'tw=1..2..3': '2..3' is not an integer");
    EXPECT_EQ(param_error("tw=1..99999999999999999999"),
              "sweep parameter 'tw=1..99999999999999999999': '99999999999999999999' does not fit in 64 bits");
    EXPECT_EQ(param_error("tw=8..64 by 2"),
              "sweep parameter 'tw=8..64 by 2': expected 'step S' after the range, not 'by 2'");
    EXPECT_EQ(param_error("tw=8..64 step"),
              "sweep parameter 'tw=8..64 step': 'step' needs a value: N or +N to add, *N to multiply");
    EXPECT_EQ(param_error("tw=8..64 step *"), "sweep parameter 'tw=8..64 step *': '' is not an integer");
    EXPECT_EQ(param_error("tw=8..64 step x"), "sweep parameter 'tw=8..64 step x': 'x' is not an integer");
    EXPECT_EQ(param_error("tw=64..8"),
              "sweep parameter 'tw=64..8': the range runs backwards (64 > 8); write it as 8..64");
    EXPECT_EQ(param_error("tw=8..64 step -2"),
              "sweep parameter 'tw=8..64 step -2': the range runs backwards (step -2); use a positive step and write "
              "it low..high");
    EXPECT_EQ(param_error("tw=-4..64 step *2"),
              "sweep parameter 'tw=-4..64 step *2': the range runs backwards (-4 multiplied moves away from 64); start "
              "a multiplying "
              "range at 1 or more");
    EXPECT_EQ(param_error("tw=8..64 step 0"),
              "sweep parameter 'tw=8..64 step 0': the range never moves (step 0); use a step of 1 or more");
    EXPECT_EQ(param_error("tw=8..64 step +0"),
              "sweep parameter 'tw=8..64 step +0': the range never moves (step 0); use a step of 1 or more");
    EXPECT_EQ(param_error("tw=8..64 step *1"),
              "sweep parameter 'tw=8..64 step *1': the range never moves (step *1); multiply by 2 or more");
    EXPECT_EQ(param_error("tw=8..64 step *0"),
              "sweep parameter 'tw=8..64 step *0': the range never moves (step *0); multiply by 2 or more");
    EXPECT_EQ(param_error("tw=0..64 step *2"),
              "sweep parameter 'tw=0..64 step *2': the range never moves (0 multiplied stays 0); start at 1 or more, "
              "or add a step (step +N)");
    EXPECT_EQ(param_error("tw=1..4097"),
              "sweep parameter 'tw=1..4097': 4097 values, more than 4096; use a larger step or fewer values");
    EXPECT_EQ(param_error("tw=0..9223372036854775807"),
              "sweep parameter 'tw=0..9223372036854775807': 9223372036854775808 values, more than 4096; use a larger "
              "step or fewer values");
    EXPECT_EQ(param_error("tw=-9223372036854775808..9223372036854775807"),
              "sweep parameter 'tw=-9223372036854775808..9223372036854775807': 18446744073709551616 values, more than "
              "4096; use a larger "
              "step or fewer values");
    // A long parameter is cut in messages; repeats do not count towards the bound.
    std::string list = "tw=0";
    for (int i = 1; i <= 4096; ++i) list += "," + std::to_string(i);
    EXPECT_EQ(param_error(list),
              "sweep parameter 'tw=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,2...': 4097 values, more than "
              "4096; use a "
              "larger step or fewer values");
    EXPECT_EQ(values_of(list.substr(0, list.rfind(',')) + ",7,8,0").size(), 4096u);
    EXPECT_EQ(param_error("block_x=" + std::string(100, '9')), "sweep parameter 'block_x=" + std::string(49, '9') +
                                                                   "...': '" + std::string(57, '9') +
                                                                   "...' does not fit in 64 bits");
}

TEST(SweepSpace, SizeIsTheProductAndSaturates) {
    EXPECT_EQ(SweepSpace{}.size(), 1u);
    EXPECT_EQ(space_of({"tw=8,16,32", "block_x=32..256 step *2", "-DT=float,double"}).size(), 24u);
    SweepSpace huge = space_of({"a=1..4096", "b=1..4096", "c=1..4096", "d=1..4096", "e=1..4096", "f=1..4096"});
    EXPECT_EQ(huge.size(), UINT64_MAX);  // 2^72 points
    huge.params.resize(5);
    EXPECT_EQ(huge.size(), uint64_t{1} << 60);
}

TEST(SweepSpace, PointsInMixedRadixLastFastest) {
    const SweepSpace space = space_of({"tw=8,16", "block_x=32,64,128", "-DT=float,double"});
    ASSERT_EQ(space.size(), 12u);
    EXPECT_EQ(point_at(space, 0).values, (Values{"8", "32", "float"}));
    EXPECT_EQ(point_at(space, 1).values, (Values{"8", "32", "double"}));
    EXPECT_EQ(point_at(space, 2).values, (Values{"8", "64", "float"}));
    EXPECT_EQ(point_at(space, 5).values, (Values{"8", "128", "double"}));
    EXPECT_EQ(point_at(space, 6).values, (Values{"16", "32", "float"}));
    EXPECT_EQ(point_at(space, 11).values, (Values{"16", "128", "double"}));
    std::vector<SweepPoint> all;
    for (uint64_t i = 0; i < space.size(); ++i) all.push_back(point_at(space, i));
    for (size_t i = 0; i < all.size(); ++i)
        for (size_t j = i + 1; j < all.size(); ++j) EXPECT_FALSE(all[i] == all[j]) << i << " " << j;
    EXPECT_EQ(point_at(SweepSpace{}, 0).values, Values{});
    EXPECT_EQ(kplay::test::input_error_of([&] { point_at(space, 12); }), "sweep point 12 is past the space's 12 points");
}

TEST(SweepSpace, NamesAndLabels) {
    SweepSpace space = space_of({"tw=16", "block_x=32", "-DTILE=8", "-DT=float"});
    const SweepPoint point = point_at(space, 0);
    EXPECT_EQ(point_names(space, point), (NamedValues{{"tw", 16}, {"block_x", 32}, {"TILE", 8}}));
    EXPECT_EQ(point_label(space, point), "tw=16 block_x=32 -DTILE=8 -DT=float");
    EXPECT_EQ(point_label(SweepSpace{}, SweepPoint{}), "");
    EXPECT_EQ(kplay::test::input_error_of([&] { point_label(space, SweepPoint{{"1"}}); }),
              "a sweep point has 1 values for 4 parameters; take points from point_at of the same space");
    EXPECT_EQ(kplay::test::input_error_of([&] { point_names(space, SweepPoint{}); }),
              "a sweep point has 0 values for 4 parameters; take points from point_at of the same space");
}

TEST(SweepSpace, RestrictionsNameTheFirstThatFails) {
    const SweepSpace space =
        space_of({"block_x=32,64", "block_y=16,32"}, {"block_x*block_y <= threads_max", "block_x >= block_y * 2"});
    const NamedValues limits{{"threads_max", 1024}};
    EXPECT_EQ(restriction_broken(space, point_at(space, 0), limits), std::nullopt);  // 32x16
    EXPECT_EQ(restriction_broken(space, point_at(space, 1), limits),
              "restriction block_x >= block_y * 2 does not hold (block_x=32, block_y=32)");
    EXPECT_EQ(restriction_broken(space, point_at(space, 3), {{"threads_max", 1024}}),
              "restriction block_x*block_y <= threads_max does not hold (block_x=64, block_y=32)");
    // The point's values win over the caller's.
    EXPECT_EQ(restriction_broken(space, point_at(space, 2), {{"threads_max", 1024}, {"block_x", 1}}), std::nullopt);
    // A define shows as -D in the listing; one that is not a number is not a name.
    const SweepSpace defines = space_of({"-DTILE=8,16", "-DT=float"}, {"TILE < 16"});
    EXPECT_EQ(restriction_broken(defines, point_at(defines, 1), {}),
              "restriction TILE < 16 does not hold (-DTILE=16, -DT=float)");
    const SweepSpace unknown = space_of({"tw=8"}, {"q < 3"});
    EXPECT_EQ(kplay::test::input_error_of([&] {
                  restriction_broken(unknown, point_at(unknown, 0), {{"n", 4}});
              }),
              "restriction 'q < 3': unknown name 'q' (known: n, tw) at position 1 in 'q < 3'");
    const SweepSpace words = space_of({"-DT=float"}, {"T == 1"});
    EXPECT_EQ(kplay::test::input_error_of([&] { restriction_broken(words, point_at(words, 0), {}); }),
              "restriction 'T == 1': unknown name 'T' (known: none) at position 1 in 'T == 1'");
    const SweepSpace division = space_of({"tw=0"}, {"8 / tw"});
    EXPECT_EQ(kplay::test::input_error_of([&] { restriction_broken(division, point_at(division, 0), {}); }),
              "restriction '8 / tw': division by zero at position 7 in '8 / tw'");
    EXPECT_EQ(restriction_broken(SweepSpace{}, SweepPoint{}, {}), std::nullopt);
}

TEST(SweepLines, NoneIsNullopt) {
    EXPECT_EQ(find_sweep_lines("// kplay: task=matmul\n// kplay-launch: k\n__global__ void k() {}\n", "x.cu"),
              std::nullopt);
    EXPECT_EQ(find_sweep_lines("", "x.cu"), std::nullopt);
}

TEST(SweepLines, SeveralLinesAddUp) {
    const std::string source =
        "// kplay: task=matmul kernel=k args=a,b,c,M,N,K,tw=16\n"
        "#include <x.h>\n"
        "// kplay-sweep: tw=8,16,32; block_x=32..1024 step *2; restrict block_x*block_y <= threads_max\n"
        "int x;\n"
        "  //kplay-sweep : -DTILE=4,8 ;; restrict  tw*tw*8 <= smem_max ;\n"
        "// kplay-sweeps: ignored=1\n"
        "// kplay-sweep: restrictor=1,2\n";
    const std::optional<SweepSpace> space = find_sweep_lines(source, "x.cu");
    ASSERT_TRUE(space);
    EXPECT_EQ(space->line, 3);
    ASSERT_EQ(space->params.size(), 4u);
    EXPECT_EQ(space->params[0].text, "tw=8,16,32");
    EXPECT_EQ(space->params[1].values, (Values{"32", "64", "128", "256", "512", "1024"}));
    EXPECT_EQ(space->params[1].kind, SweepParamKind::block);
    EXPECT_EQ(space->params[2].name, "TILE");
    EXPECT_TRUE(space->params[2].written_as_define);
    EXPECT_EQ(space->params[3].name, "restrictor");  // a name that starts like the keyword
    EXPECT_EQ(space->restrictions, (Values{"block_x*block_y <= threads_max", "tw*tw*8 <= smem_max"}));
    EXPECT_EQ(space->size(), 3u * 6 * 2 * 2);
}

TEST(SweepLines, CrlfAndByteOrderMark) {
    const std::optional<SweepSpace> space =
        find_sweep_lines("\xEF\xBB\xBF// kplay-sweep: tw=8,16\r\n// kplay-sweep: restrict tw > 8\r\n", "x.cu");
    ASSERT_TRUE(space);
    EXPECT_EQ(space->line, 1);
    ASSERT_EQ(space->params.size(), 1u);
    EXPECT_EQ(space->params[0].values, (Values{"8", "16"}));
    EXPECT_EQ(space->restrictions, Values{"tw > 8"});
}

TEST(SweepLines, OnlyRestrictions) {
    const std::optional<SweepSpace> space = find_sweep_lines("\n\n// kplay-sweep: restrict 1\n", "x.cu");
    ASSERT_TRUE(space);
    EXPECT_EQ(space->line, 3);
    EXPECT_TRUE(space->params.empty());
    EXPECT_EQ(space->restrictions, Values{"1"});
}

TEST(SweepLines, ExactMessages) {
    auto error = [](const std::string& source) { return kplay::test::input_error_of([&] { find_sweep_lines(source, "k.cu"); }); };
    EXPECT_EQ(error("\n// kplay-sweep: tw=8..64 by 2\n"),
              "k.cu:2: kplay-sweep: sweep parameter 'tw=8..64 by 2': expected 'step S' after the range, not 'by 2'");
    EXPECT_EQ(
        error("// kplay-sweep: tw\n"),
        "k.cu:1: kplay-sweep: sweep parameter 'tw': expected NAME=VALUES, e.g. tw=8,16,32 or block_x=32..1024 step *2");
    EXPECT_EQ(error("// kplay-sweep: tw=8; restrict\n"),
              "k.cu:1: kplay-sweep: 'restrict' needs an expression, e.g. restrict tw*tw <= 1024");
    EXPECT_EQ(error("// kplay-sweep: restrict   ; tw=8\n"),
              "k.cu:1: kplay-sweep: 'restrict' needs an expression, e.g. restrict tw*tw <= 1024");
    EXPECT_EQ(error("// kplay-sweep:  ; ;\n"),
              "k.cu:1: kplay-sweep: nothing to sweep; write NAME=VALUES or restrict EXPR, separated by ';'");
    EXPECT_EQ(
        error("// kplay-sweep: tw=8; tw=16\n"),
        "k.cu:1: kplay-sweep: tw is given twice (first at line 1); give each parameter once, with all its values");
    EXPECT_EQ(
        error("// kplay-sweep: -DTILE=8\nint x;\n// kplay-sweep: TILE=16\n"),
        "k.cu:3: kplay-sweep: TILE is given twice (first at line 1); give each parameter once, with all its values");
}

TEST(SweepResolve, KindsFromTheSpec) {
    const KernelSpec spec = resolve_kernel_spec(kMatmulWithDefines, "x.cu");
    SweepSpace space =
        space_of({"tw=8,16", "M=512,1024", "block_x=32,64", "-DBIG=1", "TILE=4,8,04", "FAST=1", "block_z=1"});
    resolve_sweep_params(space, spec);
    const std::vector<SweepParamKind> kinds{SweepParamKind::literal, SweepParamKind::size,   SweepParamKind::block,
                                            SweepParamKind::define,  SweepParamKind::define, SweepParamKind::define,
                                            SweepParamKind::block};
    ASSERT_EQ(space.params.size(), kinds.size());
    for (size_t i = 0; i < kinds.size(); ++i) EXPECT_EQ(space.params[i].kind, kinds[i]) << space.params[i].text;
    EXPECT_EQ(space.params[4].values, (Values{"4", "8", "04"}));  // a define's values are text for -D, kept as written
    EXPECT_FALSE(space.params[4].written_as_define);
    EXPECT_EQ(point_label(space, point_at(space, 0)), "tw=8 M=512 block_x=32 -DBIG=1 -DTILE=4 -DFAST=1 block_z=1");
}

TEST(SweepResolve, IntegersSpelledOneWay) {
    const KernelSpec spec = resolve_kernel_spec(kMatmul, "x.cu");
    SweepSpace space = space_of({"tw=08,8,16,-0,0", "N=0100,100"});
    resolve_sweep_params(space, spec);
    EXPECT_EQ(space.params[0].values, (Values{"8", "16", "0"}));
    EXPECT_EQ(space.params[1].values, (Values{"100"}));
}

TEST(SweepResolve, DefinesMayHoldWords) {
    const KernelSpec spec = resolve_kernel_spec(kMatmulWithDefines, "x.cu");
    SweepSpace space = space_of({"TILE=float,double"});
    resolve_sweep_params(space, spec);
    EXPECT_EQ(space.params[0].kind, SweepParamKind::define);
    EXPECT_EQ(point_names(space, point_at(space, 0)), NamedValues{});
}

TEST(SweepResolve, ExactMessages) {
    EXPECT_EQ(resolve_error(kMatmul, {"tw=8", "q=1"}),
              "unknown parameter 'q': not the block (block, or its axes block_x, block_y, block_z), a literal argument (tw), a define "
              "(-DNAME=...) or a "
              "size (M, N, K)");
    // TILE is not among this spec's defines, so without -D it is unknown.
    EXPECT_EQ(resolve_error(kMatmul, {"TILE=8"}),
              "unknown parameter 'TILE': not the block (block, or its axes block_x, block_y, block_z), a literal argument (tw), a "
              "define (-DNAME=...) or a "
              "size (M, N, K)");
    EXPECT_EQ(resolve_error(kMatmulWithDefines, {"q=1"}),
              "unknown parameter 'q': not the block (block, or its axes block_x, block_y, block_z), a literal argument (tw), a define "
              "(-DNAME=..., TILE, "
              "FAST) or a size (M, N, K)");
    EXPECT_EQ(resolve_error("// kplay: task=matmul kernel=k args=a,b,c,M,N,K\n__global__ void k(float* a, float* b, "
                            "float* c, int M, int N, int K) {}\n",
                            {"tw=8"}),
              "unknown parameter 'tw': not the block (block, or its axes block_x, block_y, block_z), a literal argument (none), a "
              "define (-DNAME=...) or "
              "a size (M, N, K)");
    EXPECT_EQ(resolve_error(kMatmul, {"tw=8,16", "block_x=32", "tw=32"}),
              "parameter 'tw' is given twice ('tw=8,16' and 'tw=32'); give each parameter once, with all its values");
    EXPECT_EQ(
        resolve_error(kMatmul, {"-DTILE=8", "TILE=16"}),
        "parameter 'TILE' is given twice ('-DTILE=8' and 'TILE=16'); give each parameter once, with all its values");
    EXPECT_EQ(resolve_error(kMatmul, {"tw=8,x"}),
              "sweep parameter 'tw=8,x': 'x' is not an integer (tw is a literal argument, so its values are integers)");
    EXPECT_EQ(resolve_error(kMatmul, {"M=float"}),
              "sweep parameter 'M=float': 'float' is not an integer (M is a size, so its values are integers)");
    EXPECT_EQ(resolve_error(kMatmul, {"tw=99999999999999999999"}),
              "sweep parameter 'tw=99999999999999999999': '99999999999999999999' does not fit in 64 bits");
    EXPECT_EQ(resolve_error(kMatmul, {"M=512,0"}),
              "sweep parameter 'M=512,0': M is a size, so its values are 1 or more, not 0");
    EXPECT_EQ(resolve_error(kMatmul, {"block_y=-1..4"}),
              "sweep parameter 'block_y=-1..4': block_y is a block axis, so its values are 1 or more, not -1");
    // A literal may be any integer.
    EXPECT_EQ(resolve_error(kMatmul, {"tw=-1,0"}), "(no error)");
}
