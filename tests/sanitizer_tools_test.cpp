// racecheck, synccheck and initcheck reports (written from the Compute Sanitizer documentation's forms,
// tests/data/inspect/README.md) read into values and mapped to lines of the kernel file.
#include <gtest/gtest.h>

#include <algorithm>

#include "inspect/fault_finder.hpp"
#include "inspect/race_report.hpp"
#include "inspect/sanitizer_report.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

const std::string kReduce = "/home/me/kernels_src/races/01_reduce_missing_barrier.cu";

TEST(Racecheck, HazardRecordsAreReadIntoValues) {
    const RacecheckReport races = parse_racecheck_output(test::recorded_output("cs-racecheck-hazard.txt"));
    ASSERT_EQ(races.hazards.size(), 3u);
    EXPECT_TRUE(races.unread.empty()) << races.unread.front();
    const RaceHazard& raw = races.hazards[0];
    EXPECT_EQ(raw.severity, RaceSeverity::error);
    EXPECT_EQ(raw.kind, Hazard::raw);
    EXPECT_EQ(raw.space, "shared");
    EXPECT_EQ(raw.address, "0x4");
    EXPECT_EQ(raw.block, (std::array<int, 3>{0, 0, 0}));
    EXPECT_TRUE(raw.first.write);
    EXPECT_EQ(raw.first.thread, (std::array<int, 3>{1, 0, 0}));
    EXPECT_EQ(raw.first.pc, "0x1c0");
    EXPECT_EQ(raw.first.function, "reduce_no_barrier(float const*, float*, int)");
    EXPECT_EQ(raw.first.file, "01_reduce_missing_barrier.cu");
    EXPECT_EQ(raw.first.line, 18);
    EXPECT_FALSE(raw.second.write);
    EXPECT_EQ(raw.second.thread, (std::array<int, 3>{0, 0, 0}));
    EXPECT_EQ(raw.second.line, 23);
    EXPECT_EQ(raw.current_value, "0");
    EXPECT_EQ(raw.incoming_value, "1065353216");
    EXPECT_EQ(races.hazards[1].current_value, "");  // a record without the value line
    const RaceHazard& war = races.hazards[2];
    EXPECT_EQ(war.severity, RaceSeverity::warning);
    EXPECT_EQ(war.kind, Hazard::war);
    EXPECT_EQ(war.block, (std::array<int, 3>{3, 0, 0}));
    EXPECT_EQ(war.second.thread, (std::array<int, 3>{32, 0, 0}));
    EXPECT_EQ(races.displayed, 3);
    EXPECT_EQ(races.errors, 2);
    EXPECT_EQ(races.warnings, 1);
    EXPECT_EQ(describe_hazard(raw),
              "RAW race on shared memory byte 0x4 in block (0,0,0): thread (1,0,0) wrote it at line 18, then thread (0,0,0) read it at line 23 in "
              "the same warp with no __syncwarp() between them");
    EXPECT_NE(describe_hazard(war).find("with no barrier between them (racecheck: a warning"), std::string::npos) << describe_hazard(war);
}

