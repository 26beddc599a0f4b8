// Launch planning: expressions, the auto grid, requirements, limits and the argument binding.
#include "plan/plan.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "base/error.hpp"
#include "base/text.hpp"

namespace kplay {

namespace {

Dim3 to_dim3(const std::vector<int64_t>& values) {
    Dim3 dim;
    if (values.size() > 0) dim.x = values[0];
    if (values.size() > 1) dim.y = values[1];
    if (values.size() > 2) dim.z = values[2];
    return dim;
}

std::vector<int64_t> evaluate_all(const std::vector<std::string>& expressions, const NamedValues& names, const char* what) {
    std::vector<int64_t> values;
    for (const auto& expression : expressions) {
        try {
            values.push_back(evaluate_int_expr(expression, names));
        } catch (const InputError& error) {
            throw InputError(std::string(what) + ": " + error.what());
        }
    }
    return values;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> merge_defines(std::vector<std::pair<std::string, std::string>> base,
                                                                const std::vector<std::pair<std::string, std::string>>& extra) {
    for (const auto& [name, value] : extra) {
        bool replaced = false;
        for (auto& entry : base)
            if (entry.first == name) {
                entry.second = value;
                replaced = true;
            }
        if (!replaced) base.emplace_back(name, value);
    }
    return base;
}

NamedValues integer_defines(const std::vector<std::pair<std::string, std::string>>& defines) {
    NamedValues names;
    for (const auto& [name, value] : defines) {
        const char* first = value.data();
        const char* last = value.data() + value.size();
        int64_t number = 0;
        const auto [end, error] = std::from_chars(first, last, number);
        if (error == std::errc() && end == last && !value.empty()) names[name] = number;
        else names.erase(name);  // a later non-integer definition hides an earlier integer one
    }
    return names;
}

std::array<int64_t, 3> launch_extent(const TaskSpec& task, int launch_dims, const NamedValues& values,
                                     const std::vector<PlanBuffer>& buffers) {
    if (launch_dims == 2) {
        if (!task.extent_2d.empty()) {
            const auto xy = evaluate_all(task.extent_2d, values, "extent");
            return {xy.at(0), xy.size() > 1 ? xy[1] : 1, 1};
        }
        for (const PlanBuffer& buffer : buffers)
            if (buffer.is_output && buffer.shape.size() >= 2) return {buffer.shape[1], buffer.shape[0], 1};
        for (const PlanBuffer& buffer : buffers)
            if (buffer.is_output) return {buffer.count, 1, 1};
    }
    if (!task.extent_1d.empty()) return {evaluate_all({task.extent_1d}, values, "extent").front(), 1, 1};
    int64_t largest = 1;
    for (const PlanBuffer& buffer : buffers) largest = std::max(largest, buffer.count);
    return {largest, 1, 1};
}

NamedValues with_block_names(const KernelSpec& spec, const LaunchSettings& settings, NamedValues names) {
    const Dim3 block = to_dim3(settings.block ? *settings.block : evaluate_all(spec.block, names, "block"));
    names["block_x"] = block.x;
    names["block_y"] = block.y;
    names["block_z"] = block.z;
    return names;
}

std::optional<std::string> requirement_broken(const KernelSpec& spec, const NamedValues& values) {
    if (spec.requirement.empty()) return std::nullopt;
    int64_t holds = 0;
    try {
        holds = evaluate_int_expr(spec.requirement, values);
    } catch (const InputError& error) {
        throw InputError("requires=" + spec.requirement + ": " + error.what());
    }
    if (holds != 0) return std::nullopt;
    std::vector<std::string> sizes;
    for (const auto& name : spec.task.sizes.names)
        if (values.count(name)) sizes.push_back(name + "=" + std::to_string(values.at(name)));
    if (spec.requirement.find("block_") != std::string::npos && values.count("block_x"))
        sizes.push_back("block " + std::to_string(values.at("block_x")) + "," + std::to_string(values.at("block_y")) + "," +
                        std::to_string(values.at("block_z")));
    return "this kernel requires " + spec.requirement + " (its kplay annotation, line " + std::to_string(spec.annotation_line) +
           "), which does not hold at " + join(sizes);
}

namespace {

// `declaration`: the kernel's, whose parameter types the binding checks; null for a library bound in
// its place (cuBLAS takes its own parameters, not a TMA kernel's descriptors).
LaunchPlan plan_launch(const KernelSpec& spec, const std::vector<std::string>& args, const KernelDecl* declaration,
                       const NamedValues& values, const std::vector<PlanBuffer>& buffers, const LaunchSettings& settings,
                       const DeviceInfo& device, const FunctionAttributes* function) {
    LaunchPlan plan;
    plan.names = values;
    plan.names["sms"] = device.sm_count;  // lets an annotation size a grid-stride grid: grid=sms*8
    // Literals (tw=16) always come from the kernel's own list: its block and smem expressions name them, even when a
    // library binds a different argument list in its place.
    const NamedValues literals = literal_arguments(spec.args, settings.arg_overrides, values);
    plan.names.insert(literals.begin(), literals.end());
    const NamedValues defines = integer_defines(spec.defines);
    plan.names.insert(defines.begin(), defines.end());  // never over a size or literal of the same name
    // The requirement sees this launch's block; the plan's names keep what the caller gave (a later
    // launch's expressions see the first launch's block_x, not their own).
    const NamedValues checked = with_block_names(spec, settings, plan.names);
    if (const auto broken = requirement_broken(spec, checked)) throw LaunchRejected("Not launched: " + *broken + ".", {*broken});

    LaunchConfig& launch = plan.launch;
    launch.block = {checked.at("block_x"), checked.at("block_y"), checked.at("block_z")};
    // The first launch's grid and smem expressions see its block (`smem=4*block_x`); a later launch's already
    // see the first launch's block_x, as the caller gave them.
    const NamedValues& sized = values.count("block_x") ? plan.names : checked;
    const std::vector<int64_t> grid = settings.grid ? *settings.grid : evaluate_all(spec.grid, sized, "grid");
    plan.extent = launch_extent(spec.task, spec.launch_dims, plan.names, buffers);
    launch.auto_grid = grid.empty();
    launch.grid = launch.auto_grid ? auto_grid(plan.extent, launch.block) : to_dim3(grid);
    launch.dynamic_smem = settings.smem ? *settings.smem : spec.smem.empty() ? 0 : evaluate_all({spec.smem}, sized, "smem").front();
    if (!spec.cluster.empty()) launch.cluster = to_dim3(evaluate_all(spec.cluster, plan.names, "cluster"));
    launch.cooperative = spec.cooperative;
    plan.coverage = compute_coverage(launch, plan.extent, spec.launch_dims, spec.task.presentation.coverage);
    // A grid the annotation sizes to a fraction of the extent (grid=cdiv(n,16*256), grid=sms*8) is its author's choice
    // of several elements per thread, not a launch that misses some; a grid set by hand still gets the warning.
    const bool declared_grid = !settings.grid && !spec.grid.empty();
    if (declared_grid && plan.coverage.elements >= 2 * plan.coverage.threads) plan.coverage.kind = CoverageKind::per_thread_work;
    const auto problems = validate_launch(launch, device.limits, function);
    if (!problems.empty()) throw LaunchRejected("Invalid launch configuration:\n  - " + join(problems, "\n  - "), problems);
    if (function) {
        std::vector<BindableBuffer> bindable;
        for (const PlanBuffer& buffer : buffers) bindable.push_back({buffer.name, buffer.type, buffer.count});
        std::vector<std::string> maps;
        for (const auto& map : spec.tensor_maps) maps.push_back(map.name);
        // The parameters as the instance has them: `T f` of a_kernel<float,256> is a float.
        std::optional<KernelDecl> instance;
        if (declaration && function->param_types.size() == declaration->params.size()) {
            instance = *declaration;
            for (size_t i = 0; i < instance->params.size(); ++i) instance->params[i].type = function->param_types[i];
            declaration = &*instance;
        }
        try {
            plan.arguments = bind_arguments(spec.kernel, with_overrides(args, settings.arg_overrides), plan.names, bindable, function->params,
                                            declaration, maps, spec.structs, spec.textures);
        } catch (const InputError& error) {
            throw ArgumentsRejected(error.what(), plan);
        }
        for (size_t i = 0; i < plan.arguments.size(); ++i) {
            BoundArgument& argument = plan.arguments[i];
            if (argument.tensor_map < 0) continue;
            TensorMapPlan map = plan_tensor_map(spec.tensor_maps.at(static_cast<size_t>(argument.tensor_map)), plan.names, buffers);
            map.argument = i;
            argument.value = spec.tensor_maps[static_cast<size_t>(argument.tensor_map)].buffer + " " + map.text();
            plan.tensor_maps.push_back(std::move(map));
        }
        for (size_t i = 0; i < plan.arguments.size(); ++i) {
            BoundArgument& argument = plan.arguments[i];
            if (argument.texture < 0) continue;
            TexturePlan image = plan_texture(spec.textures.at(static_cast<size_t>(argument.texture)), plan.names, buffers);
            image.argument = i;
            argument.value = image.decl.buffer + " " + image.text();
            plan.textures.push_back(std::move(image));
        }
    }
    return plan;
}

}  // namespace

LaunchPlan make_plan(const KernelSpec& spec, const NamedValues& values, const std::vector<PlanBuffer>& buffers,
                     const LaunchSettings& settings, const DeviceInfo& device, const FunctionAttributes* function) {
    return plan_launch(spec, spec.args, spec.declaration(), values, buffers, settings, device, function);
}

LaunchPlan make_plan_with_args(const KernelSpec& spec, const std::vector<std::string>& args, const NamedValues& values,
                               const std::vector<PlanBuffer>& buffers, const LaunchSettings& settings, const DeviceInfo& device,
                               const FunctionAttributes* function) {
    return plan_launch(spec, args, nullptr, values, buffers, settings, device, function);
}

}  // namespace kplay
