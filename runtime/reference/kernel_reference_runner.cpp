// A trusted kernel as the reference: another file's kernel, run on the emulated CPU device with the
// same inputs; its outputs are the expected ones.
#include <memory>

#include "device/constant_fill.hpp"
#include "base/cache_dir.hpp"
#include "base/text.hpp"
#include "device/emulated_device.hpp"
#include "reference/references.hpp"
#include "device/runner.hpp"
#include "kernel_file/include_dirs.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace {

std::filesystem::path reference_file(const ReferenceContext& context) {
    return context.path.parent_path() / context.spec->task.reference.file;
}

// The reference file's own include= folders, then the kernel's (include= beside the kernel, -I,
// KPLAY_INCLUDE_PATH): a reference written against the same header library builds as the kernel does.
std::vector<std::string> reference_include_dirs(const ReferenceContext& context, const KernelSpec& reference_spec) {
    const std::vector<std::string> kernel_dirs = kernel_include_dirs(*context.spec, context.path, context.request->include_dirs);
    return kernel_include_dirs(reference_spec, reference_file(context), kernel_dirs);
}

}  // namespace

std::string kernel_reference_code(const ReferenceContext& context) {
    const std::filesystem::path file = reference_file(context);
    try {
        std::string code = read_source_file(file);
        const std::optional<KernelSpec> build = file_build_settings(code, file);
        std::vector<std::filesystem::path> dirs;
        for (const std::string& dir : reference_include_dirs(context, build ? *build : KernelSpec{})) dirs.emplace_back(dir);
        for (const auto& header : find_included_files(code, file.parent_path(), dirs)) {
            std::string text;
            if (read_whole_file(header, text)) code += "\n// " + header.string() + "\n" + text;
        }
        return code;
    } catch (const InputError&) {
        return {};
    }
}

ExpectedOutputs run_kernel_reference(const ReferenceContext& context, const TaskData& data) {
    const ReferenceSpec& reference = context.spec->task.reference;
    const std::filesystem::path file = reference_file(context);
    const std::string name = reference.file + ":" + reference.kernel;
    try {
        const std::string source = read_source_file(file);
        KernelSpec spec = resolve_kernel_spec_for_task(source, file, context.spec->task);
        spec.kernel = reference.kernel;
        if (!spec.declaration())
            throw InputError("it has no kernel named '" + reference.kernel + "'");
        EmulationSettings settings;
        settings.emu_include_dir = context.emu_include_dir;
        settings.kernels_include_dir = context.kernels_include_dir;
        settings.cache_dir = context.cache_dir;
        settings.timeout_s = context.request->emulation_timeout_s;
        EmulatedDevice device(settings);
        if (!spec.following.empty())
            throw InputError("a reference kernel runs as one launch, and its file lists more (kplay-launch)");
        KernelSource kernel_source{source, file, {spec.kernel}, {}, nullptr, spec.defines, constant_names(spec.task),
                                   reference_include_dirs(context, spec)};
        const std::unique_ptr<LoadedKernel> kernel = std::move(device.load(kernel_source).front());
        std::vector<PlanBuffer> buffers;
        for (const HostBuffer& buffer : data.buffers)
            buffers.push_back({buffer.name, buffer.type, static_cast<int64_t>(buffer.count), buffer.shape, buffer.is_output()});
        const LaunchPlan plan = make_plan(spec, data.values, buffers, {}, device.info(), &kernel->attributes);
        RunnerSettings untimed;
        untimed.timed = false;
        RunnerResult result = run_launches(device, {{kernel.get(), &plan, spec.kernel}}, data, untimed);
        if (!result.failure.ok) throw ReferenceError("The reference kernel " + name + " failed: " + result.failure.error, result.failure.error_code);
        ExpectedOutputs expected;
        expected.outputs.resize(data.buffers.size());
        expected.bounds.resize(data.buffers.size());
        for (size_t i = 0; i < data.buffers.size(); ++i)
            if (data.buffers[i].is_output()) expected.outputs[i] = std::move(result.final[i].data);
        return expected;
    } catch (const ReferenceError&) {
        throw;
    } catch (const InputError& error) {
        throw ReferenceError("The reference kernel " + name + " cannot run: " + error.what());
    }
}

}  // namespace kplay
