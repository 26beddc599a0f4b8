// Summing ncu's instruction counters per line, through the SASS listing's line information.
#include "inspect/ncu_line_access.hpp"

#include <map>

namespace kplay {

namespace {

// The offset of a listing line "/*0040*/  IMAD R1, ..." and the instruction after it; false for others.
bool listed_offset(const std::string& text, uint64_t& offset, std::string& instruction) {
    if (!text.starts_with("/*")) return false;
    const size_t close = text.find("*/");
    if (close == std::string::npos || close == 2) return false;
    try {
        size_t used = 0;
        offset = std::stoull(text.substr(2, close - 2), &used, 16);
        if (used != close - 2) return false;
    } catch (const std::exception&) {
        return false;
    }
    instruction = text.substr(close + 2);
    return true;
}

}  // namespace

void add_instruction(LineAccess& line, const SassCounters& c) {
    const int64_t requests = c.executed;
    if (c.global) {
        GlobalAccess& g = c.store ? line.global_stores : line.global_loads;
        g.requests += requests, g.sectors += c.l2_sectors, g.ideal_sectors += c.l2_ideal_sectors;
    }
    if (c.shared) {
        SharedAccess& s = c.store ? line.shared_stores : line.shared_loads;
        s.requests += requests, s.wavefronts += c.shared_wavefronts, s.ideal_wavefronts += c.shared_ideal_wavefronts;
    }
    line.stall_samples += c.stall_samples;
}

std::optional<NcuLineAccess> map_ncu_to_lines(const NcuSourcePage& page, const Listing& sass, const std::string& kernel_file, std::string* problem) {
    struct Listed {
        int line;
        std::string opcode;
    };
    std::map<uint64_t, Listed> by_offset;
    for (const ListingLine& line : sass.lines) {
        uint64_t offset = 0;
        std::string instruction;
        if (line.instruction && listed_offset(line.text, offset, instruction)) by_offset[offset] = {line.source_line, sass_opcode(instruction)};
    }
    auto fail = [&](std::string why) -> std::optional<NcuLineAccess> {
        if (problem) *problem = std::move(why);
        return std::nullopt;
    };
    if (by_offset.empty()) return fail("the SASS listing of " + sass.function + " has no instruction offsets to find ncu's instructions by");
    NcuLineAccess result;
    result.profile.origin = LineAccessOrigin::ncu;
    result.profile.kernel = page.kernel.empty() ? sass.function : page.kernel;
    std::map<int, LineAccess> lines;
    size_t disagreeing = 0;
    std::string first_disagreement;
    for (const SassCounters& counters : page.instructions) {
        const auto it = by_offset.find(counters.offset);
        const std::string opcode = sass_opcode(counters.sass);
        if (it == by_offset.end() || it->second.opcode != opcode) {
            if (first_disagreement.empty()) {
                char offset[32];
                std::snprintf(offset, sizeof offset, "0x%04llx", static_cast<unsigned long long>(counters.offset));
                first_disagreement = std::string(offset) + ": ncu has '" + opcode + "', the listing " +
                                     (it == by_offset.end() ? std::string("nothing") : "'" + it->second.opcode + "'");
            }
            ++disagreeing;
            result.instructions.push_back({counters, 0});
            continue;
        }
        result.instructions.push_back({counters, it->second.line});
        if (it->second.line <= 0) continue;
        LineAccess& line = lines[it->second.line];
        line.file = kernel_file;
        line.line = it->second.line;
        add_instruction(line, counters);
    }
    if (disagreeing * 10 > page.instructions.size())
        return fail(std::to_string(disagreeing) + " of ncu's " + std::to_string(page.instructions.size()) +
                    " instructions are not those of kplay's SASS listing (first at " + first_disagreement + "): ncu profiled another build");
    for (auto& [number, line] : lines) result.profile.lines.push_back(std::move(line));
    return result;
}

}  // namespace kplay
