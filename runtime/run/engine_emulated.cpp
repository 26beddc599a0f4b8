// The emulated CPU device's run path: host compile -> confine -> inputs in guarded buffers -> bind ->
// two launches in sandboxed processes (different poison) -> the same check as on a GPU.
#include <dlfcn.h>

#include <chrono>
#include <cstring>

#include "emu/emulated_device.hpp"
#include "emu/emulated_launch.hpp"
#include "emu/emu_source.hpp"
#include "emu/host_compiler.hpp"
#include "emu/message_names.hpp"
#include "emu/sanitizer_runtime.hpp"
#include "emu/shared_object_check.hpp"
#include "run/engine.hpp"
#include "run/engine_stages.hpp"
#include "base/error.hpp"

namespace kplay {

namespace {

// Parameter sizes from the entry kplay generated, so the binding is checked as on a GPU. Loading is
// safe here: the object passed the symbol check and has no constructors, so nothing of it runs but
// this one generated function.
std::vector<ParamLayout> emulated_params(const std::filesystem::path& shared_object, size_t index) {
    void* handle = dlopen(shared_object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw InputError(std::string("Cannot load the emulated kernel: ") + dlerror());
    auto params = reinterpret_cast<int (*)(unsigned long*, int)>(dlsym(handle, emulated_params_symbol(index).c_str()));
    std::vector<ParamLayout> layout;
    if (params) {
        unsigned long sizes[64];
        const int count = params(sizes, 64);
        size_t offset = 0;
        for (int i = 0; i < count && i < 64; ++i) {
            const size_t size = sizes[i];
            const size_t align = size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
            offset = (offset + align - 1) / align * align;
            layout.push_back({offset, size});
            offset += size;
        }
    }
    dlclose(handle);
    if (!params) throw InputError("The emulated kernel lacks its parameter table (a stale build?).");
    return layout;
}

void fill_poison(const HostBuffer& host, GuardedBuffer& buffer, int launch_index) {
    const uint32_t pattern = host.poison[launch_index % 2];
    if (host.type == ElementType::u8) {
        std::memset(buffer.data(), static_cast<int>(pattern & 0xff), host.bytes());
    } else {
        for (size_t i = 0; i + 4 <= host.bytes(); i += 4) std::memcpy(buffer.data() + i, &pattern, 4);
    }
}

}  // namespace

void Engine::run_emulated_stages(const RunRequest& request, RunReport& report, const KernelSpec& spec, const std::string& source,
                                 const Task& task) {
    report.emulated = true;
    report.thread_order = request.thread_order;
    const ThreadOrder order = parse_thread_order(request.thread_order);

    // Host compile: NVRTC has accepted the source; the same text now becomes a shared object.
    report.stage = "compile";
    progress("compile");
    HostBuildRequest build;
    build.source = prepare_emulated_source(source, kernel_file_name(request.kernel_path.string()), {spec.kernel});
    build.source_path = request.kernel_path.string();
    build.defines = spec.defines;
    if (!config_.kernels_include_dir.empty()) build.include_dirs.push_back(config_.kernels_include_dir.string());
    if (config_.emu_include_dir.empty())
        throw InputError("The emulated device's prelude (runtime/emu/include/kplay_emu_prelude.h) was not found; set KPLAY_EMU_INCLUDE to its folder.");
    build.emu_include_dir = config_.emu_include_dir;
    build.cache_dir = config_.cache_dir;
    const HostBuildResult built = build_with_host_compiler(build);
    report.host_compile_ms = built.compile_ms;
    report.host_compile_cached = built.cache_hit;
    if (!built.ok) {
        report.error = "NVRTC accepted the kernel, but the host compiler could not build it for the emulated CPU device:\n" +
                       built.diagnostics.substr(0, 4000);
        return;
    }
    if (request.emulation_symbol_check) check_shared_object_is_confined(built.shared_object, request.kernel_path.string());
    // Thorough mode: the same source again with the sanitizers. The plain object above has proved the
    // source has no constructors of its own (the instrumented one gets ASan's), and keeps serving the
    // parameter table, so nothing of the instrumented object runs outside a launch process.
    std::filesystem::path launched_object = built.shared_object;
    report.thorough = request.emulation_thorough;
    if (request.emulation_thorough) {
        if (!sanitizer_runtime_loaded())
            throw InputError("Thorough mode needs a kplay-worker started with the AddressSanitizer runtime preloaded "
                             "(kplay-cli --thorough and the window's Device menu start one); this process has none.");
        build.sanitize = true;
        const HostBuildResult sanitized = build_with_host_compiler(build);
        report.host_compile_ms += sanitized.compile_ms;
        if (!sanitized.ok) {
            report.error = "The host compiler could not build the kernel with AddressSanitizer and UBSan:\n" + sanitized.diagnostics.substr(0, 4000);
            return;
        }
        if (request.emulation_symbol_check)
            check_shared_object_is_confined(sanitized.shared_object, request.kernel_path.string(), /*sanitized=*/true);
        launched_object = sanitized.shared_object;
    }

    // Device and inputs.
    report.stage = "device";
    // One worker in thorough mode: the sanitizers' reports then belong to one thread at a time.
    const int workers = request.emulation_thorough ? 1 : request.emulation_workers > 0 ? request.emulation_workers : default_emulation_workers();
    const DeviceInfo device = emulated_device_info(workers);
    report.device = device;
    report.stage = "inputs";
    progress("cpu");
    const auto inputs_start = std::chrono::steady_clock::now();
    InputRequest inputs = request.inputs;
    if (inputs.size.empty() && task.name() == "matmul") inputs.size = std::to_string(kEmulatedMatmulSize);
    TaskData data = make_inputs_cached(task, inputs);
    report.inputs_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - inputs_start).count();
    report.input_description = data.description;

