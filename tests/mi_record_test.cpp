// The GDB/MI record reader, on a session recorded from Debian 12's gdb 13 (tests/data/gdb_mi) and on
// lines built to break it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "inspect/mi_record.hpp"

namespace {

using kplay::MiRecord;
using kplay::MiRecordType;
using kplay::MiValue;
using kplay::parse_mi_record;

std::vector<std::string> recorded_lines() {
    std::ifstream in(std::string(KPLAY_TEST_DATA_DIR) + "/gdb_mi/next_and_exit.mi");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

MiRecord record_starting(const std::string& start) {
    for (const auto& line : recorded_lines())
        if (line.rfind(start, 0) == 0) {
            std::string problem;
            auto record = parse_mi_record(line, &problem);
            EXPECT_TRUE(record) << problem;
            return record.value_or(MiRecord{});
        }
    ADD_FAILURE() << "no recorded line starts with " << start;
    return {};
}

}  // namespace

TEST(MiRecord, EveryRecordedLineParses) {
    const auto lines = recorded_lines();
    ASSERT_GT(lines.size(), 30u);
    for (const auto& line : lines) {
        std::string problem;
        EXPECT_TRUE(parse_mi_record(line, &problem)) << problem;
    }
}

TEST(MiRecord, AResultRecordKeepsItsTokenAndNestedTuples) {
    const MiRecord r = record_starting("1^done");
    EXPECT_EQ(r.type, MiRecordType::result);
    EXPECT_EQ(r.token, 1);
    EXPECT_EQ(r.record_class, "done");
    const MiValue* bkpt = r.results.find("bkpt");
    ASSERT_TRUE(bkpt);
    EXPECT_EQ(bkpt->kind, MiValue::Kind::tuple);
    EXPECT_EQ(bkpt->text_of("line"), "6");
    EXPECT_EQ(bkpt->text_of("cond"), "i==3");
    const MiValue* groups = bkpt->find("thread-groups");
    ASSERT_TRUE(groups);
    EXPECT_EQ(groups->kind, MiValue::Kind::list);
    ASSERT_EQ(groups->items.size(), 1u);
    EXPECT_EQ(groups->items[0].value.text, "i1");
}

TEST(MiRecord, AStoppedRecordGivesTheFrame) {
    const MiRecord r = record_starting("*stopped,reason=\"breakpoint-hit\"");
    EXPECT_EQ(r.type, MiRecordType::exec);
    EXPECT_FALSE(r.token);
    EXPECT_EQ(r.record_class, "stopped");
    EXPECT_EQ(r.text_of("bkptno"), "1");
    const MiValue* frame = r.results.find("frame");
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->text_of("func"), "main");
    EXPECT_EQ(frame->text_of("line"), "6");
    EXPECT_EQ(frame->text_of("fullname"), "/tmp/mirec/t.c");
    EXPECT_EQ(frame->find("args")->kind, MiValue::Kind::list);
    EXPECT_TRUE(frame->find("args")->items.empty());
}

TEST(MiRecord, EscapesInValuesAreUndone) {
    const MiRecord r = record_starting("3^done");
    const MiValue* variables = r.results.find("variables");
    ASSERT_TRUE(variables);
    ASSERT_EQ(variables->items.size(), 2u);
    EXPECT_EQ(variables->items[0].value.text_of("name"), "i");
    EXPECT_EQ(variables->items[0].value.text_of("value"), "3");
    EXPECT_EQ(variables->items[1].value.text_of("type"), "const char *");
    EXPECT_EQ(variables->items[1].value.text_of("value"), "0x555555556004 \"a\\\"b\\n\"");  // gdb's own C quoting, kept
}

TEST(MiRecord, StreamAndErrorRecords) {
    const MiRecord console = record_starting("~\"6\\t");
    EXPECT_EQ(console.type, MiRecordType::console);
    EXPECT_EQ(console.stream, "6\t    tile[i] = 7;\n");
    const MiRecord error = record_starting("6^error");
    EXPECT_EQ(error.record_class, "error");
    EXPECT_EQ(error.text_of("msg"), "No line 999 in file \"t.c\".");
    const MiRecord exited = record_starting("*stopped,reason=\"exited-normally\"");
    EXPECT_EQ(exited.text_of("reason"), "exited-normally");
    const MiRecord prompt = record_starting("(gdb)");
    EXPECT_EQ(prompt.type, MiRecordType::prompt);
}

TEST(MiRecord, OctalEscapesAndBareListValues) {
    const auto r = parse_mi_record(R"(^done,value="\303\251",list=["a","b"],empty={})");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text_of("value"), "\xc3\xa9");
    ASSERT_EQ(r->results.find("list")->items.size(), 2u);
    EXPECT_EQ(r->results.find("list")->items[1].value.text, "b");
    EXPECT_EQ(r->results.find("empty")->kind, MiValue::Kind::tuple);
}

TEST(MiRecord, TextThatIsNotARecordSaysWhere) {
    for (const std::string line : {"3 a\"b", "^done,x=", "^done,x=\"open", "*stopped,frame={a=\"1\"", "", "12"}) {
        std::string problem;
        EXPECT_FALSE(parse_mi_record(line, &problem)) << line;
        EXPECT_NE(problem.find("not an MI record"), std::string::npos) << problem;
    }
    std::string problem;
    parse_mi_record("^done,x=\"open", &problem);
    EXPECT_NE(problem.find("column"), std::string::npos) << problem;
}

TEST(MiRecord, QuotingRoundTrips) {
    const std::string text = "a \"b\" \\ c\nd";
    const auto r = parse_mi_record("^done,v=" + kplay::mi_quote(text));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text_of("v"), text);
}
