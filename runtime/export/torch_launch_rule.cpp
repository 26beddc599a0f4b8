// Block, grid, shared memory and arguments as Python, following plan/plan.cpp's order: sizes, sms,
// literal arguments, integer defines; block; the kernel's requires; grid (given, or auto over the
// task's extent); smem; then each kplay-launch line, which sees the first launch's block and grid.
#include "export/torch_launch_rule.hpp"

#include "base/error.hpp"
#include "base/text.hpp"
#include "export/python_expression.hpp"
#include "kernel_file/task_sizes.hpp"

namespace kplay {

namespace {

std::string py(const std::string& expression) { return python_expression(expression, PythonArithmetic::integer); }

std::string tuple3(std::vector<std::string> parts) {
    while (parts.size() < 3) parts.push_back("1");
    return "(" + join(parts) + ")";
}

std::vector<std::string> numbers(const std::vector<int64_t>& values) {
    std::vector<std::string> parts;
    for (int64_t value : values) parts.push_back(std::to_string(value));
    return parts;
}

std::vector<std::string> expressions(const std::vector<std::string>& values) {
    std::vector<std::string> parts;
    for (const auto& value : values) parts.push_back(py(value));
    return parts;
}

// The elements the auto grid covers, as plan/plan.cpp's launch_extent() chooses them.
std::vector<std::string> extent(const TaskSpec& task, int launch_dims) {
    if (launch_dims == 2) {
        if (!task.extent_2d.empty()) return expressions(task.extent_2d);
        for (const auto& buffer : task.buffers)
            if (buffer.is_output() && buffer.shape.size() >= 2) return {py(buffer.shape[1]), py(buffer.shape[0])};
        for (const auto& buffer : task.buffers)
            if (buffer.is_output()) return {py(buffer.length)};
    }
    if (!task.extent_1d.empty()) return {py(task.extent_1d)};
    std::vector<std::string> lengths{"1"};
    for (const auto& buffer : task.buffers) lengths.push_back(py(buffer.length));
    return {"max(" + join(lengths) + ")"};
}

std::string auto_grid(const std::vector<std::string>& covered, const std::string& block) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < covered.size(); ++i) parts.push_back("cdiv(" + covered[i] + ", " + block + "[" + std::to_string(i) + "])");
    return tuple3(parts);
}

int buffer_index(const TaskSpec& task, const std::string& name) {
    for (size_t i = 0; i < task.buffers.size(); ++i)
        if (task.buffers[i].name == name) return static_cast<int>(i);
    return -1;
}

std::vector<ExportedArgument> arguments(const KernelSpec& spec, const std::vector<std::string>& args) {
    std::vector<ExportedArgument> result;
    for (const auto& arg : args) {
        if (spec.tensor_map(arg))
            throw InputError("the argument '" + arg + "' is a TMA descriptor (kplay-tma), which kplay builds in its worker; "
                             "an exported snippet cannot pass one");
        if (const TextureDecl* image = spec.texture(arg))
            throw InputError("the argument '" + arg + "' is a " + (image->kind == ImageKind::texture ? "texture" : "surface") + " object (" +
                             image->key() + "), which kplay builds in its worker; an exported snippet cannot pass one");
        const auto equals = arg.find('=');
        if (equals != std::string::npos && arg.compare(equals, 2, "==") != 0) {
            result.push_back({-1, python_name(trim(arg.substr(0, equals)))});  // a literal: launch_settings() names it
            continue;
        }
        const int buffer = buffer_index(spec.task, trim(arg));
        result.push_back(buffer >= 0 ? ExportedArgument{buffer, ""} : ExportedArgument{-1, py(arg)});
    }
    return result;
}

void add_names(const TorchExport& input, std::vector<std::string>& lines) {
    const KernelSpec& spec = input.spec;
    for (const auto& line : python_derived_sizes(spec.task)) lines.push_back(line);
    lines.push_back("sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count");
    const NamedValues sizes = size_values(spec.task, spec.task.sizes.gpu_default);
    for (const auto& [name, value] : literal_arguments(spec.args, input.settings.arg_overrides, sizes))
        lines.push_back(python_name(name) + " = " + std::to_string(value) + "  # literal argument");
    for (const auto& [name, value] : integer_defines(merge_defines(spec.defines, input.defines)))
        lines.push_back(python_name(name) + " = " + std::to_string(value) + "  # -D" + name);
}

}  // namespace

