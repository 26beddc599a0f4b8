// Rewriting a kernel file for the host compiler without moving any line.
#include "emu/emu_source.hpp"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>
#include <utility>

#include "base/error.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace {

int line_of(const std::string& text, size_t offset) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(std::min(offset, text.size())), '\n'));
}

// Whether `offset` lies at namespace scope: every brace still open there was opened by `namespace ... {`.
bool at_namespace_scope(const std::string& blank, size_t offset) {
    static const std::regex namespace_word(R"(\bnamespace\b)");
    std::vector<bool> opened_by_namespace;  // one per open brace
    size_t statement_start = 0;             // just after the last ; { or }
    for (size_t i = 0; i < offset; ++i) {
        const char c = blank[i];
        if (c == '{')
            opened_by_namespace.push_back(std::regex_search(blank.begin() + static_cast<long>(statement_start),
                                                            blank.begin() + static_cast<long>(i), namespace_word));
        else if (c == '}' && !opened_by_namespace.empty())
            opened_by_namespace.pop_back();
        if (c == ';' || c == '{' || c == '}') statement_start = i + 1;
    }
    return std::all_of(opened_by_namespace.begin(), opened_by_namespace.end(), [](bool ns) { return ns; });
}

// The first include of a library header the emulated device does not have, with what to say about it:
// of CUB it runs the block and warp primitives (runtime/emu/include/cub), of libcu++ the function objects.
std::optional<std::pair<size_t, std::string>> unemulated_include(const std::string& blank) {
    static const std::set<std::string> emulated = {
        "cub/cub.cuh", "cub/block/block_adjacent_difference.cuh", "cub/block/block_discontinuity.cuh", "cub/block/block_exchange.cuh",
        "cub/block/block_histogram.cuh", "cub/block/block_load.cuh", "cub/block/block_radix_sort.cuh", "cub/block/block_reduce.cuh",
        "cub/block/block_scan.cuh", "cub/block/block_store.cuh", "cub/warp/warp_exchange.cuh", "cub/warp/warp_load.cuh",
        "cub/warp/warp_reduce.cuh", "cub/warp/warp_scan.cuh", "cub/warp/warp_store.cuh", "cuda/std/functional", "cuda/functional"};
    static const std::regex include(R"((^|\n)[ \t]*#[ \t]*include[ \t]*<((cub|thrust|cuda|cute|cutlass)/[^>]*)>)");
    for (auto it = std::sregex_iterator(blank.begin(), blank.end(), include); it != std::sregex_iterator(); ++it) {
        const std::string header = (*it)[2].str(), library = (*it)[3].str();
        if (emulated.count(header)) continue;
        const size_t offset = static_cast<size_t>(it->position(2));
        if (library == "cub")
            return std::make_pair(offset, "<" + header + ">" +
                                              (header.rfind("cub/device/", 0) == 0 ? " (CUB's device-wide algorithms, cub::Device*, launch kernels from the host)" : "") +
                                              " is not supported on the emulated CPU device, which runs CUB's block and warp primitives (cub::BlockLoad, "
                                              "BlockStore, BlockExchange, BlockReduce, BlockScan, BlockRadixSort, BlockHistogram, BlockDiscontinuity, "
                                              "BlockAdjacentDifference, WarpReduce, WarpScan, WarpLoad, WarpStore and WarpExchange, from <cub/cub.cuh> or "
                                              "their own headers)");
        if (library == "cuda")
            return std::make_pair(offset, "<" + header + "> (libcu++) is not supported on the emulated CPU device, which has only the function "
                                                         "objects of <cuda/std/functional> and <cuda/functional>");
        return std::make_pair(offset, "<" + header + "> (" + (library == "thrust" ? "Thrust" : "CUTLASS and CuTe") +
                                          ") is not supported on the emulated CPU device");
    }
    return std::nullopt;
}

}  // namespace

std::string line_directive(const std::string& display_path) {
    std::string quoted;
    for (char c : display_path) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += c;
    }
    return "#line 1 \"" + quoted + "\"\n";
}

std::string emulated_entry_symbol(size_t index) { return "kplay_emu_entry_" + std::to_string(index); }
std::string emulated_params_symbol(size_t index) { return "kplay_emu_params_" + std::to_string(index); }

std::string emulated_constant_symbol(size_t index) { return "kplay_emu_constant_" + std::to_string(index); }

std::string constant_accessors(const std::vector<std::string>& constants) {
    std::string text;
    for (size_t i = 0; i < constants.size(); ++i)
        text += "extern \"C\" __attribute__((visibility(\"default\"))) void* " + emulated_constant_symbol(i) +
                "(unsigned long* bytes) { *bytes = sizeof(::" + constants[i] + "); return (void*)&::" + constants[i] + "; }\n";
    return text;
}