TEST(Racecheck, AnalysisAndLegacyFormsAreRead) {
    const RacecheckReport analysis = parse_racecheck_output(test::recorded_output("cs-racecheck-analysis.txt"));
    ASSERT_EQ(analysis.analyses.size(), 1u);
    const RaceAnalysis& a = analysis.analyses[0];
    EXPECT_EQ(a.severity, RaceSeverity::warning);
    EXPECT_TRUE(a.access.write);
    EXPECT_EQ(a.access.line, 21);
    EXPECT_EQ(a.access.pc, "0x350");
    ASSERT_EQ(a.others.size(), 2u);
    EXPECT_FALSE(a.others[0].write);
    EXPECT_EQ(a.others[1].pc, "0x330");
    EXPECT_EQ(a.hazards, (std::vector<int64_t>{992, 480}));
    EXPECT_EQ(describe_analysis(a), "a write at line 21 races with a read at line 21 (992 hazards), a read at line 21 (480 hazards)");

    const RacecheckReport legacy = parse_racecheck_output(test::recorded_output("cs-racecheck-legacy.txt"));
    ASSERT_EQ(legacy.hazards.size(), 1u);
    const RaceHazard& h = legacy.hazards[0];
    EXPECT_EQ(h.severity, RaceSeverity::warning);
    EXPECT_EQ(h.kind, Hazard::war);
    EXPECT_EQ(h.first.thread, (std::array<int, 3>{31, 0, 0}));
    EXPECT_EQ(h.first.file, "./race.cu");
    EXPECT_EQ(h.first.line, 4);
    EXPECT_EQ(h.first.pc, "0x00000170");
    EXPECT_EQ(h.first.function, "test(int*, int*)");
    EXPECT_EQ(h.second.line, 6);
}

TEST(Racecheck, ARaceBecomesTheLinesOfTheKernelFileEvenWhenTheRunPassed) {
    const FaultLocation found =
        location_from_sanitizer(parse_sanitizer_output(test::recorded_output("cs-racecheck-hazard.txt"), SanitizerTool::racecheck), kReduce);
    EXPECT_EQ(found.tool, SanitizerTool::racecheck);
    ASSERT_TRUE(found.found) << found.problem;
    EXPECT_EQ(found.line, 23);        // the read that came too early
    EXPECT_EQ(found.other_line, 18);  // the write it raced with
    EXPECT_EQ(found.findings, 3);
    ASSERT_TRUE(found.race);
    EXPECT_EQ(found.race->kind, Hazard::raw);
    EXPECT_NE(found.message.find("RAW race on shared memory byte 0x4"), std::string::npos) << found.message;
    EXPECT_NE(found.message.find("also WAR between lines 23 and 18"), std::string::npos) << found.message;
    // The racecheck lines are not mistaken for tool errors.
    EXPECT_EQ(parse_sanitizer_output(test::recorded_output("cs-racecheck-hazard.txt"), SanitizerTool::racecheck).tool_error, "");
    // Analysis records alone still name the lines.
    const FaultLocation analysis =
        location_from_sanitizer(parse_sanitizer_output(test::recorded_output("cs-racecheck-analysis.txt"), SanitizerTool::racecheck),
                                "/x/races/02_warp_reduce_no_syncwarp.cu");
    EXPECT_TRUE(analysis.found) << analysis.problem;
    EXPECT_EQ(analysis.line, 21);
}

TEST(Racecheck, NoRaceAndUnknownFormsAreSaidPlainly) {
    const FaultLocation clean =
        location_from_sanitizer(parse_sanitizer_output(test::recorded_output("cs-racecheck-clean.txt"), SanitizerTool::racecheck), kReduce);
    EXPECT_FALSE(clean.found);
    EXPECT_EQ(clean.problem, "racecheck found no shared-memory race in the same run (RACECHECK SUMMARY: 0 hazards).");
    const FaultLocation unknown =
        location_from_sanitizer(parse_sanitizer_output(test::recorded_output("cs-racecheck-unknown.txt"), SanitizerTool::racecheck), kReduce);
    EXPECT_FALSE(unknown.found);
    EXPECT_NE(unknown.problem.find("reported 1 hazards in a form kplay does not know"), std::string::npos) << unknown.problem;
    EXPECT_NE(unknown.problem.find("'Error: Data race on shared byte 0x4"), std::string::npos) << unknown.problem;
    const FaultLocation cut = location_from_sanitizer(parse_sanitizer_output("========= COMPUTE-SANITIZER\n", SanitizerTool::racecheck), kReduce);
    EXPECT_EQ(cut.problem, "racecheck printed no summary: it did not run to the end.");
}

