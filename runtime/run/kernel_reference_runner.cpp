// A trusted kernel as the reference: another file's kernel, run on the emulated CPU device with the
// same inputs; its outputs are the expected ones.
#include <memory>

#include "base/text.hpp"
#include "run/emulated_device.hpp"
#include "run/references.hpp"
#include "run/runner.hpp"
#include "spec/source_scan.hpp"

namespace kplay {

ExpectedOutputs run_kernel_reference(const ReferenceContext& context, const TaskData& data) {
    const ReferenceSpec& reference = context.spec->task.reference;
    const std::filesystem::path file = context.path.parent_path() / reference.file;
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
        KernelSource kernel_source{source, file, {spec.kernel}, {}, nullptr, spec.defines};
        const std::unique_ptr<LoadedKernel> kernel = std::move(device.load(kernel_source).front());
        std::vector<PlanBuffer> buffers;
        for (const HostBuffer& buffer : data.buffers)
            buffers.push_back({buffer.name, buffer.type, static_cast<int64_t>(buffer.count), buffer.shape, buffer.is_output()});
        const LaunchPlan plan = make_plan(spec, data.values, buffers, {}, device.info(), &kernel->attributes);
        TaskData outputs = data;
        RunnerSettings untimed;
        untimed.timed = false;
        const RunnerResult result = run_launches(device, {{kernel.get(), &plan, spec.kernel}}, outputs, untimed);
        if (!result.failure.ok) throw ReferenceError("The reference kernel " + name + " failed: " + result.failure.error, result.failure.error_code);
        ExpectedOutputs expected;
        expected.outputs.resize(outputs.buffers.size());
        expected.bounds.resize(outputs.buffers.size());
        for (size_t i = 0; i < outputs.buffers.size(); ++i)
            if (outputs.buffers[i].is_output()) expected.outputs[i] = std::move(outputs.buffers[i].data);
        return expected;
    } catch (const ReferenceError&) {
        throw;
    } catch (const InputError& error) {
        throw ReferenceError("The reference kernel " + name + " cannot run: " + error.what());
    }
}

}  // namespace kplay
