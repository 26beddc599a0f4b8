// Argument evaluation, type choice from the declaration and size checks against the real layout.
#include "plan/argument_binding.hpp"

#include <algorithm>
#include <cctype>

#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <tuple>

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/kernel_types.hpp"
#include "plan/tensor_map_plan.hpp"

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

// A pointee or field type as the compiler sees it, without the pointer: "const float *__restrict__" -> "float".
std::string pointee(const std::string& type) {
    std::string canonical = canonical_type(type);
    while (!canonical.empty() && (canonical.back() == '*' || canonical.back() == '&')) canonical.pop_back();
    return canonical;
}

// The element size a scalar type names, or 0 when it is not a plain scalar (float4, a struct, a
// template parameter: a kernel may view a buffer through a wider type on purpose).
size_t scalar_size(const std::string& type) {
    static const std::map<std::string, size_t> sizes = {
        {"float", 4}, {"int", 4}, {"unsigned", 4}, {"double", 8}, {"longlong", 8}, {"unsignedlonglong", 8}, {"char", 1},
        {"signedchar", 1}, {"unsignedchar", 1}, {"uchar", 1}, {"short", 2}, {"unsignedshort", 2}, {"__half", 2},
        {"__nv_bfloat16", 2}, {"__nv_fp8_e4m3", 1}, {"__nv_fp8_e5m2", 1}, {"__nv_fp8_storage_t", 1}};
    const auto found = sizes.find(pointee(type));
    return found == sizes.end() ? 0 : found->second;
}

// The floating-point element type a scalar type is, if it is one.
std::optional<ElementType> floating_type(const std::string& scalar) {
    static const std::map<std::string, ElementType> floats = {{"float", ElementType::f32},     {"double", ElementType::f64},
                                                              {"__half", ElementType::f16},    {"__nv_bfloat16", ElementType::bf16},
                                                              {"__nv_fp8_e4m3", ElementType::fp8_e4m3}, {"__nv_fp8_e5m2", ElementType::fp8_e5m2}};
    const auto found = floats.find(scalar);
    if (found == floats.end()) return std::nullopt;
    return found->second;
}

// A pointer's element type against its buffer's: the size must match, and a float must not read integers
// (or another float format). Signedness may differ: a kernel may count in unsigned what is declared i32.
void check_pointee(const std::string& label, const KernelParam& param, const BindableBuffer& buffer) {
    const size_t size = scalar_size(param.type);
    if (size == 0) return;
    const std::string wants = pointee(param.type);
    if (size != element_size(buffer.type))
        throw InputError(label + " points to '" + param.type + "' (" + std::to_string(size) + "-byte elements), but buffer '" +
                         buffer.name + "' holds " + element_type_name(buffer.type) + " (" + std::to_string(element_size(buffer.type)) +
                         " bytes each).");
    const auto kernel_float = floating_type(wants);
    const bool buffer_float = is_floating(buffer.type);
    if ((kernel_float.has_value() != buffer_float) || (kernel_float && *kernel_float != buffer.type))
        throw InputError(label + " points to '" + wants + "', but buffer '" + buffer.name + "' holds " + element_type_name(buffer.type) +
                         (kernel_float ? ": declare it " + std::string(element_type_name(*kernel_float)) + ", the kernel's type"
                                       : std::string(": the kernel reads integers where the buffer holds ") +
                                             (buffer_float ? "floating-point numbers" : "another format")) +
                         ".");
}

