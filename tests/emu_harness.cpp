// Building and launching one kernel on the emulated device for the tests.
#include "emu_harness.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "emu/emu_source.hpp"
#include "emu/host_compiler.hpp"
#include "emu/shared_object_check.hpp"

namespace kplay::test {

std::string emu_kernel(const std::string& name) {
    const std::string text = read_file(data_dir() / "emu" / name);
    EXPECT_FALSE(text.empty()) << "missing tests/data/emu/" << name;
    return text;
}

EmuKernel::EmuKernel(const std::string& source, const std::string& kernel, const std::vector<std::string>& include_dirs, bool track)
    : track_(track) {
    try {
        HostBuildRequest build;
        build.source = prepare_emulated_source(source, "emu/test.cu", {kernel});
        build.source_path = (dir_.path() / "test.cu").string();
        build.emu_include_dir = emulated_include_dir();
        build.include_dirs = include_dirs;
        build.track = track;
        build.cache_dir = dir_.path();
        const HostBuildResult result = build_with_host_compiler(build);
        diagnostics_ = result.diagnostics;
        if (!result.ok) return;
        shared_object_ = result.shared_object;
        check_shared_object_is_confined(shared_object_, "test.cu", /*sanitized=*/track);  // instrumented, as the device checks it
        built_ = true;
    } catch (const InputError& error) {
        diagnostics_ = error.what();
    }
}

void* EmuKernel::add_buffer(const std::string& name, size_t bytes, size_t element) {
    buffers_.emplace_back(bytes);
    void* data = buffers_.back().data();
    labels_.push_back({name, element == 4 ? "float" : "element", element, reinterpret_cast<uintptr_t>(data), bytes,
                       buffers_.back().mapping_begin(), buffers_.back().mapping_end()});
    return data;
}

EmulatedLaunchResult EmuKernel::launch(std::vector<void*> args, const Launch& launch) const {
    EXPECT_TRUE(built_) << diagnostics_;
    EmulatedLaunchRequest request;
    request.shared_object = shared_object_;
    request.entry_symbol = emulated_entry_symbol(0);
    request.geometry = {launch.grid, launch.block};
    request.dynamic_smem = launch.dynamic_smem;
    request.args = std::move(args);
    request.buffers = labels_;
    request.order = launch.order;
    request.seed = launch.seed;
    request.cooperative = launch.cooperative;
    request.timeout_s = launch.timeout_s;
    request.track = track_;
    if (track_) request.shared_arrays = read_shared_arrays(shared_object_);  // its __shared__ arrays are tracked too
    request.workers = launch.workers;
    request.runtime_headers = emulated_include_dir().string();  // a message's lines are the kernel's
    return run_emulated_launch(request);
}

}  // namespace kplay::test
