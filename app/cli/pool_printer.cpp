// Writing a pool's groups and failures as lines and as JSON (docs/CLI.md, devices --pool --json).
#include "pool_printer.hpp"

#include "base/text.hpp"
#include "values/report_json.hpp"

namespace kplay::cli {

namespace {

std::string plural(size_t count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// Where a group's workers run, alike places once with their count: "local x2, gpu-box".
std::string places(const WorkerPool& pool, const DeviceGroup& group) {
    std::vector<std::string> names;
    std::vector<int> counts;
    for (size_t worker : group.workers) {
        const std::string& where = pool.workers()[worker].where;
        size_t i = 0;
        while (i < names.size() && names[i] != where) ++i;
        if (i == names.size()) names.push_back(where), counts.push_back(0);
        ++counts[i];
    }
    for (size_t i = 0; i < names.size(); ++i)
        if (counts[i] > 1) names[i] += " x" + std::to_string(counts[i]);
    return join(names);
}

std::string capability(const DeviceGroup& group) {
    return std::to_string(group.cc_major) + "." + std::to_string(group.cc_minor);
}

}  // namespace

std::string pool_text(const WorkerPool& pool) {
    std::string text =
        "pool: " + plural(pool.workers().size(), "worker") + " in " + plural(pool.groups().size(), "group") +
        (pool.failures().empty() ? "" : ", " + std::to_string(pool.failures().size()) + " failed") + "\n";
    for (size_t i = 0; i < pool.groups().size(); ++i) {
        const DeviceGroup& group = pool.groups()[i];
        // The emulated device's times are CPU times: "cpu" stands where a GPU's compute capability does.
        text += "group " + std::to_string(i + 1) + "  " + group.name + "  " +
                (group.emulated ? "cpu" : "cc " + capability(group)) + "  " + plural(group.workers.size(), "worker") +
                ": " + places(pool, group) + "\n";
    }
    for (const PoolFailure& failure : pool.failures())
        text += "failed  " + failure.member + ": " + failure.message + "\n";
    return text;
}

nlohmann::json pool_json(const WorkerPool& pool, const std::vector<PoolMember>& members) {
    nlohmann::json entries = nlohmann::json::array(), groups = nlohmann::json::array(),
                   failed = nlohmann::json::array();
    for (const PoolMember& member : members) entries.push_back(member.entry);
    for (const DeviceGroup& group : pool.groups()) {
        nlohmann::json workers = nlohmann::json::array();
        for (size_t worker : group.workers)
            workers.push_back({{"member", pool.workers()[worker].member}, {"where", pool.workers()[worker].where}});
        groups.push_back(
            {{"name", group.name},
             {"emulated", group.emulated},
             {"compute_capability", group.emulated ? nlohmann::json(nullptr) : nlohmann::json(capability(group))},
             {"arch", group.emulated ? nlohmann::json(nullptr)
                                     : nlohmann::json("sm_" + std::to_string(group.cc_major * 10 + group.cc_minor))},
             {"workers", workers}});
    }
    for (const PoolFailure& failure : pool.failures())
        failed.push_back({{"member", failure.member}, {"message", failure.message}});
    return {{"schema", kJsonSchemaVersion}, {"pool", entries}, {"groups", groups}, {"failed", failed}};
}

}  // namespace kplay::cli
