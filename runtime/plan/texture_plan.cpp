// Evaluating and checking a texture's or surface's declaration.
#include "plan/texture_plan.hpp"

#include "base/error.hpp"
#include "base/text.hpp"
#include "plan/plan.hpp"
#include "plan/tensor_map_plan.hpp"

namespace kplay {

namespace {

// "480x640" or "3 layers of 64x64", outermost first as the file writes it.
std::string shape_text(const TexturePlan& plan) {
    std::string shape = plan.layers > 0 ? std::to_string(plan.layers) + " layers of " : "";
    for (int d = plan.decl.dims() - 1; d >= 0; --d) shape += std::to_string(plan.extent[static_cast<size_t>(d)]) + (d ? "x" : "");
    return shape;
}

}  // namespace

std::string TexturePlan::text() const {
    std::string text = shape_text(*this) + " " + spec_name(type) + (decl.channels > 1 ? "x" + std::to_string(decl.channels) : "");
    if (decl.kind == ImageKind::surface) return text + " surface";
    text += std::string(", ") + filter_name(decl.filter) + ", " + address_name(decl.address);
    if (decl.normalized) text += ", normalized coordinates";
    if (decl.read == TextureRead::normalized_float) text += ", normalized-float reads";
    return text;
}

namespace {

bool reads_as_float(const TextureDecl& decl, ElementType type) {
    return type == ElementType::f32 || type == ElementType::f16 || decl.read == TextureRead::normalized_float;
}

void check_type(const TextureDecl& decl, ElementType type, const std::string& at) {
    const std::string held = std::string("buffer ") + decl.buffer + " holds " + spec_name(type);
    switch (type) {
        case ElementType::u8:
        case ElementType::i8:
        case ElementType::i32:
        case ElementType::u32:
        case ElementType::f16:
        case ElementType::f32: break;
        case ElementType::f64:
        case ElementType::i64:
            throw InputError(at + held + ", and CUDA's textures and surfaces have no 64-bit formats: read it through a pointer "
                                  "(or declare it i32 with twice the length, read int2 and join the halves with __hiloint2double)");
        default:
            throw InputError(at + held + "; CUDA's textures and surfaces read u8, i8, i32, u32, f16 and f32 elements: read it through a pointer");
    }
    if (decl.read == TextureRead::normalized_float && type != ElementType::u8 && type != ElementType::i8)
        throw InputError(at + "read=normalized-float maps 8-bit integers to [0,1] (u8) or [-1,1] (i8), but " + held +
                         (type == ElementType::f16 || type == ElementType::f32 ? ", which reads as float already: leave read= out"
                                                                               : ", and CUDA never promotes 32-bit integers: leave read= out"));
    if (decl.filter == TextureFilter::linear && !reads_as_float(decl, type))
        throw InputError(at + "filter=linear: CUDA filters only what a texture returns as float, and " + held +
                         " read as elements" + (type == ElementType::u8 || type == ElementType::i8 ? ": add read=normalized-float" : ": use filter=point"));
}

}  // namespace

TexturePlan plan_texture(const TextureDecl& decl, const NamedValues& names, const std::vector<PlanBuffer>& buffers) {
    const std::string at = std::string(decl.key()) + " " + decl.name + " (line " + std::to_string(decl.line) + "): ";
    TexturePlan plan;
    plan.decl = decl;
    plan.buffer = declared_buffer(buffers, decl.buffer, at);
    const PlanBuffer* buffer = &buffers[static_cast<size_t>(plan.buffer)];
    plan.type = buffer->type;
    check_type(decl, buffer->type, at);
    auto evaluate = [&](const std::string& expression, const char* what) {
        int64_t value = 0;
        try {
            value = evaluate_int_expr(expression, names);
        } catch (const InputError& error) {
            throw InputError(at + what + " '" + expression + "': " + error.what());
        }
        if (value < 1 || value > (int64_t{1} << 31))
            throw InputError(at + what + " '" + expression + "' is " + std::to_string(value) + "; it must be 1 to 2^31");
        return value;
    };
    const int dims = decl.dims();
    for (int d = 0; d < dims; ++d)  // the file writes outermost first; the driver wants innermost first
        plan.extent[static_cast<size_t>(d)] = evaluate(decl.shape[static_cast<size_t>(dims - 1 - d)], "shape extent");
    if (!decl.layers.empty()) plan.layers = evaluate(decl.layers, "layers");
    const int64_t components = plan.elements() * decl.channels;
    if (components > buffer->count) {
        throw InputError(at + shape_text(plan) + (decl.channels > 1 ? " elements of " + std::to_string(decl.channels) + " channels" : " elements") + " is " +
                         std::to_string(components) + " values, but buffer " + decl.buffer + " holds " + std::to_string(buffer->count));
    }
    return plan;
}

}  // namespace kplay
