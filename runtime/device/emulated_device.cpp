// The CPU side of a run: host compile -> confine -> guarded buffers -> sandboxed launches.
#include "device/emulated_device.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "base/error.hpp"
#include "base/fingerprint.hpp"
#include "base/text.hpp"
#include "device/constant_fill.hpp"
#include "emu/emu_source.hpp"
#include "emu/emulated_launch.hpp"
#include "emu/emulated_limits.hpp"
#include "emu/guarded_memory.hpp"
#include "emu/host_compiler.hpp"
#include "emu/include/kplay_texture_abi.h"
#include "emu/message_names.hpp"
#include "emu/sanitizer_runtime.hpp"
#include "emu/shared_object_check.hpp"
#include "emu/tracked_launch.hpp"
#include "kernel_file/index_story.hpp"

namespace kplay {

namespace {

class EmulatedBuild final : public LoadedKernel {
public:
    std::filesystem::path shared_object;  // the one launched (the sanitized build in thorough mode)
    size_t entry = 0;                     // which of the file's kernels: kplay_emu_entry_<entry>
    // The __constant__ arrays the run fills, by accessor index: name, sizeof, and the content to copy in.
    std::vector<std::string> constant_names;
    std::vector<size_t> constant_sizes;
    std::vector<std::vector<unsigned char>> constant_values;
    bool tracked = false;                        // the tracked build (kplay_emu_track.h) is the one launched
    std::string source_text;                     // the kernel's text, for how a written index came about
    std::string source_path;                     // as the request names it: the lines counted are this file's
    std::filesystem::path plain_object;          // the untracked build, which reports a failed launch
    std::vector<SharedArraySymbol> shared_arrays;  // its __shared__ arrays, to name them in a race
};

class EmulatedBuffers final : public DeviceBuffers {
public:
    EmulatedBuffers(const std::vector<BufferShape>& shapes, GuardEdge edge) {
        for (const auto& shape : shapes) {
            buffers_.emplace_back(shape.bytes, edge == GuardEdge::end ? GuardedBuffer::Edge::end : GuardedBuffer::Edge::start);
            const GuardedBuffer& buffer = buffers_.back();
            const size_t size = element_size(shape.type);
            labels_.push_back({shape.name, element_c_name(shape.type), size,
                               reinterpret_cast<uintptr_t>(buffer.data()), shape.bytes, buffer.mapping_begin(), buffer.mapping_end()});
            sizes_.push_back(size);
        }
    }
    uint64_t address(size_t index) const override { return reinterpret_cast<uint64_t>(buffers_.at(index).data()); }
    void write(size_t index, const void* data, size_t bytes) override { std::memcpy(buffers_.at(index).data(), data, bytes); }
    void read(size_t index, void* data, size_t bytes) override { std::memcpy(data, buffers_.at(index).data(), bytes); }
    uint64_t fingerprint(size_t index) override { return fingerprint_bytes(buffers_.at(index).data(), buffers_.at(index).size()); }
    void fill(size_t index, uint32_t word) override {
        GuardedBuffer& buffer = buffers_.at(index);
        if (sizes_.at(index) == 1) {
            std::memset(buffer.data(), static_cast<int>(word & 0xFF), buffer.size());
            return;
        }
        unsigned char pattern[4];
        std::memcpy(pattern, &word, 4);
        for (size_t i = 0; i < buffer.size(); ++i) buffer.data()[i] = pattern[i % 4];
    }
    const std::vector<BufferLabel>& labels() const { return labels_; }

private:
    std::vector<GuardedBuffer> buffers_;
    std::vector<BufferLabel> labels_;
    std::vector<size_t> sizes_;
};

// Parameter sizes from the entry kplay generated, so the binding is checked as on a GPU. Loading is
// safe here: the object passed the symbol check and has no constructors, so nothing of it runs but
// this one generated function.
std::vector<ParamLayout> emulated_params(const std::filesystem::path& shared_object, size_t entry) {
    void* handle = dlopen(shared_object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw InputError(std::string("Cannot load the emulated kernel: ") + dlerror());
    auto params = reinterpret_cast<int (*)(unsigned long*, int)>(dlsym(handle, emulated_params_symbol(entry).c_str()));
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

// Each __constant__ array's sizeof, from the accessors kplay generated (safe to call, as emulated_params).
std::vector<size_t> emulated_constant_sizes(const std::filesystem::path& shared_object, size_t count) {
    std::vector<size_t> sizes;
    if (count == 0) return sizes;
    void* handle = dlopen(shared_object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw InputError(std::string("Cannot load the emulated kernel: ") + dlerror());
    for (size_t i = 0; i < count; ++i) {
        auto accessor = reinterpret_cast<void* (*)(unsigned long*)>(dlsym(handle, emulated_constant_symbol(i).c_str()));
        unsigned long bytes = 0;
        if (accessor) accessor(&bytes);
        sizes.push_back(bytes);
    }
    dlclose(handle);
    return sizes;
}

}  // namespace

double emulated_time_budget(double timeout_s, const LaunchConfig& launch) {
    const double threads = static_cast<double>(launch.grid.x) * launch.grid.y * launch.grid.z * launch.block.x * launch.block.y * launch.block.z;
    return timeout_s * std::max(1.0, threads / kEmulatedThreadsPerBudget);
}

const char* element_c_name(ElementType type) {
    switch (type) {
        case ElementType::u8: return "byte";
        case ElementType::i32: return "int";
        case ElementType::u32: return "unsigned";
        case ElementType::f16: return "half";
        case ElementType::f32: return "float";
        case ElementType::f64: return "double";
        case ElementType::i8: return "int8_t";
        case ElementType::i64: return "int64_t";
        case ElementType::bf16: return "__nv_bfloat16";
        case ElementType::fp8_e4m3: return "__nv_fp8_e4m3";
        case ElementType::fp8_e5m2: return "__nv_fp8_e5m2";
    }
    return "element";
}

EmulatedDevice::EmulatedDevice(EmulationSettings settings)
    : settings_(std::move(settings)),
      info_(emulated_device_info(settings_.thorough ? 1 : settings_.workers > 0 ? settings_.workers : default_emulation_workers())) {
    // One worker in thorough mode: the sanitizers' reports then belong to one thread at a time.
    if (settings_.thorough) settings_.workers = 1;
    // One worker under a debugger: one block at a time, so a block's __shared__ arrays (thread-local
    // storage) are the stopped thread's, and a breakpoint's hits come in a fixed order.
    if (settings_.debug) settings_.workers = 1;
}

std::vector<std::unique_ptr<LoadedKernel>> EmulatedDevice::load(const KernelSource& source) {
    // NVRTC has accepted the source; the same text now becomes one shared object with an entry per kernel.
    HostBuildRequest build;
    build.source = prepare_emulated_source(source.source, kernel_file_name(source.path.string()), source.kernels, source.constants);
    build.source_path = source.path.string();
    build.defines = source.defines;
    build.include_dirs = source.include_dirs;
    if (!settings_.kernels_include_dir.empty()) build.include_dirs.push_back(settings_.kernels_include_dir.string());
    if (settings_.emu_include_dir.empty())
        throw InputError("The emulated device's prelude (runtime/emu/include/kplay_emu_prelude.h) was not found; set KPLAY_EMU_INCLUDE to its folder.");
    build.emu_include_dir = settings_.emu_include_dir;
    build.cache_dir = settings_.cache_dir;
    build.debug = settings_.debug;
    const HostBuildResult built = build_with_host_compiler(build);
    if (!built.ok)
        throw InputError("NVRTC accepted the kernel, but the host compiler could not build it for the emulated CPU device:\n" +
                         built.diagnostics.substr(0, 4000));
    if (settings_.symbol_check) check_shared_object_is_confined(built.shared_object, source.path.string());
    auto kernel = std::make_unique<EmulatedBuild>();
    kernel->host_compile_ms = built.compile_ms;
    kernel->host_compile_cached = built.cache_hit;
    kernel->shared_object = built.shared_object;
    // Thorough mode: the same source again with the sanitizers. The plain object above has proved the
    // source has no constructors of its own (the instrumented one gets ASan's), and keeps serving the
    // parameter table, so nothing of the instrumented object runs outside a launch process.
    if (settings_.thorough) {
        if (!sanitizer_runtime_loaded())
            throw InputError("Thorough mode needs a kplay-worker started with the AddressSanitizer runtime preloaded "
                             "(kplay-worker --thorough; kplay-cli --thorough and the window's Device menu start one); this process has none.");
        build.sanitize = true;
        const HostBuildResult sanitized = build_with_host_compiler(build);
        kernel->host_compile_ms += sanitized.compile_ms;
        if (!sanitized.ok)
            throw InputError("The host compiler could not build the kernel with AddressSanitizer and UBSan:\n" + sanitized.diagnostics.substr(0, 4000));
        if (settings_.symbol_check) check_shared_object_is_confined(sanitized.shared_object, source.path.string(), /*sanitized=*/true);
        kernel->shared_object = sanitized.shared_object;
    } else if (settings_.track) {
        // Tracked: the same source with every load and store reported. As for thorough mode, the plain
        // object has proved there are no constructors of the user's (the instrumentation adds one that
        // does nothing: kplay_emu_track.h's __tsan_init).
        build.track = true;
        const HostBuildResult tracked = build_with_host_compiler(build);
        kernel->host_compile_ms += tracked.compile_ms;
        if (!tracked.ok)
            throw InputError("The host compiler could not build the kernel with its memory accesses tracked (for races):\n" +
                             tracked.diagnostics.substr(0, 4000) + "\nRun without tracking: kplay-cli --no-track, or the Device menu.");
        if (settings_.symbol_check) check_shared_object_is_confined(tracked.shared_object, source.path.string(), /*sanitized=*/true);
        kernel->shared_object = tracked.shared_object;
        kernel->tracked = true;
        kernel->plain_object = built.shared_object;
        kernel->shared_arrays = read_shared_arrays(tracked.shared_object);
    }
    std::vector<std::unique_ptr<LoadedKernel>> kernels;
    for (size_t entry = 0; entry < source.kernels.size(); ++entry) {
        auto loaded = std::make_unique<EmulatedBuild>();
        loaded->shared_object = kernel->shared_object;
        loaded->tracked = kernel->tracked;
        loaded->source_text = source.source;
        loaded->source_path = source.path.string();
        loaded->plain_object = kernel->plain_object;
        loaded->shared_arrays = kernel->shared_arrays;
        loaded->entry = entry;
        loaded->host_compile_cached = kernel->host_compile_cached;
        if (entry == 0) loaded->host_compile_ms = kernel->host_compile_ms;  // one build served them all
        loaded->attributes.params = emulated_params(built.shared_object, entry);
        loaded->constant_names = source.constants;
        loaded->constant_sizes = emulated_constant_sizes(built.shared_object, source.constants.size());
        loaded->constant_values.resize(source.constants.size());
        loaded->attributes.max_threads_per_block = info_.limits.max_threads_per_block;
        kernels.push_back(std::move(loaded));
    }
    return kernels;
}

std::string emulated_device_refusal(const KernelSpec& spec, const std::string& file) {
    const std::vector<std::string> features = spec.gpu_only_features();
    if (features.empty()) return {};
    return file + " asks for what only a GPU has: " + join(features) +
           ". The emulated CPU device runs CUDA C++ on host threads and has no architecture-specific instructions (wgmma, "
           "setmaxnreg), no thread block clusters and no tensor memory accelerator (TMA). Run it on a GPU: pick one in the Device "
           "menu, run kplay-cli with --device N instead of --device cpu, or use --remote HOST.";
}

void EmulatedDevice::write_constant(LoadedKernel& kernel, const std::string& name, const void* data, size_t bytes) {
    auto& build = static_cast<EmulatedBuild&>(kernel);
    const auto found = std::find(build.constant_names.begin(), build.constant_names.end(), name);
    if (found == build.constant_names.end())
        throw InputError("kplay-constant " + name + ": the emulated kernel was built without it (kplay builds one accessor per kplay-constant line).");
    const auto index = static_cast<size_t>(found - build.constant_names.begin());
    if (build.constant_sizes[index] != bytes) throw InputError(constant_size_problem(name, build.constant_sizes[index], bytes));
    const auto* begin = static_cast<const unsigned char*>(data);
    build.constant_values[index].assign(begin, begin + bytes);
}

TensorMapBytes EmulatedDevice::encode_tensor_map(const TensorMapPlan& plan, uint64_t) {
    throw InputError("kplay-tma " + plan.name + ": the emulated CPU device has no tensor memory accelerator (TMA); run the kernel on a GPU.");
}

namespace {

int image_format(ElementType type) {
    switch (type) {
        case ElementType::u8: return KPLAY_IMAGE_U8;
        case ElementType::i8: return KPLAY_IMAGE_I8;
        case ElementType::u32: return KPLAY_IMAGE_U32;
        case ElementType::i32: return KPLAY_IMAGE_I32;
        case ElementType::f16: return KPLAY_IMAGE_F16;
        default: return KPLAY_IMAGE_F32;  // the plan allows no other
    }
}

// The kernel's handle is the address of this, in the worker's memory, which each launch process inherits.
class EmulatedImage final : public BoundImage {
public:
    kplay_image image{};
};

}  // namespace

std::unique_ptr<BoundImage> EmulatedDevice::bind_image(const TexturePlan& plan, DeviceBuffers& buffers) {
    auto bound = std::make_unique<EmulatedImage>();
    kplay_image& image = bound->image;
    const TextureDecl& decl = plan.decl;
    image.magic = KPLAY_IMAGE_MAGIC;
    image.surface = decl.kind == ImageKind::surface;
    image.format = image_format(plan.type);
    image.channels = decl.channels;
    image.dims = decl.dims();
    image.layered = plan.layers > 0;
    image.in_array = decl.in_array() || decl.dims() > 1;
    image.filter = decl.filter == TextureFilter::linear ? KPLAY_FILTER_LINEAR : KPLAY_FILTER_POINT;
    image.address = static_cast<int>(decl.address);  // clamp, wrap, mirror, border in both
    image.normalized = decl.normalized;
    image.read_normalized = decl.read == TextureRead::normalized_float;
    image.width = plan.extent[0];
    image.height = plan.extent[1];
    image.depth = plan.extent[2];
    image.layers = plan.layers > 0 ? plan.layers : 1;
    image.data = reinterpret_cast<unsigned char*>(buffers.address(static_cast<size_t>(plan.buffer)));
    std::snprintf(image.name, sizeof image.name, "%s", decl.name.c_str());
    bound->handle = reinterpret_cast<uint64_t>(&image);
    return bound;
}

std::unique_ptr<LoadedKernel> EmulatedDevice::library(Baseline, GemmTypes) {
    throw InputError("cuBLAS rows need a CUDA device; the emulated CPU device runs kernel files only.");
}

std::unique_ptr<DeviceBuffers> EmulatedDevice::allocate(const std::vector<BufferShape>& buffers, GuardEdge edge) {
    return std::make_unique<EmulatedBuffers>(buffers, edge);
}

LaunchOutcome EmulatedDevice::launch(const std::vector<DeviceLaunch>& launches, DeviceBuffers& buffers) {
    // One launch process per kernel, in order; their times add up, and the first failure ends the run
    // with the launch it happened in named when there are several.
    LaunchOutcome total;
    if (!settings_.writer_map.empty()) {
        const std::vector<BufferLabel> labels = static_cast<EmulatedBuffers&>(buffers).labels();
        std::string names;
        for (const BufferLabel& label : labels) names += (names.empty() ? "" : ", ") + label.name;
        if (std::none_of(labels.begin(), labels.end(), [&](const BufferLabel& label) { return label.name == settings_.writer_map; }))
            total.warnings.push_back("no buffer named '" + settings_.writer_map + "' to map the writers of (the task's buffers: " + names + ")");
    }
    for (size_t i = 0; i < launches.size(); ++i) {
        LaunchOutcome outcome = launch_one(launches[i], buffers);
        total.ms += outcome.ms;
        total.printf_lines.insert(total.printf_lines.end(), outcome.printf_lines.begin(), outcome.printf_lines.end());
        total.printf_dropped += outcome.printf_dropped;
        total.warnings.insert(total.warnings.end(), outcome.warnings.begin(), outcome.warnings.end());
        total.races.insert(total.races.end(), outcome.races.begin(), outcome.races.end());
        total.line_access.insert(total.line_access.end(), outcome.line_access.begin(), outcome.line_access.end());
        // A later launch's writes replace an earlier one's: the element holds what it wrote.
        for (const ElementWriter& writer : outcome.writers) {
            auto same = std::find_if(total.writers.begin(), total.writers.end(), [&](const ElementWriter& w) {
                return w.element.buffer == writer.element.buffer && w.element.index == writer.element.index;
            });
            if (same == total.writers.end()) total.writers.push_back(writer);
            else if (writer.written) *same = writer;
        }
        // The map is of the last launch that wrote into the buffer: its threads are the ones numbered.
        if (std::any_of(outcome.writer_map.cells.begin(), outcome.writer_map.cells.end(), [](const WriterCell& c) { return c.thread != 0; }))
            total.writer_map = std::move(outcome.writer_map);
        for (const BufferWrites& writes : outcome.writes) {
            auto same = std::find_if(total.writes.begin(), total.writes.end(), [&](const BufferWrites& w) { return w.buffer == writes.buffer; });
            if (same == total.writes.end()) total.writes.push_back(writes);
            else if (writes.written > 0) *same = writes;
        }
        if (!outcome.ok) {
            total.ok = false;
            total.error = launches.size() > 1 ? "Launch " + std::to_string(i + 1) + " of " + std::to_string(launches.size()) + " (" +
                                                    launches[i].name + "): " + outcome.error
                                              : outcome.error;
            total.error_code = outcome.error_code;
            total.line = outcome.line;
            total.fault = outcome.fault;
            return total;
        }
    }
    return total;
}

LaunchOutcome EmulatedDevice::launch_one(const DeviceLaunch& item, DeviceBuffers& buffers) {
    const LaunchConfig& launch = *item.launch;
    const auto& kernel = static_cast<const EmulatedBuild&>(*item.kernel);
    EmulatedLaunchRequest request;
    request.shared_object = kernel.shared_object;
    request.thorough = settings_.thorough;
    request.entry_symbol = emulated_entry_symbol(kernel.entry);
    request.geometry.grid = {static_cast<unsigned>(launch.grid.x), static_cast<unsigned>(launch.grid.y), static_cast<unsigned>(launch.grid.z)};
    request.geometry.block = {static_cast<unsigned>(launch.block.x), static_cast<unsigned>(launch.block.y),
                              static_cast<unsigned>(launch.block.z)};
    request.dynamic_smem = static_cast<size_t>(launch.dynamic_smem);
    request.cooperative = launch.cooperative;
    request.order = settings_.order;
    request.seed = settings_.order_seed;
    request.workers = settings_.workers;
    request.timeout_s = emulated_time_budget(settings_.timeout_s, launch);
    // The sanitizers read /proc and write their reports when one fires: the filter would stop them, so
    // thorough launches rely on the symbol check and the separate process.
    request.sandbox = settings_.sandbox && !settings_.thorough && !settings_.debug;
    request.debug = settings_.debug;
    if (settings_.debug) request.timeout_s = 1e9;  // a thread stopped in gdb is not an endless loop
    request.args = *item.args;
    request.track = kernel.tracked;
    request.shared_arrays = kernel.shared_arrays;
    request.runtime_headers = settings_.emu_include_dir.string();
    request.who_wrote = settings_.who_wrote;
    request.writer_map = settings_.writer_map;
    request.buffers = static_cast<EmulatedBuffers&>(buffers).labels();
    for (size_t i = 0; i < kernel.constant_names.size(); ++i)
        if (!kernel.constant_values[i].empty())
            request.constants.push_back({emulated_constant_symbol(i), kernel.constant_names[i], kernel.constant_values[i]});
    EmulatedLaunchResult result = run_emulated_launch(request);
    if (kernel.tracked && !result.ok) {
        // A launch that failed is reported by the plain build: its fault, at its speed (the instrumented
        // code faults elsewhere than the user's, and runs slower against the same time budget). The races
        // the tracked launch saw before it failed come first: they are the likely cause.
        std::vector<Race> races_before = std::move(result.races);
        const bool dropped = result.races_dropped;
        request.shared_object = kernel.plain_object;
        request.track = false;
        request.who_wrote.clear();
        request.writer_map.clear();
        result = run_emulated_launch(request);
        if (!races_before.empty() && !result.ok) {
            std::string then = result.error;
            // "Deadlock: ..." reads on as "then deadlock: ..."; an acronym ("CUDA") keeps its case.
            if (then.size() > 1 && std::isupper(static_cast<unsigned char>(then[0])) && std::islower(static_cast<unsigned char>(then[1])))
                then[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(then[0])));
            result.error = "A race came first, the likely cause: " + describe_race(races_before.front()) + ". Then " + then;
        }
        result.races = std::move(races_before);
        result.races_dropped = dropped;
    }
    LaunchOutcome outcome;
    outcome.ok = result.ok;
    outcome.ms = result.kernel_ms;
    outcome.error = result.error;
    outcome.error_code = result.error_code;
    outcome.line = result.line;
    outcome.printf_lines = result.printf_lines;
    outcome.printf_dropped = result.printf_dropped;
    outcome.warnings = result.warnings;
    for (Race race : result.races) {
        race.kernel = item.name;
        outcome.races.push_back(std::move(race));
    }
    outcome.writes = result.writes;
    if (kernel.tracked && !result.line_access.lines.empty()) {
        outcome.line_access.push_back(result.line_access);
        outcome.line_access.back().kernel = item.name;
        // addr2line names the file as messages do ("transpose/01_naive.cu"); the window looks lines up by its path.
        for (LineAccess& line : outcome.line_access.back().lines)
            if (line.file == kernel_file_name(kernel.source_path)) line.file = kernel.source_path;
    }
    for (ElementWriter writer : result.writers) {
        if (writer.written && writer.line > 0) {
            writer.index_story =
                index_story(kernel.source_text, writer.line, thread_values(writer.block, writer.thread, launch.block, launch.grid));
        }
        outcome.writers.push_back(std::move(writer));
    }
    if (!result.writer_map.empty()) {
        outcome.writer_map = std::move(result.writer_map);
        outcome.writer_map.buffer = settings_.writer_map;
        outcome.writer_map.kernel = item.name;
        outcome.writer_map.grid = launch.grid;
        outcome.writer_map.block = launch.block;
        for (WriterSite& site : outcome.writer_map.sites)
            if (site.line > 0 && site.file == kernel_file_name(kernel.source_path)) site.recipe = index_recipe(kernel.source_text, site.line);
    }
    if (result.races_dropped) outcome.warnings.push_back("more pairs of lines raced than the " + std::to_string(RaceSlots::kSlots) + " reported");
    if (kernel.tracked && launch.cooperative) outcome.warnings.push_back("a cooperative launch is not checked for races (its blocks run at once)");
    return outcome;
}

}  // namespace kplay
