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

// `extern __shared__ T name[];` with its specifiers in any order CUDA accepts (`extern double __shared__
// sdata[];`, `extern __shared__ __align__(16) float4 tile[];`): where the statement begins and ends, T and name.
struct DynamicSharedArray {
    size_t begin = 0, end = 0;  // the statement, its `;` included
    std::string type, name;
};

std::vector<DynamicSharedArray> dynamic_shared_arrays(const std::string& blank) {
    static const std::regex shape(R"(^([\s\S]*?)\b([A-Za-z_]\w*)\s*\[\s*\]\s*;$)");
    static const std::regex specifiers(R"(\b(extern|__shared__|static)\b|\b(__align__|alignas)\s*\(\s*\d+\s*\))");
    std::vector<DynamicSharedArray> found;
    static const std::regex shared_word(R"(\b__shared__\b)");
    for (auto it = std::sregex_iterator(blank.begin(), blank.end(), shared_word); it != std::sregex_iterator(); ++it) {
        const size_t at = static_cast<size_t>(it->position(0));
        const size_t previous = at == 0 ? std::string::npos : blank.find_last_of(";{}\n#", at - 1);
        size_t begin = previous == std::string::npos ? 0 : previous + 1;
        begin = blank.find_first_not_of(" \t\r\n", begin);
        const size_t semicolon = blank.find_first_of(";{}", at);
        if (semicolon == std::string::npos || blank[semicolon] != ';' || begin == std::string::npos || begin > at) continue;
        const std::string statement = blank.substr(begin, semicolon + 1 - begin);
        std::smatch parts;
        if (!std::regex_search(statement, std::regex(R"(\bextern\b)")) || !std::regex_match(statement, parts, shape)) continue;
        std::string type = std::regex_replace(parts[1].str(), specifiers, " ");
        type = std::regex_replace(type, std::regex(R"(\s+)"), " ");
        type.erase(0, type.find_first_not_of(' '));
        while (!type.empty() && type.back() == ' ') type.pop_back();
        if (type.empty()) continue;
        found.push_back({begin, semicolon + 1, type, parts[2].str()});
    }
    return found;
}

// The first include of a library header the emulated device does not have, with what to say about it:
// of CUB it runs the block and warp primitives (runtime/emu/include/cub), of libcu++ the function objects
// and the standard library's header-only parts.
std::optional<std::pair<size_t, std::string>> unemulated_include(const std::string& blank) {
    static const std::set<std::string> emulated = {
        "cub/cub.cuh", "cub/block/block_adjacent_difference.cuh", "cub/block/block_discontinuity.cuh", "cub/block/block_exchange.cuh",
        "cub/block/block_histogram.cuh", "cub/block/block_load.cuh", "cub/block/block_radix_sort.cuh", "cub/block/block_reduce.cuh",
        "cub/block/block_scan.cuh", "cub/block/block_store.cuh", "cub/warp/warp_exchange.cuh", "cub/warp/warp_load.cuh",
        "cub/warp/warp_reduce.cuh", "cub/warp/warp_scan.cuh", "cub/warp/warp_store.cuh", "cuda/std/functional", "cuda/functional",
        // libcu++'s header-only standard parts: the host's own library as cuda::std (include/cuda/std/kplay_std_names.h)
        "cuda/std/type_traits", "cuda/std/cstdint", "cuda/std/cstddef", "cuda/std/climits", "cuda/std/cfloat", "cuda/std/limits",
        "cuda/std/utility", "cuda/std/array", "cuda/std/tuple", "cuda/std/cmath"};
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
            return std::make_pair(offset, "<" + header + "> (libcu++) is not supported on the emulated CPU device, which has the function "
                                                         "objects of <cuda/std/functional> and <cuda/functional> and the standard headers "
                                                         "<cuda/std/type_traits>, <cuda/std/limits>, <cuda/std/utility>, <cuda/std/array>, "
                                                         "<cuda/std/tuple>, <cuda/std/cstdint>, <cuda/std/climits>, <cuda/std/cfloat> and "
                                                         "<cuda/std/cmath>");
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
    std::vector<std::pair<size_t, std::pair<size_t, std::string>>> edits;  // offset, (length, replacement)
    for (const DynamicSharedArray& m : dynamic_shared_arrays(blank)) {
        const size_t offset = m.begin;
        const std::string& type = m.type;
        const std::string& name = m.name;
        const std::string pointer = "(reinterpret_cast<" + type + "*>(::kplay_emu::dynamic_smem()))";
        std::string replacement;
        if (at_namespace_scope(blank, offset)) {
            // Namespace scope: a macro, so every later use reads the current block's memory.
            const size_t line_start = blank.rfind('\n', offset == 0 ? 0 : offset - 1);
            const size_t line_end = blank.find('\n', offset);
            const std::string before = blank.substr(line_start == std::string::npos ? 0 : line_start + 1,
                                                    offset - (line_start == std::string::npos ? 0 : line_start + 1));
            const std::string after = blank.substr(m.end, (line_end == std::string::npos ? blank.size() : line_end) - m.end);
            if (before.find_first_not_of(" \t") != std::string::npos || after.find_first_not_of(" \t\r") != std::string::npos)
                throw InputError(display_path + ":" + std::to_string(line_of(source, offset)) +
                                 ": for the emulated device, put `extern __shared__ ... " + name + "[];` on a line of its own.");
            replacement = "#define " + name + " " + pointer;
        } else {
            replacement = type + "* const " + name + " = " + pointer + ";";
        }
        edits.push_back({offset, {m.end - offset, replacement}});
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