EmulatedSource prepare_emulated_source(const std::string& source, const std::string& display_path,
                                       const std::vector<std::string>& kernel_expressions, const std::vector<std::string>& constants) {
    const std::string blank = blank_comments_and_strings(source);
    // `what` names the feature, or is a sentence that already says it is not supported.
    auto refuse = [&](size_t offset, const std::string& what) {
        const bool sentence = what.find(" is not supported on the emulated CPU device") != std::string::npos;
        throw InputError(display_path + ":" + std::to_string(line_of(source, offset)) + ": " + what +
                         (sentence ? "" : " is not supported on the emulated CPU device") + "; run this kernel on a GPU.");
    };
    std::smatch match;
    if (std::regex_search(blank, match, std::regex(R"(\b(asm|__asm__|__asm)\b\s*(volatile|__volatile__)?\s*\()")))
        refuse(static_cast<size_t>(match.position(0)), "inline PTX (asm)");
    if (std::regex_search(blank, match, std::regex(R"(<<<)")))
        refuse(static_cast<size_t>(match.position(0)), "launching a kernel from a kernel (dynamic parallelism)");
    if (const auto refusal = unemulated_include(blank)) refuse(refusal->first, refusal->second);

    // extern __shared__ T name[]; -> a pointer into this block's dynamic shared memory, same line.
    std::string text = source;
    const std::regex extern_shared(
        R"(\bextern\s+__shared__\s+((?:__align__\s*\(\s*\d+\s*\)\s*|alignas\s*\(\s*\d+\s*\)\s*)*)([A-Za-z_][\w:<>,\s]*?)\s*([A-Za-z_]\w*)\s*\[\s*\]\s*;)");
    std::vector<std::pair<size_t, std::pair<size_t, std::string>>> edits;  // offset, (length, replacement)
    for (auto it = std::sregex_iterator(blank.begin(), blank.end(), extern_shared); it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        const size_t offset = static_cast<size_t>(m.position(0));
        std::string type = m[2].str();
        const std::string name = m[3].str();
        while (!type.empty() && std::isspace(static_cast<unsigned char>(type.back()))) type.pop_back();
        const std::string pointer = "(reinterpret_cast<" + type + "*>(::kplay_emu::dynamic_smem()))";
        std::string replacement;
        if (at_namespace_scope(blank, offset)) {
            // Namespace scope: a macro, so every later use reads the current block's memory.
            const size_t line_start = blank.rfind('\n', offset == 0 ? 0 : offset - 1);
            const size_t line_end = blank.find('\n', offset);
            const std::string before = blank.substr(line_start == std::string::npos ? 0 : line_start + 1,
                                                    offset - (line_start == std::string::npos ? 0 : line_start + 1));
            const std::string after = blank.substr(offset + m.length(0), (line_end == std::string::npos ? blank.size() : line_end) -
                                                                             (offset + m.length(0)));
            if (before.find_first_not_of(" \t") != std::string::npos || after.find_first_not_of(" \t\r") != std::string::npos)
                throw InputError(display_path + ":" + std::to_string(line_of(source, offset)) +
                                 ": for the emulated device, put `extern __shared__ ... " + name + "[];` on a line of its own.");
            replacement = "#define " + name + " " + pointer;
        } else {
            replacement = type + "* const " + name + " = " + pointer + ";";
        }
        edits.push_back({offset, {m.length(0), replacement}});
    }
    for (auto edit = edits.rbegin(); edit != edits.rend(); ++edit) text.replace(edit->first, edit->second.first, edit->second.second);

    EmulatedSource result;
    result.text = line_directive(display_path) + text;
    if (!result.text.empty() && result.text.back() != '\n') result.text += '\n';
    for (size_t i = 0; i < kernel_expressions.size(); ++i) {
        const std::string& kernel = kernel_expressions[i];
        result.text += "extern \"C\" __attribute__((visibility(\"default\"))) void " + emulated_entry_symbol(i) +
                       "(void** args) { ::kplay_emu::invoke(&" + kernel + ", args); }\n";
        result.text += "extern \"C\" __attribute__((visibility(\"default\"))) int " + emulated_params_symbol(i) +
                       "(unsigned long* sizes, int max) { return ::kplay_emu::param_sizes(&" + kernel + ", sizes, max); }\n";
        result.kernels.push_back(kernel);
    }
    result.text += constant_accessors(constants);
    return result;
}

}  // namespace kplay
