// PTX and nvdisasm listings linked to kernel-file lines: counts, inlining chains, sections, malformed input.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "inspect/ptx_listing.hpp"
#include "inspect/sass_listing.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

// The paths inside the recordings are those of the checkout they were made in.
const std::string kG5 = "/work/main/kernels_src/grayscale/05_sixteen_pixels_uint4.cu";
const std::string kM3 = "/work/main/kernels_src/matmul/03_tiled_static_smem.cu";
const std::string kF1 = "/work/main/kernels_src/faults/01_out_of_bounds_write.cu";
const std::string kM3Name = "_Z14matmul_tiled_kILi16EEvPfS0_S0_iii";

std::set<int> lines_with_code(const Listing& listing) {
    std::set<int> lines;
    for (const auto& [line, count] : listing.instructions_by_line()) lines.insert(line);
    return lines;
}

// The index of the only listing line containing text, -1 when none or several do.
int only_line_with(const Listing& listing, const std::string& text) {
    int found = -1;
    for (size_t i = 0; i < listing.lines.size(); ++i) {
        if (listing.lines[i].text.find(text) == std::string::npos) continue;
        if (found >= 0) return -1;
        found = static_cast<int>(i);
    }
    return found;
}

}  // namespace

TEST(InspectListing, KernelFileMatchesByPathOrName) {
    EXPECT_TRUE(is_kernel_file("/work/main/k/a.cu", "/work/main/k/a.cu"));
    EXPECT_TRUE(is_kernel_file("a.cu", "/work/main/k/a.cu"));             // compute-sanitizer gives a name
    EXPECT_TRUE(is_kernel_file("/other/checkout/k/a.cu", "/work/main/k/a.cu"));
    EXPECT_TRUE(is_kernel_file("C:\\k\\a.cu", "k/a.cu"));
    EXPECT_FALSE(is_kernel_file("/work/main/include/kplay.cuh", "/work/main/k/a.cu"));
    EXPECT_FALSE(is_kernel_file("/work/main/k/a.cu.bak", "/work/main/k/a.cu"));
    EXPECT_FALSE(is_kernel_file("", "/work/main/k/a.cu"));
    EXPECT_FALSE(is_kernel_file("a.cu", ""));
    EXPECT_FALSE(is_kernel_file("/work/main/k/", "/work/main/k/"  "b/"));
}

TEST(InspectListing, F1SassInstructionCountsPerSourceLine) {
    const auto module = parse_nvdisasm(kplay::test::recorded_output("f1.nvdisasm-gi.txt"), kF1);
    EXPECT_EQ(module.arch, "sm_90");
    ASSERT_EQ(module.functions.size(), 1u);
    const Listing& f = module.functions[0];
    EXPECT_EQ(f.function, "_Z9oob_writePhS_i");
    const std::map<int, int> expected{{10, 1}, {11, 4}, {12, 14}, {13, 1}};
    EXPECT_EQ(f.instructions_by_line(), expected);

    // The faulting store is on line 12 (`if (i < n) out[i + (1ll << 34)] = x[i];`).
    const int store = only_line_with(f, "STG.E.U8");
    ASSERT_GE(store, 0);
    EXPECT_EQ(f.lines[store].text, "/*0120*/                   STG.E.U8 desc[UR4][R4.64], R3 ;");
    EXPECT_EQ(f.lines[store].source_line, 12);
    EXPECT_TRUE(f.lines[store].instruction);
    EXPECT_EQ(f.lines[store].origin, "");
    EXPECT_EQ(f.lines_of(12).size(), 14u);
    EXPECT_EQ(f.lines_of(12).front(), only_line_with(f, "/*0050*/"));
    EXPECT_TRUE(f.lines_of(1).empty());
    EXPECT_TRUE(f.lines_of(0).empty());

    // Shown: directives, labels, instructions; no markers, no .section line, no blank lines.
    ASSERT_EQ(f.lines.size(), 41u);  // 7 directives/labels before the code, 32 instructions, 2 labels
    EXPECT_EQ(f.lines.front().text, ".align\t128");
    EXPECT_EQ(f.lines.back().text, ".L_x_1:");
    for (const auto& line : f.lines) {
        EXPECT_EQ(line.text.find("//##"), std::string::npos);
        EXPECT_FALSE(line.text.empty());
        if (!line.instruction) {
            EXPECT_EQ(line.source_line, 0) << line.text;
        }
    }

    // The padding after EXIT (self-branch and NOPs) is no line's code.
    const int padding = only_line_with(f, "BRA `(.L_x_0);");
    ASSERT_GE(padding, 0);
    EXPECT_EQ(f.lines[padding].source_line, 0);
    EXPECT_TRUE(f.lines[padding].instruction);
    int nops = 0;
    for (const auto& line : f.lines)
        if (line.text.find("NOP;") != std::string::npos) {
            ++nops;
            EXPECT_EQ(line.source_line, 0);
        }
    EXPECT_EQ(nops, 11);
    EXPECT_EQ(f.lines[only_line_with(f, "/*0130*/")].source_line, 13);  // the real EXIT keeps its line
}

