// Evaluating and checking a TMA descriptor's declaration.
#include "plan/tensor_map_plan.hpp"

#include "base/error.hpp"
#include "base/text.hpp"
#include "plan/plan.hpp"

namespace kplay {

std::string TensorMapPlan::text() const {
    std::string shape, extent;
    for (int d = rank - 1; d >= 0; --d) {
        shape += std::to_string(dims[static_cast<size_t>(d)]) + (d ? "x" : "");
        extent += std::to_string(box[static_cast<size_t>(d)]) + (d ? "x" : "");
    }
    const int span = swizzle_span_bytes(swizzle);
    return shape + " " + (element == TmaElement::tf32 ? "tf32" : spec_name(type)) + ", box " + extent + ", " +
           (span ? std::to_string(span) + "B swizzle" : "no swizzle");
}

int declared_buffer(const std::vector<PlanBuffer>& buffers, const std::string& name, const std::string& at) {
    for (size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].name == name) return static_cast<int>(i);
    throw InputError(at + "buffer=" + name + " is not one of the task's buffers");
}

TensorMapPlan plan_tensor_map(const TensorMapDecl& decl, const NamedValues& names, const std::vector<PlanBuffer>& buffers) {
    const std::string at = "kplay-tma " + decl.name + " (line " + std::to_string(decl.line) + "): ";
    TensorMapPlan plan;
    plan.name = decl.name;
    plan.element = decl.element;
    plan.swizzle = decl.swizzle;
    plan.rank = static_cast<int>(decl.shape.size());
    plan.buffer = declared_buffer(buffers, decl.buffer, at);
    const PlanBuffer* buffer = &buffers[static_cast<size_t>(plan.buffer)];
    plan.type = buffer->type;
    if (decl.element == TmaElement::tf32 && buffer->type != ElementType::f32)
        throw InputError(at + "type=tf32 needs an f32 buffer; " + decl.buffer + " holds " + spec_name(buffer->type));
    const uint64_t element = element_size(buffer->type);
    auto evaluate = [&](const std::string& expression, const char* what) {
        try {
            return evaluate_int_expr(expression, names);
        } catch (const InputError& error) {
            throw InputError(at + what + " '" + expression + "': " + error.what());
        }
    };
    uint64_t elements = 1;
    for (int d = 0; d < plan.rank; ++d) {
        // The file writes outermost first; the driver wants innermost first.
        const size_t from = static_cast<size_t>(plan.rank - 1 - d);
        const int64_t extent = evaluate(decl.shape[from], "shape");
        const int64_t box = evaluate(decl.box[from], "box");
        if (extent < 1 || extent > (int64_t{1} << 32))
            throw InputError(at + "shape extent '" + decl.shape[from] + "' is " + std::to_string(extent) + "; it must be 1 to 2^32");
        if (box < 1 || box > 256)
            throw InputError(at + "box extent '" + decl.box[from] + "' is " + std::to_string(box) + "; a TMA box extent is 1 to 256");
        plan.dims[static_cast<size_t>(d)] = static_cast<uint64_t>(extent);
        plan.box[static_cast<size_t>(d)] = static_cast<uint32_t>(box);
        elements *= static_cast<uint64_t>(extent);
    }
    const uint64_t inner_bytes = plan.box[0] * element;
    if (inner_bytes % 16 != 0)
        throw InputError(at + "the box's inner extent is " + std::to_string(plan.box[0]) + " elements = " + std::to_string(inner_bytes) +
                         " bytes; TMA moves rows of whole 16-byte pieces, so make it a multiple of " + std::to_string(16 / std::max<uint64_t>(1, element)) + " elements");
    if (const int span = swizzle_span_bytes(plan.swizzle); span && inner_bytes > static_cast<uint64_t>(span))
        throw InputError(at + "the box's inner extent is " + std::to_string(inner_bytes) + " bytes, wider than its " + std::to_string(span) +
                         "-byte swizzle span; make it at most " + std::to_string(span / element) + " elements, or load several boxes");
    uint64_t pitch = element;
    for (int d = 1; d < plan.rank; ++d) {
        pitch *= plan.dims[static_cast<size_t>(d - 1)];
        if (pitch % 16 != 0)
            throw InputError(at + "one step along " + decl.shape[static_cast<size_t>(plan.rank - 1 - d)] + " is " + std::to_string(pitch) +
                             " bytes; TMA needs every row pitch to be a multiple of 16 bytes (say so with requires=, e.g. requires=" +
                             decl.shape.back() + "%" + std::to_string(16 / std::max<uint64_t>(1, element)) + "==0)");
        plan.strides[static_cast<size_t>(d - 1)] = pitch;
    }
    if (elements > static_cast<uint64_t>(buffer->count))
        throw InputError(at + "shape " + join(decl.shape, ",") + " is " + std::to_string(elements) + " elements, but buffer " + decl.buffer +
                         " holds " + std::to_string(buffer->count));
    return plan;
}

}  // namespace kplay
