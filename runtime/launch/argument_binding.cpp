// Argument evaluation, type choice from the declaration and size checks against the real layout.
#include "launch/argument_binding.hpp"

#include <algorithm>
#include <cctype>

#include <cstring>
#include <limits>

#include "base/error.hpp"
#include "base/text.hpp"
#include "launch/tensor_map_plan.hpp"

namespace kplay {

namespace {

std::string ordinal(size_t index) { return "argument " + std::to_string(index + 1); }

template <typename T>
void store(BoundArgument& argument, T value, const char* kind) {
    static_assert(sizeof(T) <= sizeof argument.storage);
    std::memcpy(argument.storage, &value, sizeof value);
    argument.size = sizeof value;
    argument.kind = kind;
}

int find_buffer(const std::vector<BindableBuffer>& buffers, const std::string& name) {
    for (size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].name == name) return static_cast<int>(i);
    return -1;
}

// The element size a scalar pointee type names, or 0 when it is not a plain scalar (float4, a struct,
// a template parameter: a kernel may view a buffer through a wider type on purpose).
size_t scalar_size(const std::string& type) {
    std::string plain, text = type;
    for (const char* qualifier : {"__restrict__", "__restrict", "volatile", "const", "*"}) {
        for (size_t at = text.find(qualifier); at != std::string::npos; at = text.find(qualifier)) text.erase(at, std::string(qualifier).size());
    }
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) plain += c;
    if (plain == "float" || plain == "int" || plain == "unsigned" || plain == "unsignedint" || plain == "int32_t" || plain == "uint32_t")
        return 4;
    if (plain == "double" || plain == "longlong" || plain == "int64_t" || plain == "uint64_t" || plain == "unsignedlonglong") return 8;
    if (plain == "char" || plain == "unsignedchar" || plain == "signedchar" || plain == "uint8_t" || plain == "int8_t" || plain == "uchar")
        return 1;
    if (plain == "__half" || plain == "half" || plain == "short" || plain == "unsignedshort" || plain == "uint16_t" || plain == "int16_t")
        return 2;
    return 0;
}

void check_pointee(const std::string& label, const KernelParam& param, const BindableBuffer& buffer) {
    const size_t size = scalar_size(param.type);
    if (size != 0 && size != element_size(buffer.type))
        throw InputError(label + " points to '" + param.type + "' (" + std::to_string(size) + "-byte elements), but buffer '" +
                         buffer.name + "' holds " + element_type_name(buffer.type) + " (" + std::to_string(element_size(buffer.type)) +
                         " bytes each).");
}

}  // namespace

std::vector<void*> argument_pointers(std::vector<BoundArgument>& arguments) {
    std::vector<void*> pointers;
    for (auto& argument : arguments) pointers.push_back(argument.storage);
    return pointers;
}

NamedValues literal_arguments(const std::vector<std::string>& args, const std::map<std::string, std::string>& overrides,
                              const NamedValues& task_values) {
    NamedValues literals;
    for (const auto& arg : args) {
        const auto equals = arg.find('=');
        if (equals == std::string::npos) continue;
        const std::string name = arg.substr(0, equals);
        if (task_values.count(name))
            throw InputError("Literal argument '" + arg + "' reuses the task's value name '" + name + "'; pick another name.");
        NamedValues scope = task_values;
        scope.insert(literals.begin(), literals.end());
        const auto override_value = overrides.find(name);
        literals[name] = evaluate_int_expr(override_value != overrides.end() ? override_value->second : arg.substr(equals + 1), scope);
    }
    for (const auto& [name, value] : overrides) {
        if (!literals.count(name)) {
            std::string known;
            for (const auto& [literal, v] : literals) known += (known.empty() ? "" : ", ") + literal;
            throw InputError("--arg " + name + "=" + value + ": the kernel has no literal argument '" + name + "' (" +
                             (known.empty() ? std::string("it has none") : "it has: " + known) + ").");
        }
    }
    return literals;
}

