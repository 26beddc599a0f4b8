// libFuzzer target: the inspect parsers of what CUDA's tools print (inspect/): PTX and nvdisasm
// listings, the ptxas report, compute-sanitizer's output (memcheck and racecheck), Nsight Compute's
// details and source pages, gdb's machine-interface records, and the listing diff.
// The first byte picks the parser; the rest is its input. None of them documents a failure: nothing may throw.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <string>

#include "inspect/listing_diff.hpp"
#include "inspect/mi_record.hpp"
#include "inspect/ncu_report.hpp"
#include "inspect/ncu_source_page.hpp"
#include "inspect/profiler.hpp"
#include "inspect/race_report.hpp"
#include "inspect/ptx_listing.hpp"
#include "inspect/ptxas_report.hpp"
#include "inspect/sanitizer_report.hpp"
#include "inspect/sass_listing.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const std::string kernel_file = "/work/main/kernels_src/matmul/03_tiled_static_smem.cu";
    switch (data[0] % 8) {
        case 0: {
            const kplay::Listing ptx = kplay::parse_ptx(text, kernel_file);
            (void)ptx.instructions_by_line();
            (void)ptx.lines_of(27);
            // The diff of the listing against half of itself exercises the edit search on real lines.
            const auto lines = kplay::comparable_lines(ptx);
            (void)kplay::diff_lines(lines, std::vector<std::string>(lines.begin(), lines.begin() + static_cast<long>(lines.size() / 2)), 200);
            break;
        }
        case 1: {
            const kplay::SassModule module = kplay::parse_nvdisasm(text, kernel_file);
            for (const auto& function : module.functions) {
                (void)function.instructions_by_line();
                (void)kplay::find_function(module, function.function);
            }
            break;
        }
        case 2: {
            const kplay::PtxasReport report = kplay::parse_ptxas_report(text);
            for (const auto& function : report.functions) (void)report.find(function.function);
            break;
        }
        case 3: {
            const kplay::SanitizerReport report = kplay::parse_sanitizer_output(text);
            if (report.first) (void)kplay::describe_finding(*report.first);
            break;
        }
        case 4: {
            std::string why;
            if (auto summary = kplay::parse_ncu_details_csv(text, &why)) kplay::add_stalls_from_details(*summary);
            (void)kplay::explain_ncu_failure(text, 1);
            break;
        }
        case 5: {
            std::string why;
            (void)kplay::parse_ncu_source_csv(text, &why);
            break;
        }
        case 6:
            (void)kplay::parse_racecheck_output(text);
            break;
        case 7: {
            std::string problem;
            size_t begin = 0;  // gdb writes a record per line
            while (begin <= text.size()) {
                const size_t end = std::min(text.find('\n', begin), text.size());
                (void)kplay::parse_mi_record(text.substr(begin, end - begin), &problem);
                begin = end + 1;
            }
            break;
        }
    }
    return 0;
}
