// Reading an AddressSanitizer or UBSan report of an emulated kernel: its headline, access and line.
#include "emu/sanitizer_stop.hpp"

#include <cstdlib>
#include <vector>

#include "emu/message_names.hpp"

namespace kplay {

// "thread (3,0,0) of block (0,0,0): AddressSanitizer: stack-buffer-overflow (READ of size 4) at emu/x.cu:5",
// then the report itself (trimmed), for the details.
std::string explain_sanitizer_report(const std::string& who, const std::string& report, std::string& file, int& line_number) {
    std::string headline, access, location;
    std::vector<std::string> kept;
    size_t start = 0;
    while (start < report.size() && kept.size() < 40) {
        const size_t end = report.find('\n', start);
        std::string line = report.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? report.size() : end + 1;
        if (line.empty()) continue;
        // Frames below the kernel (kplay's entry, the scheduler, the fiber library) say nothing to the user.
        if (line.find(" #") != std::string::npos &&
            (line.find("kplay_emu") != std::string::npos || line.find("kplay::") != std::string::npos ||
             line.find("boost") != std::string::npos || line.find("make_fcontext") != std::string::npos))
            continue;
        kept.push_back(line);
        if (headline.empty()) {
            if (const auto at = line.find("ERROR: AddressSanitizer: "); at != std::string::npos) {
                headline = "AddressSanitizer: " + line.substr(at + 25);
                if (const auto on = headline.find(" on address"); on != std::string::npos) headline.resize(on);
            } else if (const auto ub = line.find(": runtime error: "); ub != std::string::npos) {
                headline = "UBSan: " + line.substr(ub + 17);
                location = line.substr(0, line.rfind(':', ub - 1));  // file:line:col -> file:line
            }
        }
        if (access.empty() && (line.rfind("READ of size", 0) == 0 || line.rfind("WRITE of size", 0) == 0))
            access = line.substr(0, line.find(" at "));
        if (location.empty() && line.find("#0 ") != std::string::npos) {
            // "    #0 0x7f.. in k(int*) /build/emu/x.cu:5" -> "emu/x.cu:5"
            const auto space = line.rfind(' ');
            std::string frame = line.substr(space + 1);
            if (frame.find(".cu:") != std::string::npos) location = frame;
        }
    }
    if (!location.empty()) {
        // Keep folder/name:line, as the rest of kplay shows a kernel file.
        const auto colon = location.find(':', location.find(".cu"));
        file = kernel_file_name(location.substr(0, colon));
        line_number = std::atoi(location.c_str() + colon + 1);
        location = file + ":" + std::to_string(line_number);
    }
    std::string message = who + ": " + (headline.empty() ? "a sanitizer stopped the kernel" : headline);
    if (!access.empty()) message += " (" + access + ")";
    if (!location.empty()) message += " at " + location;
    std::string details;
    for (const auto& line : kept) details += "\n  " + line;
    return message + details;
}

}  // namespace kplay