std::vector<BoundArgument> bind_arguments(const std::string& kernel_name, const std::vector<std::string>& args,
                                          const NamedValues& names, const std::vector<BindableBuffer>& buffers,
                                          const std::vector<ParamLayout>& params, const KernelDecl* declaration,
                                          const std::vector<std::string>& tensor_maps) {
    if (args.size() != params.size())
        throw InputError("Kernel " + kernel_name + " takes " + std::to_string(params.size()) + " parameters but " +
                         std::to_string(args.size()) + " arguments are bound (args=" + [&] {
                             return join(args, ",");
                         }() + "). Fix the kplay annotation's args.");
    const bool declaration_matches = declaration && declaration->params.size() == params.size();
    std::vector<BoundArgument> bound(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
        BoundArgument& argument = bound[i];
        argument.binding = args[i];
        const KernelParam* param = declaration_matches ? &declaration->params[i] : nullptr;
        if (param) argument.param = param->name;
        const std::string label = ordinal(i) + (argument.param.empty() ? "" : " (" + argument.param + ")") + " of " + kernel_name;
        const size_t size = params[i].size;

        const auto equals = args[i].find('=');
        const std::string expression = equals == std::string::npos ? args[i] : args[i].substr(0, equals);
        if (const auto map = std::find(tensor_maps.begin(), tensor_maps.end(), expression); map != tensor_maps.end()) {
            if (param && param->is_pointer())
                throw InputError(label + " is a pointer ('" + param->type + "'), but '" + expression +
                                 "' is a TMA descriptor, passed by value: declare it `const __grid_constant__ CUtensorMap " + expression + "`.");
            if (size != sizeof(TensorMapBytes))
                throw InputError(label + " is " + std::to_string(size) + " bytes, but '" + expression +
                                 "' is a TMA descriptor (a 128-byte CUtensorMap): declare it `const __grid_constant__ CUtensorMap " + expression +
                                 "` (or kplay_tensor_map from hopper.cuh).");
            argument.kind = "tensor map";
            argument.size = sizeof(TensorMapBytes);
            argument.tensor_map = static_cast<int>(map - tensor_maps.begin());
            argument.value = expression;
            continue;
        }
        if (const int index = find_buffer(buffers, expression); index >= 0) {
            if (size != sizeof(uint64_t))
                throw InputError(label + " is " + std::to_string(size) + " bytes, but '" + expression +
                                 "' is a device pointer (8 bytes).");
            if (param && !param->is_pointer())
                throw InputError(label + " is declared '" + param->type + "', but '" + expression + "' is a buffer pointer.");
            if (param) check_pointee(label, *param, buffers[index]);
            store(argument, uint64_t{0}, "pointer");
            argument.buffer = index;
            argument.value = expression;
            continue;
        }
        if (param && param->is_pointer()) {
            std::vector<std::string> list;
            for (const auto& buffer : buffers) list.push_back(buffer.name);
            throw InputError(label + " is a pointer ('" + param->type + "'), but '" + args[i] + "' is a number. Buffers are: " +
                             join(list) + ".");
        }
        const int64_t value = evaluate_int_expr(expression, names);
        argument.value = std::to_string(value);
        const std::string type = param ? param->type : "";
        if (type.find("double") != std::string::npos && size == 8) store(argument, static_cast<double>(value), "float64");
        else if (type.find("float") != std::string::npos && size == 4) store(argument, static_cast<float>(value), "float32");
        else if (size == 8) store(argument, value, "int64");
        else if (size == 4) {
            if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<uint32_t>::max())
                throw InputError(label + " is 32-bit but '" + args[i] + "' = " + std::to_string(value) + " does not fit.");
            store(argument, static_cast<int32_t>(value), "int32");
        } else if (size == 2) store(argument, static_cast<int16_t>(value), "int16");
        else if (size == 1) store(argument, static_cast<int8_t>(value), "int8");
        else
            throw InputError(label + " is a " + std::to_string(size) + "-byte parameter (a struct?); kplay binds only pointers and scalars.");
    }
    return bound;
}

}  // namespace kplay