TEST(InspectListing, NoInstructionMapsToACommentOrBlankLine) {
    struct Case {
        std::string listing, kernel;
        bool ptx;
    };
    const std::vector<Case> cases{{"f1.nvdisasm-gi.txt", kF1, false}, {"g5.nvdisasm-gi.txt", kG5, false},
                                  {"m3.nvdisasm-gi.txt", kM3, false}, {"m3.nvdisasm-g.txt", kM3, false},
                                  {"g5.ptx", kG5, true},              {"m3.ptx", kM3, true}};
    for (const auto& c : cases) {
        std::ifstream in(c.kernel);
        ASSERT_TRUE(in.good()) << c.kernel;
        std::vector<std::string> source{""};
        for (std::string line; std::getline(in, line);) source.push_back(line);
        const std::string text = kplay::test::recorded_output(c.listing);
        std::vector<Listing> listings;
        if (c.ptx) {
            listings.push_back(parse_ptx(text, c.kernel));
        } else {
            listings = parse_nvdisasm(text, c.kernel).functions;
        }
        ASSERT_FALSE(listings.empty()) << c.listing;
        for (const auto& listing : listings) {
            ASSERT_FALSE(listing.instructions_by_line().empty()) << c.listing;
            for (const auto& [line, count] : listing.instructions_by_line()) {
                ASSERT_LT(line, static_cast<int>(source.size())) << c.listing;
                const std::string code = source[line].substr(0, source[line].find("//"));
                EXPECT_NE(code.find_first_not_of(" \t"), std::string::npos) << c.listing << " line " << line;
            }
        }
    }
}

TEST(InspectListing, PtxAndSassAgreeOnWhichLinesHaveCode) {
    const auto m3_ptx = parse_ptx(kplay::test::recorded_output("m3.ptx"), kM3);
    const auto m3_sass = parse_nvdisasm(kplay::test::recorded_output("m3.nvdisasm-gi.txt"), kM3);
    ASSERT_EQ(m3_sass.functions.size(), 1u);
    const std::set<int> m3_lines{14, 17, 18, 21, 23, 24, 25, 27, 28, 30, 31};
    EXPECT_EQ(lines_with_code(m3_ptx), m3_lines);
    EXPECT_EQ(lines_with_code(m3_sass.functions[0]), m3_lines);

    const auto g5_ptx = parse_ptx(kplay::test::recorded_output("g5.ptx"), kG5);
    const auto g5_sass = parse_nvdisasm(kplay::test::recorded_output("g5.nvdisasm-gi.txt"), kG5);
    ASSERT_EQ(g5_sass.functions.size(), 1u);
    // Line 28 (the make_uint4 call) has no code of its own: all of it is gray_word/gray_byte, inlined.
    const std::set<int> g5_lines{12, 13, 17, 20, 21, 22, 23, 24, 25, 26, 27, 30, 31, 33};
    EXPECT_EQ(lines_with_code(g5_ptx), g5_lines);
    EXPECT_EQ(lines_with_code(g5_sass.functions[0]), g5_lines);
}