TEST(Synccheck, ABarrierErrorIsAFindingOnItsLine) {
    const SanitizerReport report = parse_sanitizer_output(test::recorded_output("cs-synccheck.txt"), SanitizerTool::synccheck);
    ASSERT_TRUE(report.first);
    EXPECT_TRUE(is_known_finding(*report.first, SanitizerTool::synccheck));
    EXPECT_EQ(report.error_count, 12);
    const FaultLocation found = location_from_sanitizer(report, "/k/races/03_scan_divergent_barrier.cu");
    ASSERT_TRUE(found.found) << found.problem;
    EXPECT_EQ(found.line, 17);
    EXPECT_EQ(found.message,
              "thread (64,0,0) of block (2,0,0) reached a barrier wrongly (Divergent thread(s) in block) at line 17 (scan_divergent)");
    const FaultLocation unknown =
        location_from_sanitizer(parse_sanitizer_output(test::recorded_output("cs-synccheck-unknown.txt"), SanitizerTool::synccheck), "/k/k.cu");
    EXPECT_FALSE(unknown.found);
    EXPECT_EQ(unknown.problem,
              "compute-sanitizer's synccheck printed a finding in a form kplay does not know: 'Synchronization fault: cluster barrier arrival "
              "count exceeded'.");
}

TEST(Initcheck, AnUninitializedReadIsAFindingOnItsLine) {
    const SanitizerReport report = parse_sanitizer_output(test::recorded_output("cs-initcheck.txt"), SanitizerTool::initcheck);
    ASSERT_TRUE(report.first);
    EXPECT_EQ(report.first->space, "shared");
    EXPECT_EQ(report.first->access, "read");
    EXPECT_EQ(report.first->access_size, 4);
    EXPECT_EQ(report.first->address, "0x14");
    const FaultLocation found = location_from_sanitizer(report, "/k/04_tile_read_before_fill.cu");
    ASSERT_TRUE(found.found) << found.problem;
    EXPECT_EQ(found.line, 22);
    EXPECT_EQ(found.findings, 256);
    EXPECT_EQ(found.message, "thread (5,0,0) of block (0,0,0) read 4 bytes of shared memory that nothing had written at line 22 (tiled_no_fill)");
}

TEST(SanitizerTools, EachToolHasItsOwnOptionsAndNameAsAValue) {
    EXPECT_EQ(parse_sanitizer_tool("racecheck"), SanitizerTool::racecheck);
    EXPECT_EQ(parse_sanitizer_tool("Racecheck"), std::nullopt);
    EXPECT_EQ(sanitizer_tool_names(), "memcheck, racecheck, synccheck, initcheck");
    RunRequest request;
    request.kernel_path = "kernels_src/races/01_reduce_missing_barrier.cu";
    RunReport ran;
    ran.sizes = "1000";
    const auto has = [](const std::vector<std::string>& c, const std::string& word) { return std::find(c.begin(), c.end(), word) != c.end(); };
    const auto race = sanitizer_command("/opt/cs", "/bin/kplay-cli", request, ran, SanitizerTool::racecheck);
    EXPECT_TRUE(has(race, "racecheck"));
    EXPECT_TRUE(has(race, "hazard"));  // --racecheck-report hazard: kinds, bytes and threads
    EXPECT_FALSE(has(race, "--report-api-errors"));  // a memcheck option
    const auto init = sanitizer_command("/opt/cs", "/bin/kplay-cli", request, ran, SanitizerTool::initcheck);
    EXPECT_TRUE(has(init, "--initcheck-address-space"));
    // racecheck looks at any GPU run that launched, passing or not; memcheck only after a fault.
    RunReport passed;
    passed.stage = Stage::done;
    EXPECT_TRUE(can_run_sanitizer(passed, SanitizerTool::racecheck));
    EXPECT_FALSE(can_run_sanitizer(passed, SanitizerTool::memcheck));
    passed.emulated = true;
    EXPECT_FALSE(can_run_sanitizer(passed, SanitizerTool::racecheck));
}

}  // namespace
}  // namespace kplay