    // Launch configuration, against CUDA's limits.
    report.stage = "launch";
    report.function.params = emulated_params(built.shared_object, 0);
    report.function.max_threads_per_block = device.limits.max_threads_per_block;
    NamedValues names;
    const LaunchConfig launch = resolve_launch(request, spec, task, data, device, &report.function, names, report);
    if (launch.dynamic_smem > device.limits.max_smem_per_block_optin)
        throw InputError("Invalid launch configuration:\n  - dynamic shared memory " + std::to_string(launch.dynamic_smem) +
                         " bytes; the emulated device allows at most " + std::to_string(device.limits.max_smem_per_block_optin) +
                         " (as the GPUs it mirrors)");

    // Buffers between guard pages, in two sets: the first launch has every buffer's end against its
    // guard (overruns are exact), the second its start (underruns are exact).
    report.stage = "run";
    std::vector<GuardedBuffer> buffers[2];
    std::vector<BufferLabel> labels[2];
    std::vector<BoundArgument> bound[2];  // the argument bytes the launches point at
    std::vector<void*> arg_pointers[2];
    for (int set = 0; set < 2; ++set) {
        std::map<std::string, uint64_t> pointers;
        for (const HostBuffer& host : data.buffers) {
            buffers[set].emplace_back(host.bytes(), set == 0 ? GuardedBuffer::Edge::end : GuardedBuffer::Edge::start);
            GuardedBuffer& buffer = buffers[set].back();
            if (!host.is_output) std::memcpy(buffer.data(), host.data.data(), host.bytes());
            pointers[host.name] = reinterpret_cast<uint64_t>(buffer.data());
            labels[set].push_back({host.name, host.type == ElementType::u8 ? "byte" : "float", element_size(host.type),
                                   reinterpret_cast<uintptr_t>(buffer.data()), host.bytes(), buffer.mapping_begin(), buffer.mapping_end()});
        }
        bound[set] = bind_arguments(spec.kernel, spec.args, names, pointers, report.function.params, spec.declaration());
        for (auto& argument : bound[set]) arg_pointers[set].push_back(argument.storage);
    }
    report.arguments = bound[0];
    EmulatedLaunchRequest launch_request;
    launch_request.shared_object = launched_object;
    launch_request.thorough = request.emulation_thorough;
    launch_request.entry_symbol = emulated_entry_symbol(0);
    launch_request.geometry.grid = {static_cast<unsigned>(launch.grid.x), static_cast<unsigned>(launch.grid.y),
                                    static_cast<unsigned>(launch.grid.z)};
    launch_request.geometry.block = {static_cast<unsigned>(launch.block.x), static_cast<unsigned>(launch.block.y),
                                     static_cast<unsigned>(launch.block.z)};
    launch_request.dynamic_smem = static_cast<size_t>(launch.dynamic_smem);
    launch_request.order = order;
    launch_request.seed = request.order_seed;
    launch_request.workers = workers;
    launch_request.timeout_s = request.emulation_timeout_s;
    // The sanitizers read /proc and write their reports when one fires: the filter would stop them, so
    // thorough launches rely on the symbol check and the separate process.
    launch_request.sandbox = request.emulation_sandbox && !request.emulation_thorough;

    // Two launches with different poison, so an unwritten element can never pass; both are timed.
    std::vector<HostBuffer> first_outputs;
    std::vector<double> samples;
    for (int launch_index = 0; launch_index < 2; ++launch_index) {
        for (size_t i = 0; i < data.buffers.size(); ++i)
            if (data.buffers[i].is_output) fill_poison(data.buffers[i], buffers[launch_index][i], launch_index);
        launch_request.args = arg_pointers[launch_index];
        launch_request.buffers = labels[launch_index];
        const EmulatedLaunchResult result = run_emulated_launch(launch_request);
        report.printf_lines = result.printf_lines;
        report.printf_dropped = result.printf_dropped;
        report.warnings = result.warnings;
        if (!result.ok) {
            report.error = result.error;
            report.error_code = result.error_code;
            report.error_line = result.line;
            return;
        }
        samples.push_back(result.kernel_ms);
        for (size_t i = 0; i < data.buffers.size(); ++i) {
            HostBuffer& host = data.buffers[i];
            if (!host.is_output) continue;
            host.data.assign(buffers[launch_index][i].data(), buffers[launch_index][i].data() + host.bytes());
            if (launch_index == 0) first_outputs.push_back(host);
        }
    }
    report.warmup = 0;
    report.kernel_ms = summarize_timings(samples);
    compute_rates(task, data, report);

    report.stage = "check";
    const double tolerance = request.tolerance ? *request.tolerance : spec.tolerance ? *spec.tolerance : -1.0;
    report.check = task.check(data, first_outputs, tolerance, request.keep_outputs);
    keep_outputs_for_window(request, spec, task, data, report);
    report.stage = "done";
}

}  // namespace kplay