TEST(InspectListing, M3PtxCountsAndShownLines) {
    const std::string ptx = kplay::test::recorded_output("m3.ptx");
    const auto listing = parse_ptx(ptx, kM3);
    EXPECT_EQ(listing.function, "");
    const std::map<int, int> expected{{14, 6}, {17, 4}, {18, 6}, {21, 12}, {23, 17}, {24, 9},
                                      {25, 1}, {27, 48}, {28, 1}, {30, 8},  {31, 1}};
    EXPECT_EQ(listing.instructions_by_line(), expected);  // 27: the unrolled loop, 16 x (2 loads + fma)

    // 205 lines less 25 .loc, 2 .file and the 6 lines of .section .debug_str { ... }.
    ASSERT_EQ(listing.lines.size(), 172u);
    EXPECT_EQ(listing.lines.front().text, "//");
    EXPECT_EQ(listing.lines.back().text, "}");
    for (const auto& line : listing.lines) {
        EXPECT_NE(line.text.rfind(".loc", 0), 0u) << line.text;
        EXPECT_NE(line.text.rfind(".file", 0), 0u) << line.text;
        EXPECT_EQ(line.text.find("debug_str"), std::string::npos);
        EXPECT_EQ(line.text.find("$L__info_string0:"), std::string::npos);
        if (!line.text.empty()) {
            EXPECT_NE(line.text.front(), '\t') << line.text;
        }
    }
    // Declarations, labels and braces are not instructions; `.loc 1 0 5` links to no line.
    for (const std::string text : {".reg .pred \t%p<12>;", "$L__BB0_2:", "{", ")",
                                   ".shared .align 4 .b8 _ZZ14matmul_tiled_kILi16EEvPfS0_S0_iiiE2ms[1024];"}) {
        const int i = only_line_with(listing, text);
        ASSERT_GE(i, 0) << text;
        EXPECT_FALSE(listing.lines[i].instruction) << text;
        EXPECT_EQ(listing.lines[i].source_line, 0) << text;
    }
    const int no_line = only_line_with(listing, "mul.wide.s32 \t%rd11, %r29, 64;");
    ASSERT_GE(no_line, 0);
    EXPECT_TRUE(listing.lines[no_line].instruction);
    EXPECT_EQ(listing.lines[no_line].source_line, 0);
    const int ret = only_line_with(listing, "ret;");
    ASSERT_GE(ret, 0);
    EXPECT_EQ(listing.lines[ret].source_line, 31);

    EXPECT_EQ(parse_ptx(kplay::test::recorded_output("g5.ptx"), kG5).lines.size(), 306u);  // 394 - 79 .loc - 1 .file - 8
}

TEST(InspectListing, TemplateFunctionFoundByMangledName) {
    const auto module = parse_nvdisasm(kplay::test::recorded_output("m3.nvdisasm-gi.txt"), kM3);
    const Listing* f = find_function(module, kM3Name);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->function, kM3Name);
    EXPECT_EQ(f->lines[only_line_with(*f, "/*0000*/")].source_line, 14);
    EXPECT_EQ(find_function(module, "matmul_tiled_k"), nullptr);
    EXPECT_EQ(find_function(module, "_Z14matmul_tiled_kILi32EEvPfS0_S0_iii"), nullptr);
    const std::map<int, int> expected{{14, 1}, {17, 2}, {18, 4}, {21, 16}, {23, 30}, {24, 6},
                                      {25, 1}, {27, 36}, {28, 1}, {30, 8},  {31, 1}};
    EXPECT_EQ(f->instructions_by_line(), expected);
}

