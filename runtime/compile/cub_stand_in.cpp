// The <cub/cub.cuh> stand-in's text and the placing of its refusals at the user's line.
#include "compile/cub_stand_in.hpp"

#include <charconv>
#include <utility>

#include "base/text.hpp"

namespace kplay {

namespace {

struct DeviceWideClass {
    const char* name;
    std::vector<const char*> members;
};

// CCCL 3's device-wide classes and their algorithms, and DeviceSpmv, which older code still calls.
const std::vector<DeviceWideClass>& device_wide_classes() {
    static const std::vector<DeviceWideClass> classes = {
        {"DeviceAdjacentDifference", {"SubtractLeft", "SubtractLeftCopy", "SubtractRight", "SubtractRightCopy"}},
        {"DeviceCopy", {"Batched"}},
        {"DeviceFind", {"FindIf", "LowerBound", "UpperBound"}},
        {"DeviceFor", {"Bulk", "ForEach", "ForEachCopy", "ForEachCopyN", "ForEachInExtents", "ForEachN"}},
        {"DeviceHistogram", {"HistogramEven", "HistogramRange", "MultiHistogramEven", "MultiHistogramRange"}},
        {"DeviceMemcpy", {"Batched"}},
        {"DeviceMerge", {"MergeKeys", "MergePairs"}},
        {"DeviceMergeSort", {"SortKeys", "SortKeysCopy", "SortPairs", "SortPairsCopy", "StableSortKeys", "StableSortKeysCopy", "StableSortPairs"}},
        {"DevicePartition", {"Flagged", "If"}},
        {"DeviceRadixSort", {"SortKeys", "SortKeysDescending", "SortPairs", "SortPairsDescending"}},
        {"DeviceReduce", {"ArgMax", "ArgMin", "Max", "Min", "Reduce", "ReduceByKey", "Sum", "TransformReduce"}},
        {"DeviceRunLengthEncode", {"Encode", "NonTrivialRuns"}},
        {"DeviceScan",
         {"ExclusiveScan", "ExclusiveScanByKey", "ExclusiveSum", "ExclusiveSumByKey", "InclusiveScan", "InclusiveScanByKey", "InclusiveScanInit",
          "InclusiveSum", "InclusiveSumByKey"}},
        {"DeviceSegmentedRadixSort", {"SortKeys", "SortKeysDescending", "SortPairs", "SortPairsDescending"}},
        {"DeviceSegmentedReduce", {"ArgMax", "ArgMin", "Max", "Min", "Reduce", "Sum"}},
        {"DeviceSegmentedSort",
         {"SortKeys", "SortKeysDescending", "SortPairs", "SortPairsDescending", "StableSortKeys", "StableSortKeysDescending", "StableSortPairs",
          "StableSortPairsDescending"}},
        {"DeviceSelect", {"Flagged", "FlaggedIf", "If", "Unique", "UniqueByKey"}},
        {"DeviceSpmv", {"CsrMV"}},
        {"DeviceTransform", {"Fill", "Generate", "Transform", "TransformIf", "TransformStableArgumentAddresses"}},
    };
    return classes;
}

constexpr const char* kSentence = " is CUB's device-wide layer: it launches kernels from the host through the CUDA runtime, which a kernel cannot do. ";

// The toolkit's CUB headers that NVRTC compiles: all but the device-wide layer (cub/device/, which the
// dispatch and agent headers serve) and util_allocator.cuh (a host caching allocator). Each behind
// __has_include, as CUB versions differ in what they ship.
constexpr const char* kUmbrellaHeaders[] = {
    "cub/config.cuh", "cub/version.cuh",
    "cub/block/block_adjacent_difference.cuh", "cub/block/block_discontinuity.cuh", "cub/block/block_exchange.cuh",
    "cub/block/block_histogram.cuh", "cub/block/block_load.cuh", "cub/block/block_merge_sort.cuh", "cub/block/block_radix_rank.cuh",
    "cub/block/block_radix_sort.cuh", "cub/block/block_reduce.cuh", "cub/block/block_run_length_decode.cuh", "cub/block/block_scan.cuh",
    "cub/block/block_shuffle.cuh", "cub/block/block_store.cuh",
    "cub/grid/grid_even_share.cuh", "cub/grid/grid_mapping.cuh", "cub/grid/grid_queue.cuh",
    "cub/thread/thread_load.cuh", "cub/thread/thread_operators.cuh", "cub/thread/thread_reduce.cuh", "cub/thread/thread_scan.cuh",
    "cub/thread/thread_search.cuh", "cub/thread/thread_sort.cuh", "cub/thread/thread_store.cuh",
    "cub/warp/warp_exchange.cuh", "cub/warp/warp_load.cuh", "cub/warp/warp_merge_sort.cuh", "cub/warp/warp_reduce.cuh",
    "cub/warp/warp_scan.cuh", "cub/warp/warp_store.cuh",
    "cub/iterator/arg_index_input_iterator.cuh", "cub/iterator/cache_modified_input_iterator.cuh",
    "cub/iterator/cache_modified_output_iterator.cuh", "cub/iterator/tex_obj_input_iterator.cuh",
    "cub/util_debug.cuh", "cub/util_device.cuh", "cub/util_ptx.cuh", "cub/util_temporary_storage.cuh", "cub/util_type.cuh",
};

std::string build_declarations() {
    std::string text =
        "namespace cub {\n"
        "namespace kplay_refused {\n"
        "template <class... Args> struct never {\n"
        "    static constexpr bool value = false;\n"
        "};\n"
        "struct AnyResult {  // what the caller assigns the result to, so the refusal is the only error\n"
        "    template <class T> __host__ __device__ operator T() const { return T(); }\n"
        "};\n"
        "}  // namespace kplay_refused\n"
        "#define KPLAY_CUB_REFUSED(owner, name)                                                                       \\\n"
        "    template <class... Args> __host__ __device__ static ::cub::kplay_refused::AnyResult name(Args&&...) {   \\\n"
        "        static_assert(::cub::kplay_refused::never<Args...>::value, \"cub::\" #owner \"::\" #name KPLAY_CUB_REFUSAL); \\\n"
        "        return {};                                                                                          \\\n"
        "    }\n"
        "#define KPLAY_CUB_REFUSAL \"";
    text += kSentence;
    for (const char c : cub_device_wide_advice()) {
        if (c == '"' || c == '\\') text += '\\';
        text += c;
    }
    text += "\"\n";
    for (const DeviceWideClass& owner : device_wide_classes()) {
        text += std::string("struct ") + owner.name + " {\n";
        for (const char* member : owner.members) text += std::string("    KPLAY_CUB_REFUSED(") + owner.name + ", " + member + ")\n";
        text += "};\n";
    }
    text += "#undef KPLAY_CUB_REFUSAL\n#undef KPLAY_CUB_REFUSED\n}  // namespace cub\n";
    return text;
}

// "... at line 12 of kernels/k.cu" in a diagnostic's context: the first such place, the innermost call.
bool instantiation_place(const std::string& context, std::string& file, int& line) {
    for (const std::string_view text : split_lines(context)) {
        const size_t at = text.find(" at line ");
        if (at == std::string_view::npos) continue;
        const std::string_view rest = text.substr(at + 9);
        const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), line);
        const std::string_view of = std::string_view(end, static_cast<size_t>(rest.data() + rest.size() - end));
        if (error != std::errc() || of.substr(0, 4) != " of ") continue;
        file = std::string(of.substr(4));
        return true;
    }
    return false;
}

}  // namespace

