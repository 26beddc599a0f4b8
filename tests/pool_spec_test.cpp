// The --pool parser: each kind of member, counts, commas and repeated flags, and the exact message for
// each mistake, naming the entry.
#include "client/pool_spec.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace kplay;

namespace {

std::string refusal(const std::vector<std::string>& texts) {
    return test::input_error_of([&] { (void)parse_pool(texts); });
}

const std::string kinds = "use local, local:N, ssh:HOST, slurm[:PARTITION][ xN] or cmd:COMMAND";

}  // namespace

TEST(PoolSpec, ReadsEachKindOfMember) {
    const std::vector<PoolMember> members = parse_pool({"local, local:2 ,ssh:me@gpu-box:2222,slurm,slurm:a100 x4",
                                                        "slurm x2", "cmd:kubectl exec -i pod -- kplay-worker --stdio"});
    ASSERT_EQ(members.size(), 7u);
    EXPECT_EQ(members[0].kind, PoolMemberKind::local_gpus);
    EXPECT_EQ(members[0].entry, "local");
    EXPECT_EQ(members[1].kind, PoolMemberKind::local_shared);
    EXPECT_EQ(members[1].count, 2);
    EXPECT_EQ(members[1].entry, "local:2");
    EXPECT_EQ(members[2].kind, PoolMemberKind::ssh);
    EXPECT_EQ(members[2].host, "me@gpu-box:2222");
    EXPECT_EQ(members[3].kind, PoolMemberKind::slurm);
    EXPECT_EQ(members[3].partition, "");
    EXPECT_EQ(members[3].count, 1);
    EXPECT_EQ(members[4].partition, "a100");
    EXPECT_EQ(members[4].count, 4);
    EXPECT_EQ(members[4].entry, "slurm:a100 x4");
    EXPECT_EQ(members[5].partition, "");
    EXPECT_EQ(members[5].count, 2);
    EXPECT_EQ(members[6].kind, PoolMemberKind::command);
    EXPECT_EQ(members[6].command, "kubectl exec -i pod -- kplay-worker --stdio");
}

TEST(PoolSpec, ACommandTakesTheRestOfItsTextCommasIncluded) {
    const std::vector<PoolMember> members = parse_pool({"local:1, cmd:sh -c 'echo a,b; exec kplay-worker --stdio'"});
    ASSERT_EQ(members.size(), 2u);
    EXPECT_EQ(members[1].command, "sh -c 'echo a,b; exec kplay-worker --stdio'");
}

TEST(PoolSpec, APartitionMayEndInXAndDigits) {
    // The count follows a space: `a100x8` is a partition's name, not a100 eight times.
    const std::vector<PoolMember> members = parse_pool({"slurm:a100x8"});
    ASSERT_EQ(members.size(), 1u);
    EXPECT_EQ(members[0].partition, "a100x8");
    EXPECT_EQ(members[0].count, 1);
}

TEST(PoolSpec, EachMistakeNamesItsEntry) {
    EXPECT_EQ(refusal({}), "the pool names no member; " + kinds);
    EXPECT_EQ(refusal({" "}), "--pool ' ' names no member; " + kinds);
    EXPECT_EQ(refusal({"local,,ssh:a"}),
              "--pool 'local,,ssh:a' has an empty entry (two commas in a row, or one at an end)");
    EXPECT_EQ(refusal({"local,"}), "--pool 'local,' has an empty entry (two commas in a row, or one at an end)");
    EXPECT_EQ(refusal({"gpu-box"}), "pool entry 'gpu-box': not a kind of member; " + kinds);
    EXPECT_EQ(refusal({"local x2"}),
              "pool entry 'local x2': not a kind of member (a count is local:N, or slurm xN after a space); " + kinds);
    EXPECT_EQ(refusal({"slurmx2"}),
              "pool entry 'slurmx2': not a kind of member (a count is local:N, or slurm xN after a space); " + kinds);
    EXPECT_EQ(refusal({"local:0"}), "pool entry 'local:0': the count after local: is a whole number from 1 to 64");
    EXPECT_EQ(refusal({"local:65"}), "pool entry 'local:65': the count after local: is a whole number from 1 to 64");
    EXPECT_EQ(refusal({"local:two"}), "pool entry 'local:two': the count after local: is a whole number from 1 to 64");
    EXPECT_EQ(refusal({"ssh:"}), "pool entry 'ssh:': names no host; write ssh:[user@]host[:port]");
    EXPECT_EQ(refusal({"ssh:box:99999"}),
              "pool entry 'ssh:box:99999': 'box:99999': the port must be a number from 1 to 65535");
    EXPECT_EQ(
        refusal({"ssh:-oProxyCommand=x"}),
        "pool entry 'ssh:-oProxyCommand=x': '-oProxyCommand=x' is not an ssh destination: use [user@]host[:port]");
    EXPECT_EQ(refusal({"slurm:"}), "pool entry 'slurm:': names no partition; write slurm for the default one");
    EXPECT_EQ(refusal({"slurm:-x"}), "pool entry 'slurm:-x': '-x' is not a partition's name");
    EXPECT_EQ(refusal({"slurm:gpu x0"}),
              "pool entry 'slurm:gpu x0': the count is x and a whole number from 1 to 64, as in slurm:gpu x4");
    EXPECT_EQ(refusal({"slurm:gpu 4"}),
              "pool entry 'slurm:gpu 4': the count is x and a whole number from 1 to 64, as in slurm:gpu x4");
    EXPECT_EQ(refusal({"slurm:gpu x2 x3"}),
              "pool entry 'slurm:gpu x2 x3': one partition and one count at most, as in slurm:gpu x4");
    EXPECT_EQ(refusal({"cmd:  "}),
              "pool entry 'cmd:': names no command; write cmd:COMMAND that starts kplay-worker --stdio");
    // A good entry does not excuse a bad one later in the same flag.
    EXPECT_EQ(refusal({"local:2,ssh:"}), "pool entry 'ssh:': names no host; write ssh:[user@]host[:port]");
}
