// Reading --pool texts into members: the entries, their kinds and counts, and a message per mistake.
#include "client/pool_spec.hpp"

#include <sstream>

#include "base/error.hpp"
#include "base/text.hpp"
#include "client/remote_target.hpp"

namespace kplay {

namespace {

constexpr const char* kKinds = "local, local:N, ssh:HOST, slurm[:PARTITION][ xN] or cmd:COMMAND";

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

[[noreturn]] void refuse(const std::string& entry, const std::string& why) {
    throw InputError("pool entry '" + entry + "': " + why);
}

// A count from 1 to kMaxWorkersPerEntry, or nothing.
int count_of(std::string_view digits) {
    if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string_view::npos)
        return 0;
    const int value = std::stoi(std::string(digits));
    return value <= kMaxWorkersPerEntry ? value : 0;
}

const std::string& count_rule() {
    static const std::string rule = "a whole number from 1 to " + std::to_string(kMaxWorkersPerEntry);
    return rule;
}

PoolMember slurm_member(const std::string& entry) {
    PoolMember member{PoolMemberKind::slurm, entry};
    std::istringstream words(entry);
    std::string kind, count, extra;
    words >> kind >> count >> extra;
    if (!extra.empty()) refuse(entry, "one partition and one count at most, as in slurm:gpu x4");
    if (kind != "slurm") {
        member.partition = kind.substr(std::string_view("slurm:").size());
        if (member.partition.empty()) refuse(entry, "names no partition; write slurm for the default one");
        if (member.partition.front() == '-') refuse(entry, "'" + member.partition + "' is not a partition's name");
    }
    if (!count.empty()) {
        member.count = count.front() == 'x' ? count_of(std::string_view(count).substr(1)) : 0;
        if (member.count == 0) refuse(entry, "the count is x and " + count_rule() + ", as in slurm:gpu x4");
    }
    return member;
}

PoolMember member_of(const std::string& entry) {
    if (entry == "local") return {PoolMemberKind::local_gpus, entry};
    if (starts_with(entry, "local:")) {
        PoolMember member{PoolMemberKind::local_shared, entry};
        member.count = count_of(std::string_view(entry).substr(6));
        if (member.count == 0) refuse(entry, "the count after local: is " + count_rule());
        return member;
    }
    if (starts_with(entry, "ssh:")) {
        PoolMember member{PoolMemberKind::ssh, entry};
        member.host = trim(std::string_view(entry).substr(4));
        if (member.host.empty()) refuse(entry, "names no host; write ssh:[user@]host[:port]");
        try {
            check_ssh_destination(member.host);
        } catch (const InputError& error) {
            refuse(entry, error.what());
        }
        return member;
    }
    if (starts_with(entry, "slurm") && (entry.size() == 5 || entry[5] == ':' || entry[5] == ' ' || entry[5] == '\t'))
        return slurm_member(entry);
    if (starts_with(entry, "cmd:")) {
        PoolMember member{PoolMemberKind::command, entry};
        member.command = trim(std::string_view(entry).substr(4));
        if (member.command.empty())
            refuse(entry, "names no command; write cmd:COMMAND that starts kplay-worker --stdio");
        return member;
    }
    if (starts_with(entry, "slurmx") || starts_with(entry, "localx") || starts_with(entry, "local "))
        refuse(entry,
               std::string("not a kind of member (a count is local:N, or slurm xN after a space); use ") + kKinds);
    refuse(entry, std::string("not a kind of member; use ") + kKinds);
}

}  // namespace

std::vector<PoolMember> parse_pool(const std::vector<std::string>& texts) {
    std::vector<PoolMember> members;
    for (const std::string& text : texts) {
        if (trim(text).empty()) throw InputError("--pool '" + text + "' names no member; use " + kKinds);
        for (size_t at = 0; at <= text.size();) {
            const size_t start = text.find_first_not_of(" \t", at);
            // A command is the rest of the text: its own commas are not ours.
            const bool command =
                start != std::string::npos && starts_with(std::string_view(text).substr(start), "cmd:");
            const size_t comma = command ? std::string::npos : text.find(',', at);
            const std::string entry =
                trim(std::string_view(text).substr(at, comma == std::string::npos ? std::string::npos : comma - at));
            if (entry.empty())
                throw InputError("--pool '" + text + "' has an empty entry (two commas in a row, or one at an end)");
            members.push_back(member_of(entry));
            if (comma == std::string::npos) break;
            at = comma + 1;
        }
    }
    if (members.empty()) throw InputError(std::string("the pool names no member; use ") + kKinds);
    return members;
}

}  // namespace kplay
