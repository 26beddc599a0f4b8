// addr2line -a -i: each address, then its frames from the innermost out.
#include "emu/code_lines.hpp"

#include <cstdio>
#include <cstdlib>

#include "base/subprocess.hpp"
#include "base/text.hpp"
#include "emu/message_names.hpp"

namespace kplay {

std::vector<CodeLine> code_lines(const std::filesystem::path& shared_object, const std::vector<uintptr_t>& offsets,
                                 const std::string& runtime_headers) {
    std::vector<CodeLine> lines(offsets.size());
    if (offsets.empty()) return lines;
    std::vector<std::string> args = {"addr2line", "-a", "-i", "-e", shared_object.string()};
    for (uintptr_t offset : offsets) {
        char text[32];
        std::snprintf(text, sizeof text, "0x%zx", static_cast<size_t>(offset));
        args.push_back(text);
    }
    const ProcessResult result = run_process(args);
    if (result.exit_code != 0) return lines;
    int index = -1;
    bool taken = false;
    for (const std::string_view view : split_lines(result.output)) {
        std::string text(view);
        if (text.rfind("0x", 0) == 0) {  // the next address's frames follow
            ++index;
            taken = false;
            continue;
        }
        if (index < 0 || static_cast<size_t>(index) >= lines.size() || taken || text.empty() || text[0] == '?') continue;
        if (const auto paren = text.find(" (discriminator"); paren != std::string::npos) text.resize(paren);
        const auto colon = text.rfind(':');
        if (colon == std::string::npos) continue;
        const std::string file = text.substr(0, colon);
        const bool runtime = !runtime_headers.empty() && file.find(runtime_headers) != std::string::npos;
        lines[static_cast<size_t>(index)] = {kernel_file_name(file), std::atoi(text.c_str() + colon + 1)};
        taken = !runtime;  // a frame in the prelude's headers stays only until an outer frame is the user's
    }
    return lines;
}

}  // namespace kplay
