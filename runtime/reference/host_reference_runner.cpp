// A host reference as the reference: the kernel file's own C++ function, built by the host compiler
// and run once, sandboxed, on copies of the inputs between guard pages (emu/host_reference).
#include <algorithm>
#include <cstring>

#include "base/text.hpp"
#include "emu/emu_source.hpp"
#include "emu/emulated_launch.hpp"
#include "emu/guarded_memory.hpp"
#include "reference/host_reference.hpp"
#include "emu/message_names.hpp"
#include "plan/argument_binding.hpp"
#include "device/constant_fill.hpp"
#include "device/emulated_device.hpp"
#include "reference/references.hpp"

namespace kplay {

namespace {

HostReferenceObject build(const ReferenceContext& context) {
    const ReferenceSpec& reference = context.spec->task.reference;
    HostReferenceBuildRequest build;
    build.source = *context.source;
    build.source_path = context.path.string();
    build.function = reference.function;
    build.defines = context.spec->defines;
    build.constants = constant_names(context.spec->task);
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

// A task of one launch hands its reference that kernel's arguments; a task of several launches (no
// single kernel's parameters hold every buffer) hands it every buffer the task declares, in order, then
// every size, in order, each as wide as the reference's parameter (int or int64_t).
bool takes_declared(const ReferenceContext& context) { return !context.spec->following.empty(); }

std::string declared_list(const TaskSpec& task) {
    std::vector<std::string> names;
    for (const auto& buffer : task.buffers) names.push_back(buffer.name);
    names.insert(names.end(), task.sizes.names.begin(), task.sizes.names.end());
    return "(" + join(names) + ")";
}

void check_declared_parameters(const ReferenceContext& context, const HostReferenceObject& object) {
    const TaskSpec& task = context.spec->task;
    const std::string& name = task.reference.function;
    const size_t buffers = task.buffers.size(), count = buffers + task.sizes.names.size();
    const std::string convention = "a task of " + std::to_string(context.spec->following.size() + 1) +
                                   " launches gives its reference every buffer and size it declares, in order: " + declared_list(task);
    if (object.param_sizes.size() != count)
        throw ReferenceError("The host reference " + name + " takes " + std::to_string(object.param_sizes.size()) + " parameters, but " +
                             convention + ".");
    for (size_t i = 0; i < count; ++i) {
        const size_t size = object.param_sizes[i];
        const bool fits = i < buffers ? size == sizeof(void*) : (size == 4 || size == 8);
        if (!fits)
            throw ReferenceError("Parameter " + std::to_string(i + 1) + " of the host reference " + name + " is " + std::to_string(size) +
                                 " bytes, but it is " + (i < buffers ? "buffer '" + task.buffers[i].name + "' (a pointer)" : "size '" + task.sizes.names[i - buffers] + "' (int or int64_t)") +
                                 ": " + convention + ".");
    }
}

// Each size the task declares, after `arguments`, as wide as the reference's parameter there (int or int64_t).
void append_sizes(std::vector<BoundArgument>& arguments, const TaskSpec& task, const TaskData& data, const HostReferenceObject& object) {
    for (const std::string& size : task.sizes.names) {
        const size_t index = arguments.size();
        BoundArgument& argument = arguments.emplace_back();
        argument.binding = argument.value = size;
        const int64_t value = data.values.at(size);
        argument.size = index < object.param_sizes.size() ? object.param_sizes[index] : 4;
        if (argument.size == 8) std::memcpy(argument.storage, &value, 8);
        else {
            const auto narrow = static_cast<int32_t>(value);
            std::memcpy(argument.storage, &narrow, 4);
        }
    }
}

std::vector<BoundArgument> declared_arguments(const ReferenceContext& context, const TaskData& data, const HostReferenceObject& object) {
    const TaskSpec& task = context.spec->task;
    std::vector<BoundArgument> arguments;
    for (size_t i = 0; i < task.buffers.size(); ++i) {
        BoundArgument& argument = arguments.emplace_back();
        argument.binding = argument.value = task.buffers[i].name;
        argument.buffer = static_cast<int>(i);
        argument.size = sizeof(void*);
        argument.pointers.push_back({0, static_cast<int>(i), 0});  // with_addresses writes the buffer's address here
    }
    append_sizes(arguments, task, data, object);
    return arguments;
}

// A one-launch task's reference that asks for more than the kernel's parameters gets the task's sizes after
// them (a kernel without a size parameter still has a reference that works at every size).
bool takes_sizes_too(const ReferenceContext& context, const HostReferenceObject& object) {
    return !takes_declared(context) && context.function && !context.spec->task.sizes.names.empty() &&
           object.param_sizes.size() == context.function->params.size() + context.spec->task.sizes.names.size();
}

// It is called with the kernel's arguments, so each parameter must be as wide as the kernel's.
void check_parameters(const ReferenceContext& context, const HostReferenceObject& object) {
    if (object.param_sizes.empty()) return;  // not loaded (the symbol check is off: tests only)
    if (takes_declared(context)) return check_declared_parameters(context, object);
    const auto& kernel = context.function->params;
    const std::string& name = context.spec->task.reference.function;
    const TaskSpec& task = context.spec->task;
    if (object.param_sizes.size() != kernel.size() && !takes_sizes_too(context, object))
        throw ReferenceError("The host reference " + name + " takes " + std::to_string(object.param_sizes.size()) +
                             " parameters, but the kernel takes " + std::to_string(kernel.size()) +
                             (task.sizes.names.empty() ? std::string()
                                                       : " (a reference may also take the task's sizes after the kernel's parameters: " +
                                                             std::to_string(kernel.size() + task.sizes.names.size()) + " in all)") +
                             ".");
    for (size_t i = kernel.size(); i < object.param_sizes.size(); ++i)
        if (object.param_sizes[i] != 4 && object.param_sizes[i] != 8)
            throw ReferenceError("Parameter " + std::to_string(i + 1) + " of the host reference " + name + " is " +
                                 std::to_string(object.param_sizes[i]) + " bytes, but it is size '" + task.sizes.names[i - kernel.size()] +
                                 "' (int or int64_t), after the kernel's parameters.");
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
    std::vector<BoundArgument> given = takes_declared(context) ? declared_arguments(context, data, object) : context.plan->arguments;
    if (takes_sizes_too(context, object)) append_sizes(given, context.spec->task, data, object);
    std::vector<BoundArgument> arguments =
        with_addresses(std::move(given), [&](size_t index) { return reinterpret_cast<uint64_t>(buffers.at(index).data()); });

    EmulatedCallRequest call;
    call.shared_object = object.shared_object;
    call.entry_symbol = host_reference_entry_symbol();
    call.bind_symbol = host_reference_bind_symbol();
    call.args = argument_pointers(arguments);
    call.buffers = labels;
    call.timeout_s = context.request->reference_timeout_s;
    call.sandbox = context.request->emulation_sandbox;
    call.progress = progress;
    // The kernel's __constant__ arrays are the reference's host arrays of the same names.
    const std::vector<std::string> constants = constant_names(context.spec->task);
    for (const HostBuffer& host : data.buffers)
        if (host.constant) {
            const size_t index = static_cast<size_t>(std::find(constants.begin(), constants.end(), host.name) - constants.begin());
            call.constants.push_back({emulated_constant_symbol(index), host.name, host.data});
        }
    const EmulatedLaunchResult result = run_emulated_call(call);
    if (!result.ok) {
        const bool timeout = result.error_code == ErrorCode::timeout;
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