TEST(InspectListing, HeaderCodeAttributedToCallingLineViaInlinedAt) {
    // cdiv() from kplay.cuh:5 is inlined into `for (...; ph < cdiv(k,TW); ...)` on line 21.
    const auto ptx = parse_ptx(kplay::test::recorded_output("m3.ptx"), kM3);
    std::vector<std::string> from_header;
    for (const auto& line : ptx.lines) {
        if (line.origin.empty()) continue;
        EXPECT_EQ(line.origin, "kplay.cuh:5");
        EXPECT_EQ(line.source_line, 21);
        EXPECT_TRUE(line.instruction);
        from_header.push_back(line.text);
    }
    EXPECT_EQ(from_header, (std::vector<std::string>{"add.s32 \t%r22, %r18, 15;", "shr.u32 \t%r6, %r22, 4;"}));

    // -gi: the chain is two marker lines (`kplay.cuh, line 5 inlined at ..., line 21`, then `line 21`).
    const auto gi = parse_nvdisasm(kplay::test::recorded_output("m3.nvdisasm-gi.txt"), kM3);
    std::vector<int> header_lines;
    for (size_t i = 0; i < gi.functions[0].lines.size(); ++i) {
        const auto& line = gi.functions[0].lines[i];
        if (line.origin.empty()) continue;
        EXPECT_EQ(line.origin, "kplay.cuh:5");
        EXPECT_EQ(line.source_line, 21);
        header_lines.push_back(static_cast<int>(i));
    }
    ASSERT_EQ(header_lines.size(), 4u);
    EXPECT_EQ(gi.functions[0].lines[header_lines[3]].text, "/*0070*/                   USHF.R.U32.HI UR4, URZ, 0x4, UR4 ;");
    // HFMA2 between them follows a plain `line 21` marker: the kernel file's own code.
    EXPECT_EQ(gi.functions[0].lines[only_line_with(gi.functions[0], "/*0060*/")].origin, "");

    // -g has no chain: the same four instructions keep their origin but link to no kernel line.
    const auto g = parse_nvdisasm(kplay::test::recorded_output("m3.nvdisasm-g.txt"), kM3);
    ASSERT_EQ(g.functions.size(), 1u);
    int unlinked = 0;
    for (const auto& line : g.functions[0].lines) {
        if (line.origin.empty()) continue;
        EXPECT_EQ(line.origin, "kplay.cuh:5");
        EXPECT_EQ(line.source_line, 0);
        ++unlinked;
    }
    EXPECT_EQ(unlinked, 4);
    EXPECT_EQ(g.functions[0].instructions_by_line().at(21), 12);
    EXPECT_EQ(gi.functions[0].instructions_by_line().at(21), 16);
}

TEST(InspectListing, G5InliningChainInKernelFileTakesInnermostLine) {
    // gray_byte (12-13) inlined into gray_word (17) inlined at line 28: the innermost line wins.
    const auto sass = parse_nvdisasm(kplay::test::recorded_output("g5.nvdisasm-gi.txt"), kG5).functions.at(0);
    EXPECT_EQ(sass.function, "_Z10gray_uint4PKhPhi");
    const int i2f = only_line_with(sass, "/*0460*/");
    ASSERT_GE(i2f, 0);
    EXPECT_EQ(sass.lines[i2f].source_line, 12);
    EXPECT_EQ(sass.lines[i2f].origin, "");
    EXPECT_EQ(sass.lines[only_line_with(sass, "/*0600*/")].source_line, 13);
    EXPECT_EQ(sass.lines[only_line_with(sass, "/*0f60*/")].source_line, 17);  // `line 17 inlined at 28`
    EXPECT_EQ(sass.lines[only_line_with(sass, "/*0fb0*/")].source_line, 27);
    EXPECT_EQ(sass.instructions_by_line().at(12), 144);

    const auto ptx = parse_ptx(kplay::test::recorded_output("g5.ptx"), kG5);
    EXPECT_EQ(ptx.lines[only_line_with(ptx, "cvt.rzi.u32.f32 \t%r42, %f12;")].source_line, 13);
    EXPECT_EQ(ptx.lines[only_line_with(ptx, "or.b32  \t%r51, %r50, %r42;")].source_line, 17);
    EXPECT_EQ(ptx.lines[only_line_with(ptx, "and.b32  \t%r39, %r14, 255;")].source_line, 12);
    EXPECT_EQ(ptx.instructions_by_line().at(12), 168);
}