// `(const float*)x` or `(unsigned int)n` as the argument's operand alone: the parameter's own type decides
// how kplay passes it, so a cast written for a reader (or copied from a launch) is dropped.
std::string without_cast(const std::string& arg) {
    static const std::regex cast(R"(^\s*\(\s*((?:const\s+|volatile\s+)?[A-Za-z_][\w\s:<>,]*?\s*\**)\s*\)\s*(\S.*)$)");
    std::smatch match;
    if (!std::regex_match(arg, match, cast)) return arg;
    const std::string type = match[1].str();
    const bool pointer = type.find('*') != std::string::npos;
    if (!pointer && !is_builtin_type(canonical_type(type))) return arg;  // `(n)*2` is arithmetic, not a cast
    return match[2].str();
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
    std::vector<std::string> declared;
    for (const auto& arg : args) {
        const auto equals = arg.find('=');
        if (equals == std::string::npos) continue;
        const std::string name = arg.substr(0, equals);
        if (task_values.count(name))
            throw InputError("Literal argument '" + arg + "' reuses the task's value name '" + name + "'; pick another name.");
        declared.push_back(name);
        NamedValues scope = task_values;
        scope.insert(literals.begin(), literals.end());
        const auto override_value = overrides.find(name);
        const std::string expression = override_value != overrides.end() ? override_value->second : arg.substr(equals + 1);
        try {
            literals[name] = evaluate_int_expr(expression, scope);
        } catch (const InputError& error) {
            // A real literal (lr=1e-3, scale=1/sqrt(d)) is no name for the integer expressions; the binding
            // evaluates it for its floating-point parameter.
            try {
                evaluate_real_expr(expression, scope);
            } catch (const InputError&) {
                throw InputError("Literal argument '" + name + "=" + expression + "': " + error.what());
            }
        }
    }
    for (const auto& [name, value] : overrides) {
        if (std::find(declared.begin(), declared.end(), name) == declared.end()) {
            throw InputError("--arg " + name + "=" + value + ": the kernel has no literal argument '" + name + "' (" +
                             (declared.empty() ? std::string("it has none") : "it has: " + join(declared)) + ").");
        }
    }
    return literals;
}

std::vector<std::string> with_overrides(std::vector<std::string> args, const std::map<std::string, std::string>& overrides) {
    for (auto& arg : args) {
        const auto equals = arg.find('=');
        if (equals == std::string::npos) continue;
        const auto found = overrides.find(arg.substr(0, equals));
        if (found != overrides.end()) arg = found->first + "=" + found->second;
    }
    return args;
}