std::vector<std::string> python_derived_sizes(const TaskSpec& task) {
    std::vector<std::string> lines;
    for (const auto& [name, expression] : task.sizes.derived) lines.push_back(python_name(name) + " = " + py(expression));
    return lines;
}

LaunchRule python_launch_rule(const TorchExport& input) {
    const KernelSpec& spec = input.spec;
    if (!spec.cluster.empty())
        throw InputError("this kernel launches in thread block clusters (cluster=" + join(spec.cluster, ",") +
                         "), which need cudaLaunchKernelEx; an exported snippet launches with <<<>>> only");
    LaunchRule rule;
    std::vector<std::string>& lines = rule.lines;
    add_names(input, lines);
    const LaunchSettings& settings = input.settings;
    lines.push_back("block = " + tuple3(settings.block ? numbers(*settings.block) : expressions(spec.block)));
    lines.push_back("block_x, block_y, block_z = block");
    if (!spec.requirement.empty()) {
        lines.push_back("if not (" + py(spec.requirement) + "):");
        lines.push_back("    raise ValueError(f\"this kernel requires " + spec.requirement + " (its kplay annotation), at block {block}\")");
    }
    std::string grid_rule;
    if (settings.grid && !settings.grid->empty()) {
        lines.push_back("grid = " + tuple3(numbers(*settings.grid)));
        grid_rule = "set by hand";
    } else if (!settings.grid && !spec.grid.empty()) {
        lines.push_back("grid = " + tuple3(expressions(spec.grid)));
        grid_rule = join(spec.grid, ",");
    } else {
        const auto covered = extent(spec.task, spec.launch_dims);
        lines.push_back("grid = " + auto_grid(covered, "block") + "  # auto: the task's extent over the block");
        grid_rule = "auto over " + join(covered);
    }
    lines.push_back("grid_x, grid_y, grid_z = grid");
    const std::string smem = settings.smem ? std::to_string(*settings.smem) : spec.smem.empty() ? "0" : py(spec.smem);
    lines.push_back("smem = " + smem);
    lines.push_back("launches = [(grid, block, smem, [])]");
    rule.launches.push_back({spec.kernel, spec.declaration(), arguments(spec, spec.args)});
    rule.summary.push_back(spec.kernel + ": block " + (settings.block ? join(numbers(*settings.block), ",") : join(spec.block, ",")) +
                           ", grid " + grid_rule + ", dynamic shared memory " + (settings.smem ? std::to_string(*settings.smem) : spec.smem.empty() ? "0" : spec.smem) + " bytes");
    for (size_t i = 0; i < spec.following.size(); ++i) {
        const FollowingLaunch& next = spec.following[i];
        const std::string suffix = "_" + std::to_string(i + 1);
        lines.push_back("block" + suffix + " = " + (next.block.empty() ? std::string("block") : tuple3(expressions(next.block))));
        lines.push_back("grid" + suffix + " = " + (next.grid.empty() ? auto_grid(extent(spec.task, 1), "block" + suffix) : tuple3(expressions(next.grid))));
        lines.push_back("launches.append((grid" + suffix + ", block" + suffix + ", " + (next.smem.empty() ? "0" : py(next.smem)) + ", []))");
        rule.launches.push_back({next.kernel, spec.declaration_of(next.kernel), arguments(spec, next.args)});
        rule.summary.push_back(next.kernel + ": block " + (next.block.empty() ? "as the first" : join(next.block, ",")) + ", grid " +
                               (next.grid.empty() ? "auto" : join(next.grid, ",")) + " (kplay-launch, line " + std::to_string(next.line) + ")");
    }
    // Each launch's value arguments, in order, computed here where every name is known.
    for (size_t i = 0; i < rule.launches.size(); ++i) {
        std::vector<std::string> values;
        for (const auto& argument : rule.launches[i].arguments)
            if (argument.buffer < 0) values.push_back(argument.python);
        lines.push_back("launches[" + std::to_string(i) + "][3].extend([" + join(values) + "])");
    }
    lines.push_back("return launches");
    return rule;
}

}  // namespace kplay