TEST(InspectListing, PtxChainsThroughHeadersAndMultiLineCalls) {
    // h.cuh:3 is inlined into h.cuh:10, which is inlined at k.cu:6 (stated before) or k.cu:8 (stated
    // after the use: the module-wide table supplies it).
    const std::string ptx =
        ".visible .entry _Z1kPi(\n"
        "\t.param .u64 _Z1kPi_param_0\n"
        ")\n"
        "{\n"
        "\t.reg .b32 \t%r<3>;\n"
        "\t.local .align 4 .b8 \t__local_depot0[8];\n"
        "\t.loc\t1 5 0\n"
        "\tld.param.u64 \t%rd1, [_Z1kPi_param_0];\n"
        "\t.loc\t2 10 3, function_name $L__info_string0, inlined_at 1 6 5\n"
        "\t.loc\t2 3 7, function_name $L__info_string1, inlined_at 2 10 3\n"
        "\tadd.s32 \t%r1, %r1, 1;\n"
        "\t{ // callseq 0, 0\n"
        "\t.param .b64 param0;\n"
        "\tcall.uni (retval0), \n"
        "\tvprintf, \n"
        "\t(\n"
        "\tparam0\n"
        "\t);\n"
        "\t} // callseq 0\n"
        "\t.loc\t2 4 7, function_name $L__info_string1, inlined_at 2 11 3\n"
        "\tsub.s32 \t%r2, %r1, 1; // trailing comment\n"
        "\t.loc\t2 11 3, function_name $L__info_string0, inlined_at 1 8 5\n"
        "\t.loc\t3 9 1\n"
        "\tret;\n"
        "\n"
        "}\n"
        "\t.file\t1 \"/x//k.cu\"\n"
        "\t.file\t2 \"/x/inc/h.cuh\", 1700000000, 120\n";
    const auto listing = parse_ptx(ptx, "/x//k.cu");
    auto at = [&](const std::string& text) -> const ListingLine& {
        const int i = only_line_with(listing, text);
        EXPECT_GE(i, 0) << text;
        static const ListingLine none;
        return i < 0 ? none : listing.lines[i];
    };
    EXPECT_EQ(at("ld.param.u64").source_line, 5);
    EXPECT_EQ(at("add.s32").source_line, 6);
    EXPECT_EQ(at("add.s32").origin, "h.cuh:3");
    EXPECT_TRUE(at("call.uni").instruction);
    EXPECT_EQ(at("call.uni").source_line, 6);
    EXPECT_FALSE(at("vprintf,").instruction);  // continuation of the call
    EXPECT_EQ(at("vprintf,").source_line, 6);
    EXPECT_FALSE(at(");").instruction);
    EXPECT_FALSE(at(".param .b64 param0;").instruction);
    EXPECT_FALSE(at(".local .align 4").instruction);
    EXPECT_EQ(at("sub.s32").source_line, 8);
    EXPECT_EQ(at("sub.s32").origin, "h.cuh:4");
    EXPECT_EQ(at("ret;").source_line, 0);      // file 3 is not in the .file table
    EXPECT_EQ(at("ret;").origin, "?:9");
    EXPECT_TRUE(at("ret;").instruction);
    const std::map<int, int> expected{{5, 1}, {6, 2}, {8, 1}};
    EXPECT_EQ(listing.instructions_by_line(), expected);
}

