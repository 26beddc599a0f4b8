// Differences between two ptxas reports of one function, for "this edit cost 32 registers" messages.
#include "inspect/resource_delta.hpp"

namespace kplay {

std::vector<ResourceChange> resource_changes(const PtxasResources& before, const PtxasResources& after) {
    struct Field {
        const char* what;
        int PtxasResources::*member;
        const char* unit;
    };
    static constexpr Field kFields[] = {
        {"registers", &PtxasResources::registers, ""},
        {"spill stores", &PtxasResources::spill_store_bytes, "B"},
        {"spill loads", &PtxasResources::spill_load_bytes, "B"},
        {"stack frame", &PtxasResources::stack_frame_bytes, "B"},
        {"static smem", &PtxasResources::static_smem_bytes, "B"},
        {"barriers", &PtxasResources::barriers, ""},
    };
    std::vector<ResourceChange> changes;
    for (const auto& field : kFields) {
        const int64_t was = before.*field.member, now = after.*field.member;
        if (was == now) continue;
        changes.push_back({field.what, was, now, field.unit, now > was});
    }
    return changes;
}

std::string describe_changes(const std::vector<ResourceChange>& changes) {
    std::string text;
    for (const auto& change : changes) {
        if (!text.empty()) text += ", ";
        text += change.what + " " + std::to_string(change.before) + " \u2192 " + std::to_string(change.after);
        if (!change.unit.empty()) text += " " + change.unit;
    }
    return text;
}

}  // namespace kplay
