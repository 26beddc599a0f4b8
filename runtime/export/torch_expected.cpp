// Expected outputs: built-in references as PyTorch, kplay-torch lines, and each check's tolerance.
#include "export/torch_expected.hpp"

#include <cmath>
#include <sstream>

#include "base/expression.hpp"
#include "export/python_expression.hpp"
#include "kernel_file/task_sizes.hpp"

namespace kplay {

namespace {

std::string number(double value) {
    std::ostringstream out;
    out.precision(17);
    out << value;
    return out.str();
}

// The relative size of one unit in the last place, for check=ulp:N.
double ulp_fraction(ElementType type) {
    switch (type) {
        case ElementType::f16: return std::ldexp(1.0, -10);
        case ElementType::f32: return std::ldexp(1.0, -23);
        case ElementType::f64: return std::ldexp(1.0, -52);
        default: return 0;
    }
}

// The built-in references, in PyTorch: grayscale's seed formula in double, truncated as the kernel's
// store truncates; matmul in fp64. Buffers and sizes are named as the task declares them.
std::string builtin_expression(const TaskSpec& task, const BufferSpec& output) {
    const auto& buffers = task.buffers;
    const auto& sizes = task.sizes.names;
    switch (task.reference.builtin) {
        case BuiltinReference::grayscale_seed: {
            if (buffers.empty() || !output.is_output()) return "";
            const std::string x = python_name(buffers[0].name);
            return "(0.2989 * " + x + "[:n].double() + 0.5870 * " + x + "[n:2 * n].double() + 0.1140 * " + x +
                   "[2 * n:].double()).to(torch.uint8)";
        }
        case BuiltinReference::matmul_fp64: {
            if (buffers.size() < 2 || sizes.size() < 3) return "";
            const std::string M = python_name(sizes[0]), N = python_name(sizes[1]), K = python_name(sizes[2]);
            return python_name(buffers[0].name) + ".view(" + M + ", " + K + ").double() @ " + python_name(buffers[1].name) + ".view(" + K +
                   ", " + N + ").double()";
        }
        case BuiltinReference::none: return "";
    }
    return "";
}

// check=bound:X: X times the reference's own per-element bound; an fp64 GEMM's is u sqrt(K) (|A||B|)ij.
std::string bound_expression(const TaskSpec& task, double factor) {
    if (task.reference.builtin != BuiltinReference::matmul_fp64 || task.buffers.size() < 2 || task.sizes.names.size() < 3) return "";
    const std::string M = python_name(task.sizes.names[0]), N = python_name(task.sizes.names[1]), K = python_name(task.sizes.names[2]);
    return number(factor) + " * 2.0**-24 * math.sqrt(" + K + ") * (" + python_name(task.buffers[0].name) + ".view(" + M + ", " + K +
           ").double().abs() @ " + python_name(task.buffers[1].name) + ".view(" + K + ", " + N + ").double().abs())";
}

void set_tolerance(ExpectedOutput& expected, const TaskSpec& task, const BufferSpec& buffer, const NamedValues& values) {
    const CheckSpec& check = buffer.check;
    expected.check = check.text;
    switch (check.kind) {
        case CheckKind::exact: break;
        case CheckKind::tolerance:
            expected.atol = check.abs.empty() ? "0" : number(evaluate_real_expr(check.abs, values));
            expected.rtol = check.rel.empty() ? 0 : evaluate_real_expr(check.rel, values);
            break;
        case CheckKind::ulp: expected.rtol = evaluate_real_expr(check.ulp, values) * ulp_fraction(buffer.type); break;
        case CheckKind::bound: {
            const std::string bound = bound_expression(task, evaluate_real_expr(check.bound, values));
            if (bound.empty()) expected.expression.clear();  // no per-element bound known outside kplay's reference
            expected.atol = bound.empty() ? "0" : bound;
            break;
        }
        case CheckKind::none: expected.compared = false; break;
    }
}

}  // namespace

std::vector<ExpectedOutput> expected_outputs(const TorchExport& input) {
    const TaskSpec& task = input.spec.task;
    const NamedValues values = size_values(task, task.sizes.gpu_default);
    std::vector<ExpectedOutput> result;
    for (size_t i = 0; i < task.buffers.size(); ++i) {
        const BufferSpec& buffer = task.buffers[i];
        if (!buffer.is_output()) continue;
        ExpectedOutput expected;
        expected.buffer = static_cast<int>(i);
        for (const auto& line : input.expectations)
            if (line.buffer == buffer.name) expected.expression = line.expression;
        if (expected.expression.empty() && task.reference.kind == ReferenceKind::builtin) expected.expression = builtin_expression(task, buffer);
        set_tolerance(expected, task, buffer, values);
        result.push_back(std::move(expected));
    }
    return result;
}

}  // namespace kplay