namespace {

bool is_null(const std::string& text) { return text == "0" || text == "null" || text == "nullptr" || text == "NULL"; }

// A pointer's value: a buffer, `buffer+offset` (elements, an integer expression over the sizes), or
// null. nullopt when `text` is none of these (a number, say); throws for an offset out of range.
std::optional<PointerSlot> pointer_value(const std::string& label, const std::string& text, const NamedValues& names,
                                         const std::vector<BindableBuffer>& buffers, const KernelParam* param) {
    if (is_null(text)) return PointerSlot{};
    const auto plus = text.find('+');
    const std::string name = trim(text.substr(0, plus));
    const int index = find_buffer(buffers, name);
    if (index < 0) return std::nullopt;
    const BindableBuffer& buffer = buffers[static_cast<size_t>(index)];
    if (param) check_pointee(label, *param, buffer);
    PointerSlot slot;
    slot.buffer = index;
    if (plus == std::string::npos) return slot;
    const std::string offset_text = text.substr(plus + 1);
    int64_t offset = 0;
    try {
        offset = evaluate_int_expr(offset_text, names);
    } catch (const InputError& error) {
        throw InputError(label + ": the offset of '" + text + "': " + error.what());
    }
    if (offset < 0 || (buffer.count >= 0 && offset > buffer.count))
        throw InputError(label + " is '" + text + "', " + std::to_string(offset) + " elements into '" + name + "', which holds " +
                         std::to_string(buffer.count) + ": the offset must be from 0 to its length.");
    slot.offset = static_cast<uint64_t>(offset) * element_size(buffer.type);
    return slot;
}

std::string pointer_text(const PointerSlot& slot, const std::vector<BindableBuffer>& buffers) {
    if (slot.buffer < 0) return "null";
    const BindableBuffer& buffer = buffers[static_cast<size_t>(slot.buffer)];
    return slot.offset ? buffer.name + "+" + std::to_string(slot.offset / element_size(buffer.type)) : buffer.name;
}

bool is_real_type(const std::string& type, size_t size) {
    const std::string scalar = canonical_type(type);
    return (scalar == "double" && size == 8) || (scalar == "float" && size == 4);
}

// A scalar's bytes at `out` (room for `size`), typed by `type`: a float or double takes a real
// expression (`1/sqrt(d)`, `1e-3`), an integer an integer one. Returns the kind and the value shown.
std::pair<std::string, std::string> store_scalar(const std::string& label, const std::string& type, size_t size, const std::string& expression,
                                                 const NamedValues& names, unsigned char* out) {
    auto put = [&](auto value, const char* kind, std::string shown) {
        std::memcpy(out, &value, sizeof value);
        return std::make_pair(std::string(kind), std::move(shown));
    };
    if (is_real_type(type, size)) {
        double value = 0;
        try {
            value = evaluate_real_expr(expression, names);
        } catch (const InputError& error) {
            throw InputError(label + " ('" + type + "') cannot take '" + expression + "': " + error.what());
        }
        if (size == 8) return put(value, "float64", short_number(value));
        return put(static_cast<float>(value), "float32", short_number(value));
    }
    int64_t value = 0;
    try {
        value = evaluate_int_expr(expression, names);
    } catch (const InputError& error) {
        throw InputError(label + (type.empty() ? "" : " ('" + type + "')") + " takes an integer, but '" + expression + "': " + error.what());
    }
    const std::string shown = std::to_string(value);
    if (size == 8) return put(value, "int64", shown);
    if (size == 4) {
        if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<uint32_t>::max())
            throw InputError(label + " is 32-bit but '" + expression + "' = " + shown + " does not fit.");
        return put(static_cast<int32_t>(value), "int32", shown);
    }
    if (size == 2) return put(static_cast<int16_t>(value), "int16", shown);
    if (size == 1) return put(static_cast<int8_t>(value), "int8", shown);
    throw InputError(label + " is a " + std::to_string(size) + "-byte parameter (a struct?); kplay binds pointers and scalars, and structs "
                     "that a kplay-struct line fills.");
}

// A struct of pointers and scalars laid out as C does: each field at its own alignment, the whole
// padded to the largest.
void bind_struct(BoundArgument& argument, const std::string& label, const StructDecl& decl, size_t size, const NamedValues& names,
                 const std::vector<BindableBuffer>& buffers) {
    size_t offset = 0, largest = 1;
    std::vector<std::string> shown;
    std::vector<unsigned char> bytes(kMaxArgumentBytes + 8);
    for (const StructField& field : decl.fields) {
        const std::string at = label + ": field '" + field.name + "' of struct " + decl.type;
        const size_t field_size = field.pointer ? 8 : scalar_size(field.type);
        if (field_size == 0)
            throw InputError(at + " has type '" + field.type + "', which kplay cannot lay out (pointers, int, unsigned, float, double, "
                             "long long and their fixed-width names)");
        offset = (offset + field_size - 1) / field_size * field_size;
        largest = std::max(largest, field_size);
        if (offset + field_size > kMaxArgumentBytes)
            throw InputError(label + ": struct " + decl.type + " is over " + std::to_string(kMaxArgumentBytes) + " bytes, more than kplay passes.");
        if (field.pointer) {
            const KernelParam as_param{field.type, field.name};
            const auto slot = pointer_value(at, field.value, names, buffers, &as_param);
            if (!slot) throw InputError(at + " is a pointer ('" + field.type + "'), but '" + field.value + "' is not a buffer, BUFFER+OFFSET or null.");
            if (slot->buffer >= 0) argument.pointers.push_back({offset, slot->buffer, slot->offset});
            shown.push_back(field.name + "=" + pointer_text(*slot, buffers));
        } else {
            shown.push_back(field.name + "=" + store_scalar(at, field.type, field_size, field.value, names, bytes.data() + offset).second);
        }
        offset += field_size;
    }
    const size_t total = (offset + largest - 1) / largest * largest;
    if (total != size)
        throw InputError(label + " is " + std::to_string(size) + " bytes, but struct " + decl.type + " as kplay lays it out (C layout of its " +
                         std::to_string(decl.fields.size()) + " fields) is " + std::to_string(total) +
                         " bytes: does the kplay-struct line name the right parameter?");
    std::memcpy(argument.storage, bytes.data(), total);
    argument.size = total;
    argument.kind = "struct";
    argument.value = decl.type + "{" + join(shown) + "}";
}