TEST(InspectListing, SassSingleLineChainsFunctionsHexAndSpinLoops) {
    const std::string text =
        "\t.target\tsm_80\n"
        "//--------------------- .text._Z1av --------------------------\n"
        "\t.section\t.text._Z1av,\"ax\",@progbits\n"
        "_Z1av:\n"
        "\t//## File \"/x/inc/h.cuh\", line 3 inlined at \"/x/inc/h.cuh\", line 10 inlined at \"/x/k.cu\", line 6\n"
        "        /*0000*/                   MOV R1, c[0x0][0x28] ;               /* 0x00000a0000017a02 */\n"
        "                                                                         /* 0x000fc40000000f00 */\n"
        "\t//## File \"/x/k.cu\", line 7\n"
        ".L_x_0:\n"
        "        /*0010*/                   BRA `(.L_x_0);\n"
        ".L_x_1:\n"
        "//--------------------- .text._Z1bv --------------------------\n"
        "\t.section\t.text._Z1bv,\"ax\",@progbits\n"
        "\t//## File \"k.cu\", line 12\n"
        "        /*0000*/                   EXIT ;\n"
        "\t//## File \"/x/inc/h.cuh\", line 3\n"
        "\t//## File \"/x/k.cu\", line 13\n"   // not a chain (the first is not inlined there): replaces it
        "        /*0010*/                   EXIT ;\n"
        "\t//## File \"garbage\n"
        "        /*0020*/                   NOP ;\n"
        "//--------------------- SYMBOLS --------------------------\n"
        "\t.type\t\tfoo,@object\n";
    const auto module = parse_nvdisasm(text, "/x/k.cu");
    EXPECT_EQ(module.arch, "sm_80");
    ASSERT_EQ(module.functions.size(), 2u);
    const Listing& a = module.functions[0];
    EXPECT_EQ(a.function, "_Z1av");
    ASSERT_EQ(a.lines.size(), 5u);  // the label, MOV, .L_x_0, BRA, .L_x_1: the encoding line dropped
    EXPECT_EQ(a.lines[1].source_line, 6);
    EXPECT_EQ(a.lines[1].origin, "h.cuh:3");
    EXPECT_EQ(a.lines[3].text, "/*0010*/                   BRA `(.L_x_0);");
    EXPECT_EQ(a.lines[3].source_line, 7);  // `while (true);` with its own marker is code, not padding
    const Listing& b = *find_function(module, "_Z1bv");
    ASSERT_EQ(b.lines.size(), 3u);
    EXPECT_EQ(b.lines[0].source_line, 12);  // the kernel file named by its name alone
    EXPECT_EQ(b.lines[1].source_line, 13);
    EXPECT_EQ(b.lines[1].origin, "");
    EXPECT_EQ(b.lines[2].source_line, 0);  // after a marker that does not parse
    EXPECT_TRUE(b.lines[2].instruction);
}

TEST(InspectListing, EmptyGarbageAndTruncatedInput) {
    EXPECT_TRUE(parse_ptx("", "/x/k.cu").lines.empty());
    const auto empty = parse_nvdisasm("", "/x/k.cu");
    EXPECT_EQ(empty.arch, "");
    EXPECT_TRUE(empty.functions.empty());

    const std::string garbage = "\x01\x02 .loc\t\n.loc 99999999999999 1\n.loc 1\n.file 1\n.file x \"\n"
                                "//## File \"\n//## File \"a\", line\n.section\n.section .text.\n"
                                ".entry\n.entry (\n{\n}\n}\n@\n/*zz*/ X\n/**/\n.section .debug_x\n{\n";
    const auto ptx = parse_ptx(garbage, "/x/k.cu");
    EXPECT_TRUE(ptx.instructions_by_line().empty());
    const auto sass = parse_nvdisasm(garbage, "/x/k.cu");
    EXPECT_TRUE(sass.functions.empty());
    EXPECT_TRUE(parse_nvdisasm("no listing here\n/*0000*/ NOP ;\n", "").functions.empty());

    // Every prefix of the recordings parses, and never links a line the full listing does not have.
    for (const std::string name : {"m3.ptx", "g5.ptx", "m3.nvdisasm-gi.txt", "m3.nvdisasm-g.txt", "f1.nvdisasm-gi.txt"}) {
        const std::string text = kplay::test::recorded_output(name);
        const bool is_ptx = name.find(".ptx") != std::string::npos;
        const std::string kernel = name[0] == 'g' ? kG5 : name[0] == 'm' ? kM3 : kF1;
        std::set<int> full;
        if (is_ptx) {
            full = lines_with_code(parse_ptx(text, kernel));
        } else {
            for (const auto& f : parse_nvdisasm(text, kernel).functions)
                for (int line : lines_with_code(f)) full.insert(line);
        }
        for (size_t cut = 0; cut < text.size(); cut += 37) {
            const std::string prefix = text.substr(0, cut);
            std::set<int> lines;
            if (is_ptx) {
                lines = lines_with_code(parse_ptx(prefix, kernel));
            } else {
                for (const auto& f : parse_nvdisasm(prefix, kernel).functions) {
                    EXPECT_FALSE(f.function.empty());
                    for (int line : lines_with_code(f)) lines.insert(line);
                }
            }
            for (int line : lines) EXPECT_TRUE(full.count(line)) << name << " cut " << cut << " line " << line;
        }
    }
}