const std::string& cub_device_wide_advice() {
    static const std::string advice =
        "Use CUB's block and warp primitives inside the kernel (cub::BlockReduce, cub::BlockScan, cub::BlockRadixSort, cub::WarpReduce, "
        "...), and for a whole-array result a task of several launches (one // kplay-launch: line for each pass; README, \"A task of "
        "several launches\").";
    return advice;
}

const std::string& cub_device_wide_declarations() {
    static const std::string text = build_declarations();
    return text;
}

const char* cub_umbrella_stand_in() {
    static const std::string text = [] {
        std::string all =
            "// <cub/cub.cuh> as kplay hands it to NVRTC: CUB's block, warp, thread, grid, iterator and utility headers, and its\n"
            "// device-wide classes with members that refuse a call by name.\n"
            "#pragma once\n";
        for (const char* header : kUmbrellaHeaders)
            ((((all += "#if __has_include(<") += header) += ">)\n#include <") += header) += ">\n#endif\n";
        return all + cub_device_wide_declarations();
    }();
    return text.c_str();
}

void place_cub_refusals(std::vector<Diagnostic>& diagnostics, std::string_view source, const std::string& source_path) {
    constexpr std::string_view kAssertion = "static assertion failed with \"";
    for (Diagnostic& diagnostic : diagnostics) {
        if (diagnostic.file != "cub/cub.cuh" || diagnostic.message.find(kSentence) == std::string::npos) continue;
        std::string file;
        int line = 0;
        if (!instantiation_place(diagnostic.context, file, line)) continue;
        std::string message = diagnostic.message;
        if (message.rfind(kAssertion, 0) == 0 && message.size() > kAssertion.size() && message.back() == '"')
            message = message.substr(kAssertion.size(), message.size() - kAssertion.size() - 1);
        diagnostic.file = file;
        diagnostic.line = line;
        diagnostic.column = 0;
        diagnostic.source_line.clear();
        diagnostic.message = message;
        diagnostic.context.clear();
        const std::vector<std::string_view> lines = split_lines(source);
        if (file != source_path || line < 1 || line > static_cast<int>(lines.size())) continue;
        diagnostic.source_line = std::string(lines[static_cast<size_t>(line - 1)]);
        // The column of the class's name ("cub::DeviceReduce::Sum is ..." names it after "cub::").
        const std::string owner = message.substr(5, message.find("::", 5) - 5);
        const size_t column = diagnostic.source_line.find(owner);
        if (column != std::string::npos) diagnostic.column = static_cast<int>(column + 1);
    }
}

}  // namespace kplay