// A pointer parameter's argument: a buffer, an offset into one, or null.
void bind_pointer(BoundArgument& argument, const std::string& label, const std::string& text, size_t size, const KernelParam* param,
                  const NamedValues& names, const std::vector<BindableBuffer>& buffers) {
    const auto slot = pointer_value(label, text, names, buffers, param);
    if (!slot) {
        std::vector<std::string> list;
        for (const auto& buffer : buffers) list.push_back(buffer.name);
        throw InputError(label + " is a pointer ('" + (param ? param->type : std::string("?")) + "'), but '" + text + "' is a number. Give it a buffer (" + join(list) +
                         "), BUFFER+OFFSET in elements (" + (list.empty() ? "x" : list.front()) + "+256), or null.");
    }
    if (size != sizeof(uint64_t))
        throw InputError(label + " is " + std::to_string(size) + " bytes, but '" + text + "' is a device pointer (8 bytes).");
    if (param && !param->is_pointer())
        throw InputError(label + " is declared '" + param->type + "', but '" + text + "' is a buffer pointer.");
    store(argument, uint64_t{0}, slot->buffer < 0 ? "null pointer" : "pointer");
    argument.buffer = slot->buffer;
    if (slot->buffer >= 0) argument.pointers.push_back(*slot);
    argument.value = pointer_text(*slot, buffers);
}

void bind_tensor_map(BoundArgument& argument, const std::string& label, const std::string& name, size_t size, const KernelParam* param,
                     int index) {
    if (param && param->is_pointer())
        throw InputError(label + " is a pointer ('" + param->type + "'), but '" + name +
                         "' is a TMA descriptor, passed by value: declare it `const __grid_constant__ CUtensorMap " + name + "`.");
    if (size != sizeof(TensorMapBytes))
        throw InputError(label + " is " + std::to_string(size) + " bytes, but '" + name +
                         "' is a TMA descriptor (a 128-byte CUtensorMap): declare it `const __grid_constant__ CUtensorMap " + name +
                         "` (or kplay_tensor_map from hopper.cuh).");
    argument.kind = "tensor map";
    argument.size = sizeof(TensorMapBytes);
    argument.tensor_map = index;
    argument.value = name;
}

// A texture or surface object: 8 bytes by value, filled in by the device per set of buffers. Until then
// they hold the buffer's address, which the host reference is called with in the object's place.
void bind_image(BoundArgument& argument, const std::string& label, const TextureDecl& decl, size_t size, const KernelParam* param, int index,
                const std::vector<BindableBuffer>& buffers) {
    const bool texture = decl.kind == ImageKind::texture;
    const std::string declare = std::string("declare it `") + (texture ? "cudaTextureObject_t " : "cudaSurfaceObject_t ") + decl.name + "`.";
    if (param && param->is_pointer())
        throw InputError(label + " is a pointer ('" + param->type + "'), but '" + decl.name + "' is a " + (texture ? "texture" : "surface") +
                         " object, passed by value: " + declare);
    if (size != sizeof(uint64_t))
        throw InputError(label + " is " + std::to_string(size) + " bytes, but '" + decl.name + "' is a " + (texture ? "texture" : "surface") +
                         " object (8 bytes): " + declare);
    store(argument, uint64_t{0}, texture ? "texture" : "surface");
    argument.texture = index;
    argument.buffer = find_buffer(buffers, decl.buffer);
    if (argument.buffer >= 0) argument.pointers.push_back({0, argument.buffer, 0});
    argument.value = decl.buffer;
}

}  // namespace

