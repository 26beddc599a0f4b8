// A host reference as the reference: the kernel file's own C++ function, built by the host compiler
// and run once, sandboxed, on copies of the inputs between guard pages (emu/host_reference).
#include <cstring>

#include "base/text.hpp"
#include "emu/emulated_launch.hpp"
#include "emu/guarded_memory.hpp"
#include "emu/host_reference.hpp"
#include "emu/message_names.hpp"
#include "launch/argument_binding.hpp"
#include "run/emulated_device.hpp"
#include "run/references.hpp"

namespace kplay {

namespace {

HostReferenceObject build(const ReferenceContext& context) {
    const ReferenceSpec& reference = context.spec->task.reference;
    HostReferenceBuildRequest build;
    build.source = *context.source;
    build.source_path = context.path.string();
    build.function = reference.function;
    build.defines = context.spec->defines;
    if (!context.kernels_include_dir.empty()) build.include_dirs.push_back(context.kernels_include_dir.string());
    build.emu_include_dir = context.emu_include_dir;
    build.cache_dir = context.cache_dir;
    build.check_symbols = context.request->emulation_symbol_check;
    HostReferenceObject object;
    try {
        object = build_host_reference(build);
    } catch (const InputError& error) {
        throw ReferenceError(error.what());
    }
    if (!object.ok)
        throw ReferenceError("The host reference " + reference.function + " does not compile:\n" + object.diagnostics.substr(0, 4000));
    return object;
}

// It is called with the kernel's arguments, so each parameter must be as wide as the kernel's.
void check_parameters(const ReferenceContext& context, const HostReferenceObject& object) {
    const auto& kernel = context.function->params;
    if (object.param_sizes.empty()) return;  // not loaded (the symbol check is off: tests only)
    const std::string& name = context.spec->task.reference.function;
    if (object.param_sizes.size() != kernel.size())
        throw ReferenceError("The host reference " + name + " takes " + std::to_string(object.param_sizes.size()) +
                             " parameters, but the kernel takes " + std::to_string(kernel.size()) + ".");
    for (size_t i = 0; i < kernel.size(); ++i)
        if (object.param_sizes[i] != kernel[i].size)
            throw ReferenceError("Parameter " + std::to_string(i + 1) + " of the host reference " + name + " is " +
                                 std::to_string(object.param_sizes[i]) + " bytes, but the kernel's is " + std::to_string(kernel[i].size) +
                                 " bytes: give it the kernel's type.");
}

bool holds_only(const std::vector<unsigned char>& bytes, uint32_t word, size_t element) {
    unsigned char pattern[4];
    std::memcpy(pattern, &word, 4);
    for (size_t i = 0; i < bytes.size(); ++i)
        if (bytes[i] != (element == 1 ? pattern[0] : pattern[i % 4])) return false;
    return true;
}

}  // namespace

ExpectedOutputs run_host_reference(const ReferenceContext& context, const TaskData& data, const ReferenceProgress& progress) {
    const HostReferenceObject object = build(context);
    check_parameters(context, object);
    const std::string& name = context.spec->task.reference.function;

    // The reference gets copies of the inputs; its outputs start as poison, so one it never writes is named.
    std::vector<GuardedBuffer> buffers;
    std::vector<BufferLabel> labels;
    for (const HostBuffer& host : data.buffers) {
        buffers.emplace_back(host.bytes());
        GuardedBuffer& buffer = buffers.back();
        if (host.is_input() || host.prefilled) std::memcpy(buffer.data(), host.data.data(), host.bytes());
        else
            for (size_t i = 0; i < host.bytes(); ++i) buffer.data()[i] = static_cast<unsigned char>(host.poison[0] >> (8 * (i % 4)));
        labels.push_back({host.name, element_c_name(host.type), element_size(host.type), reinterpret_cast<uintptr_t>(buffer.data()),
                          host.bytes(), buffer.mapping_begin(), buffer.mapping_end()});
    }
    std::vector<BoundArgument> arguments =
        with_addresses(context.plan->arguments, [&](size_t index) { return reinterpret_cast<uint64_t>(buffers.at(index).data()); });

    EmulatedCallRequest call;
    call.shared_object = object.shared_object;
    call.entry_symbol = host_reference_entry_symbol();
    call.bind_symbol = host_reference_bind_symbol();
    call.args = argument_pointers(arguments);
    call.buffers = labels;
    call.timeout_s = context.request->reference_timeout_s;
    call.sandbox = context.request->emulation_sandbox;
    call.progress = progress;
    const EmulatedLaunchResult result = run_emulated_call(call);
    if (!result.ok) {
        const bool timeout = result.error_code == "KPLAY_TIMEOUT";
        throw ReferenceError(timeout ? "The host reference " + name + " did not finish within " + short_number(call.timeout_s) +
                                           " s and was stopped: an endless loop?"
                                     : "The host reference " + name + " failed: " + result.error,
                             result.error_code, result.line);
    }

    ExpectedOutputs expected;
    expected.outputs.resize(data.buffers.size());
    expected.bounds.resize(data.buffers.size());
    for (size_t i = 0; i < data.buffers.size(); ++i) {
        const HostBuffer& host = data.buffers[i];
        if (!host.is_output()) continue;
        expected.outputs[i].assign(buffers[i].data(), buffers[i].data() + host.bytes());
        if (host.role == BufferRole::out && !host.prefilled && host.count > 1 && holds_only(expected.outputs[i], host.poison[0], element_size(host.type)))
            throw ReferenceError("The host reference " + name + " never wrote '" + host.name + "': it must fill every output.");
    }
    return expected;
}

}  // namespace kplay
