// Reading ncu's source page. Column names are looked up by their display names, which have changed
// between versions (the older "Memory L2 Transactions Global" became "L2 Theoretical Sectors Global"):
// each counter lists the names it may go by.
#include "inspect/ncu_source_page.hpp"

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <tuple>

#include "base/text.hpp"
#include "inspect/csv_rows.hpp"

namespace kplay {

namespace {

using detail::CsvRow;

int find_column(const CsvRow& header, std::initializer_list<std::string_view> names) {
    for (std::string_view name : names)
        for (size_t i = 0; i < header.size(); ++i)
            if (trim(header[i]) == name) return static_cast<int>(i);
    return -1;
}

struct Columns {
    int address = -1, source = -1, executed = -1, stalls = -1, space = -1, operation = -1;
    int sectors = -1, ideal_sectors = -1, excess_sectors = -1;
    int wavefronts = -1, ideal_wavefronts = -1, excess_wavefronts = -1;

    explicit Columns(const CsvRow& h) {
        address = find_column(h, {"Address"});
        source = find_column(h, {"Source"});
        executed = find_column(h, {"Instructions Executed", "inst_executed"});
        stalls = find_column(h, {"Warp Stall Sampling (All Samples)", "Warp Stall Sampling (All Cycles)", "Sampling Data (All)"});
        space = find_column(h, {"Address Space"});
        operation = find_column(h, {"Access Operation"});
        sectors = find_column(h, {"L2 Theoretical Sectors Global", "Memory L2 Theoretical Sectors Global", "Memory L2 Transactions Global"});
        ideal_sectors = find_column(h, {"L2 Theoretical Sectors Global Ideal", "Memory Ideal L2 Transactions Global",
                                        "Memory L2 Theoretical Sectors Global Ideal"});
        excess_sectors = find_column(h, {"L2 Theoretical Sectors Global Excessive", "Memory L2 Theoretical Sectors Global Excessive"});
        wavefronts = find_column(h, {"L1 Wavefronts Shared", "Memory L1 Wavefronts Shared", "Memory L1 Transactions Shared"});
        ideal_wavefronts = find_column(h, {"L1 Wavefronts Shared Ideal", "Memory Ideal L1 Transactions Shared", "Memory L1 Wavefronts Shared Ideal"});
        excess_wavefronts = find_column(h, {"L1 Wavefronts Shared Excessive", "Memory L1 Wavefronts Shared Excessive"});
    }
};

bool is_header(const CsvRow& row) { return !row.empty() && trim(row[0]) == "Address" && find_column(row, {"Source"}) >= 0; }

// A counter's value; false for text that is not a whole number.
bool read_count(const std::string& text, int64_t& value) {
    std::string digits;
    for (char c : trim(text))
        if (c != ',') digits += c;
    value = 0;
    if (digits.empty() || digits == "-") return true;
    size_t used = 0;
    try {
        const double number = std::stod(digits, &used);  // some versions print "12.0"
        // Not a count: a negative, NaN, or a number past what an int64 holds (its conversion is undefined).
        if (used != digits.size() || !(number >= 0) || number >= 9.2e18) return false;
        value = static_cast<int64_t>(number + 0.5);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

bool starts_with_any(std::string_view opcode, std::initializer_list<std::string_view> prefixes) {
    for (std::string_view prefix : prefixes)
        if (opcode.starts_with(prefix) && (opcode.size() == prefix.size() || opcode[prefix.size()] == '.')) return true;
    return false;
}

// The memory and direction of an instruction: ncu's own columns where it has them, else the opcode.
void classify(SassCounters& c, const std::string& space, const std::string& operation) {
    const std::string opcode = sass_opcode(c.sass);
    if (!space.empty() && space != "-") {
        c.global = space.find("Global") != std::string::npos;
        c.shared = space.find("Shared") != std::string::npos;
    } else {
        c.global = starts_with_any(opcode, {"LDG", "STG", "ATOMG", "RED", "REDG"}) || (c.l2_sectors > 0 && starts_with_any(opcode, {"LD", "ST", "ATOM"}));
        c.shared = starts_with_any(opcode, {"LDS", "STS", "LDSM", "ATOMS"}) || (c.shared_wavefronts > 0 && starts_with_any(opcode, {"LD", "ST", "ATOM"}));
    }
    if (!operation.empty() && operation != "-") c.store = operation.find("Load") == std::string::npos;
    else c.store = starts_with_any(opcode, {"STG", "STS", "ST", "ATOMG", "ATOMS", "ATOM", "RED", "REDG"});
}

}  // namespace

std::string sass_opcode(const std::string& instruction) {
    std::string_view text = instruction;
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (text.starts_with("@")) text.remove_prefix(std::min(text.size(), text.find(' ') + 1));
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    const size_t end = text.find_first_of(" ;");
    return std::string(text.substr(0, end));
}

std::optional<NcuSourcePage> parse_ncu_source_csv(const std::string& text, std::string* error) {
    auto fail = [&](std::string why) -> std::optional<NcuSourcePage> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    const std::vector<CsvRow> rows = detail::csv_rows(text);
    NcuSourcePage page;
    size_t at = 0;
    for (; at < rows.size() && !is_header(rows[at]); ++at)
        if (rows[at].size() >= 2 && trim(rows[at][0]) == "Kernel Name" && page.kernel.empty()) page.kernel = rows[at][1];
    if (at == rows.size())
        return fail(rows.empty() ? "ncu printed no CSV table" : "ncu's table has no \"Address\",\"Source\" header: not the SASS source page");
    const Columns c(rows[at]);
    if (c.executed < 0) return fail("ncu's source page has no \"Instructions Executed\" column: was --section SourceCounters collected?");
    if (c.sectors < 0 && c.wavefronts < 0)
        return fail("ncu's source page has neither \"L2 Theoretical Sectors Global\" nor \"L1 Wavefronts Shared\": kplay does not know its "
                    "memory columns (" + join(rows[at]) + ")");
    uint64_t first = 0;
    for (size_t i = at + 1; i < rows.size(); ++i) {
        const CsvRow& row = rows[i];
        if (is_header(row) || (!row.empty() && trim(row[0]) == "Kernel Name")) break;  // the next kernel's table
        const std::string address = row.size() > static_cast<size_t>(c.address) ? trim(row[c.address]) : "";
        if (!address.starts_with("0x")) continue;
        SassCounters counters;
        uint64_t value = 0;
        try {
            value = std::stoull(address, nullptr, 16);
        } catch (const std::exception&) {
            return fail("ncu's source page: address '" + address + "' is not a hexadecimal number");
        }
        if (page.instructions.empty()) first = value;
        if (value < first) return fail("ncu's source page lists address " + address + " before the function's first");
        counters.offset = value - first;
        auto get = [&](int column) { return column >= 0 && static_cast<size_t>(column) < row.size() ? row[column] : std::string(); };
        counters.sass = trim(get(c.source));
        int64_t excess = 0;
        const std::pair<int, int64_t*> numbers[] = {{c.executed, &counters.executed},     {c.stalls, &counters.stall_samples},
                                                    {c.sectors, &counters.l2_sectors},    {c.wavefronts, &counters.shared_wavefronts}};
        for (const auto& [column, target] : numbers)
            if (!read_count(get(column), *target))
                return fail("ncu's source page: '" + get(column) + "' in column \"" + rows[at][column] + "\" at " + address + " is not a count");
        auto ideal = [&](int ideal_column, int excess_column, int64_t total, int64_t& out) {
            if (ideal_column >= 0) return read_count(get(ideal_column), out);
            if (excess_column < 0) return true;
            if (!read_count(get(excess_column), excess)) return false;
            out = std::max<int64_t>(0, total - excess);
            return true;
        };
        if (!ideal(c.ideal_sectors, c.excess_sectors, counters.l2_sectors, counters.l2_ideal_sectors) ||
            !ideal(c.ideal_wavefronts, c.excess_wavefronts, counters.shared_wavefronts, counters.shared_ideal_wavefronts))
            return fail("ncu's source page: an ideal or excessive count at " + address + " is not a count");
        classify(counters, trim(get(c.space)), trim(get(c.operation)));
        page.instructions.push_back(std::move(counters));
    }
    if (page.instructions.empty()) return fail("ncu's source page has a header but no instruction rows");
    // A counter is missing only where the kernel needs it: ncu leaves out the shared-memory columns of a
    // kernel with no shared access (as recorded on the H200, CUDA 13.0), and the global ones likewise.
    bool any_global = false, any_shared = false;
    for (const SassCounters& counters : page.instructions) any_global |= counters.global, any_shared |= counters.shared;
    const std::tuple<bool, int, const char*> wanted[] = {{true, c.stalls, "warp stall samples"},
                                                         {any_global, c.sectors, "global sectors"},
                                                         {any_global, c.ideal_sectors >= 0 ? c.ideal_sectors : c.excess_sectors, "ideal global sectors"},
                                                         {any_shared, c.wavefronts, "shared wavefronts"},
                                                         {any_shared, c.ideal_wavefronts >= 0 ? c.ideal_wavefronts : c.excess_wavefronts, "ideal shared wavefronts"}};
    for (const auto& [needed, column, what] : wanted)
        if (needed && column < 0) page.missing.emplace_back(what);
    return page;
}

}  // namespace kplay