std::vector<BoundArgument> bind_arguments(const std::string& kernel_name, const std::vector<std::string>& args,
                                          const NamedValues& names, const std::vector<BindableBuffer>& buffers,
                                          const std::vector<ParamLayout>& params, const KernelDecl* declaration,
                                          const std::vector<std::string>& tensor_maps, const std::vector<StructDecl>& structs,
                                          const std::vector<TextureDecl>& images) {
    if (args.size() != params.size())
        throw InputError("Kernel " + kernel_name + " takes " + std::to_string(params.size()) + " parameters but " +
                         std::to_string(args.size()) + " arguments are bound (args=" + join(args, ",") + "). Fix the kplay annotation's args.");
    const bool declaration_matches = declaration && declaration->params.size() == params.size();
    std::vector<BoundArgument> bound(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
        BoundArgument& argument = bound[i];
        argument.binding = args[i];
        const std::string arg = without_cast(args[i]);
        const KernelParam* param = declaration_matches ? &declaration->params[i] : nullptr;
        if (param) argument.param = param->name;
        const std::string label = ordinal(i) + (argument.param.empty() ? "" : " (" + argument.param + ")") + " of " + kernel_name;
        const size_t size = params[i].size;

        // "tw=16": the literal's name, which the integer expressions know; "lr=1e-3": its text, for a real.
        const auto equals = arg.find('=');
        const std::string name = trim(equals == std::string::npos ? arg : arg.substr(0, equals));
        if (const auto map = std::find(tensor_maps.begin(), tensor_maps.end(), name); map != tensor_maps.end()) {
            bind_tensor_map(argument, label, name, size, param, static_cast<int>(map - tensor_maps.begin()));
            continue;
        }
        if (const auto image = std::find_if(images.begin(), images.end(), [&](const TextureDecl& d) { return d.name == name; });
            image != images.end()) {
            bind_image(argument, label, *image, size, param, static_cast<int>(image - images.begin()), buffers);
            continue;
        }
        if (const auto decl = std::find_if(structs.begin(), structs.end(), [&](const StructDecl& s) { return s.param == name; });
            decl != structs.end()) {
            bind_struct(argument, label, *decl, size, names, buffers);
            continue;
        }
        const bool names_buffer = equals == std::string::npos && find_buffer(buffers, trim(name.substr(0, name.find('+')))) >= 0;
        if ((param && param->is_pointer()) || names_buffer) {
            bind_pointer(argument, label, trim(arg), size, param, names, buffers);
            continue;
        }
        // `tag_bool<true>{}`, `std::true_type{}`: an empty object, which is one byte and carries nothing but its type.
        if (const std::string text = trim(arg); text.size() > 2 && text.compare(text.size() - 2, 2, "{}") == 0 &&
                                                     std::regex_match(text, std::regex(R"(^[A-Za-z_:][\w:<>,\s]*\{\}$)"))) {
            if (size != 1)
                throw InputError(label + " is " + std::to_string(size) + " bytes, but '" + text +
                                 "' is an empty object (a tag type, 1 byte): is the argument in the right place?");
            store(argument, uint8_t{0}, "empty");
            argument.value = text;
            continue;
        }
        const std::string type = param ? param->type : "";
        const bool real_literal = equals != std::string::npos && (is_real_type(type, size) || !names.count(name));
        const std::string expression = real_literal ? arg.substr(equals + 1) : name;
        std::tie(argument.kind, argument.value) = store_scalar(label, type, size, expression, names, argument.storage);
        argument.size = size;
    }
    return bound;
}

}  // namespace kplay
