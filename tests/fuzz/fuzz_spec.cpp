// libFuzzer target: the kernel-spec annotation parser, the task declarations (kplay-task, -sizes,
// -buffer, -cost, -launch lines) and the sweep lines (kplay-sweep: the space, resolved against the spec,
// its points and restrictions), as kplay reads a kernel file. InputError is the documented failure.
//
// The input's first line names the kernel file's folder under kernels_src (which sets the built-in task
// and where `#include "reference.h"` is found); the rest is the file. A first line that is not a plain
// lower-case name puts the file in a folder that does not exist.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/task_declaration.hpp"
#include "sweep/sweep_space.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const size_t newline = input.find('\n');
    const std::string_view folder = input.substr(0, newline);
    const std::string_view source = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
    const bool plain = !folder.empty() && folder.size() <= 32 &&
                       std::all_of(folder.begin(), folder.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
    const std::filesystem::path path =
        std::filesystem::path(KPLAY_FUZZ_KERNELS_DIR) / (plain ? std::string(folder) : "no_such_folder") / "fuzz_input.cu";
    try {
        (void)kplay::find_annotation(source);
    } catch (const kplay::InputError&) {
    }
    try {
        std::vector<std::string> notes;
        (void)kplay::parse_task_declaration(source, path, &notes);
    } catch (const kplay::InputError&) {
    }
    try {
        const kplay::KernelSpec spec = kplay::resolve_kernel_spec(source, path);
        (void)spec.declaration();
        (void)spec.kernel_expressions();
        if (auto space = kplay::find_sweep_lines(source, "fuzz_input.cu")) {
            kplay::resolve_sweep_params(*space, spec);
            // A few points spread over the space: first, last and between (sizes saturate, so no loop over all).
            const uint64_t size = space->size();
            for (const uint64_t index : {uint64_t{0}, size / 2, size - 1}) {
                const kplay::SweepPoint point = kplay::point_at(*space, index);
                (void)kplay::point_label(*space, point);
                (void)kplay::restriction_broken(*space, point, kplay::point_names(*space, point));
            }
        }
    } catch (const kplay::InputError&) {
    }
    return 0;
}
