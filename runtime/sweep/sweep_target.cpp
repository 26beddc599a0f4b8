// A sweep's target and the plan of each point, checked against the limits before anything compiles.
#include "sweep/sweep_target.hpp"

#include "base/cache_dir.hpp"
#include "base/error.hpp"
#include "base/text.hpp"
#include "launch/argument_binding.hpp"
#include "launch/plan.hpp"
#include "spec/source_scan.hpp"
#include "spec/task_sizes.hpp"

namespace kplay {

namespace {

const char* const kAxes[] = {"block_x", "block_y", "block_z"};

std::map<std::string, std::string> point_literals(const SweepTarget& target, const SweepPoint& point) {
    std::map<std::string, std::string> literals;
    for (size_t i = 0; i < target.space.params.size(); ++i)
        if (target.space.params[i].kind == SweepParamKind::literal) literals[target.space.params[i].name] = point.values[i];
    return literals;
}

std::vector<std::pair<std::string, std::string>> point_defines(const SweepTarget& target, const SweepPoint& point) {
    std::vector<std::pair<std::string, std::string>> defines;
    for (size_t i = 0; i < target.space.params.size(); ++i)
        if (target.space.params[i].kind == SweepParamKind::define) defines.emplace_back(target.space.params[i].name, point.values[i]);
    return defines;
}

bool sweeps_block(const SweepTarget& target) {
    for (const SweepParam& param : target.space.params)
        if (param.kind == SweepParamKind::block) return true;
    return false;
}

// The spec as the point compiles it: the point's defines over the annotation's.
KernelSpec point_spec(const SweepTarget& target, const SweepPoint& point) {
    KernelSpec spec = target.spec;
    spec.defines = merge_defines(spec.defines, point_defines(target, point));
    return spec;
}

// The sizes, literals and integer defines the annotation's expressions see at this point.
NamedValues expression_names(const SweepTarget& target, const SweepPoint& point, const KernelSpec& spec) {
    NamedValues names = size_values(spec.task, point_sizes(target, point));
    names["sms"] = target.device.sm_count;
    const NamedValues literals = literal_arguments(spec.args, point_literals(target, point), names);
    names.insert(literals.begin(), literals.end());
    const NamedValues defines = integer_defines(spec.defines);
    names.insert(defines.begin(), defines.end());
    return names;
}

// The whole block at the point: the annotation's, with the swept axes replaced; unset when no axis is swept.
std::optional<std::vector<int64_t>> point_block(const SweepTarget& target, const SweepPoint& point, const KernelSpec& spec,
                                                const NamedValues& names) {
    if (!sweeps_block(target)) return std::nullopt;
    const NamedValues with_block = with_block_names(spec, {}, names);
    std::vector<int64_t> block{with_block.at("block_x"), with_block.at("block_y"), with_block.at("block_z")};
    for (size_t i = 0; i < target.space.params.size(); ++i) {
        const SweepParam& param = target.space.params[i];
        if (param.kind != SweepParamKind::block) continue;
        for (int axis = 0; axis < 3; ++axis)
            if (param.name == kAxes[axis]) block[axis] = std::stoll(point.values[i]);
    }
    return block;
}

// The names a restriction sees at the point, for the point's spec (sweep_names).
NamedValues restriction_names(const SweepTarget& target, const SweepPoint& point, const KernelSpec& spec) {
    NamedValues names;
    try {
        names = expression_names(target, point, spec);
        names = with_block_names(spec, {}, names);
    } catch (const InputError&) {
        // An expression of the annotation that does not evaluate here leaves its names out; the point's
        // run says what is wrong with it.
    }
    for (const auto& [name, value] : point_names(target.space, point)) names[name] = value;
    const DeviceLimits& limits = target.device.limits;
    names["threads_max"] = limits.max_threads_per_block;
    names["smem_max"] = limits.max_smem_per_block_optin;
    names["smem_default"] = limits.max_smem_per_block;
    names["regs_max"] = limits.max_regs_per_block;
    names["sms"] = target.device.sm_count;
    names["warp_size"] = limits.warp_size;
    return names;
}

}  // namespace

SweepTarget make_sweep_target(const std::filesystem::path& file, std::string source, SweepSpace space, const DeviceQuery& devices,
                              bool emulate, int ordinal, const std::string& size_text) {
    SweepTarget target;
    target.file = file;
    target.source = std::move(source);
    target.spec = resolve_kernel_spec(target.source, file);
    if (space.params.empty())
        throw InputError("A sweep needs at least one parameter, e.g. --param block_x=64..1024 step *2 (or a kplay-sweep line in the file).");
    resolve_sweep_params(space, target.spec);
    target.space = std::move(space);
    const bool have_gpu = devices.problem().empty() && ordinal >= 0 && ordinal < static_cast<int>(devices.devices.size());
    target.emulated = emulate || !have_gpu;
    if (target.emulated) {
        if (!devices.emulated.available) throw InputError("No device to sweep on: " + devices.problem() + " " + devices.emulated.problem);
        target.device = devices.emulated.device;
    } else {
        target.device = devices.devices[ordinal];
        target.ordinal = ordinal;
    }
    const SizeSpec& sizes = target.spec.task.sizes;
    if (!size_text.empty()) target.sizes = parse_size_values(target.spec.task, size_text);
    else if (target.emulated && !sizes.cpu_bench.empty()) target.sizes = sizes.cpu_bench.front();
    else if (!sizes.gpu_bench.empty() && !target.emulated) target.sizes = sizes.gpu_bench.front();
    else target.sizes = target.emulated ? sizes.cpu_default : sizes.gpu_default;
    target.sizes_text = size_values_text(target.sizes);
    // A restriction naming something that exists nowhere is the user's mistake, said once here rather
    // than as the reason every point is pruned.
    restriction_broken(target.space, point_at(target.space, 0), sweep_names(target, point_at(target.space, 0)));
    return target;
}

std::vector<int64_t> point_sizes(const SweepTarget& target, const SweepPoint& point) {
    std::vector<int64_t> sizes = target.sizes;
    const auto& names = target.spec.task.sizes.names;
    for (size_t i = 0; i < target.space.params.size(); ++i) {
        if (target.space.params[i].kind != SweepParamKind::size) continue;
        for (size_t s = 0; s < names.size() && s < sizes.size(); ++s)
            if (names[s] == target.space.params[i].name) sizes[s] = std::stoll(point.values[i]);
    }
    return sizes;
}

NamedValues sweep_names(const SweepTarget& target, const SweepPoint& point) { return restriction_names(target, point, point_spec(target, point)); }

std::string pruned_reason(std::string_view error) {
    std::string text(error);
    for (const char* prefix : {"Invalid launch configuration:\n  - ", "Not launched: "})
        if (text.rfind(prefix, 0) == 0) text = text.substr(std::string_view(prefix).size());
    std::string line;
    for (const std::string& part : split_list(text, '\n')) {
        std::string piece = trim(part);
        if (piece.rfind("- ", 0) == 0) piece = piece.substr(2);
        while (!piece.empty() && piece.back() == '.') piece.pop_back();
        if (piece.empty()) continue;
        if (!line.empty()) line += "; ";
        line += piece;
    }
    return line;
}

std::optional<std::string> prune_before_compile(const SweepTarget& target, const SweepPoint& point) {
    try {
        const KernelSpec spec = point_spec(target, point);  // copied once per point: pruning may take up thousands in a row
        if (auto broken = restriction_broken(target.space, point, restriction_names(target, point, spec))) return broken;
        const NamedValues names = expression_names(target, point, spec);
        LaunchSettings settings;
        settings.block = point_block(target, point, spec, names);
        settings.arg_overrides = point_literals(target, point);
        make_plan(spec, size_values(spec.task, point_sizes(target, point)), {}, settings, target.device, nullptr);
    } catch (const InputError& error) {
        return pruned_reason(error.what());
    } catch (const std::exception& error) {  // a value std::stoll refuses (the parser keeps these integers)
        return std::string("cannot plan this point: ") + error.what();
    }
    return std::nullopt;
}

RunRequest point_request(const RunRequest& base, const SweepTarget& target, const SweepPoint& point) {
    RunRequest request = base;
    request.kernel_path = target.file;
    request.source = target.source;
    request.inputs.size = size_values_text(point_sizes(target, point));
    request.bench_sizes = false;
    request.check_test_sizes = true;
    request.test_sizes_at_any_size = true;
    request.emulate = target.emulated;
    request.emulate_without_gpu = false;
    request.device = target.ordinal;
    for (const auto& [name, value] : point_literals(target, point)) request.arg_overrides[name] = value;
    request.defines = merge_defines(request.defines, point_defines(target, point));
    try {
        const KernelSpec spec = point_spec(target, point);
        request.block = point_block(target, point, spec, expression_names(target, point, spec));
    } catch (const InputError&) {
        // The annotation's block does not evaluate at this point: the run reports it.
    }
    return request;
}

AnnotationValues annotation_values(const SweepTarget& target, const SweepPoint& point, std::vector<std::string>* skipped) {
    AnnotationValues values;
    values.literals = point_literals(target, point);
    values.defines = point_defines(target, point);
    const KernelSpec spec = point_spec(target, point);
    values.block = point_block(target, point, spec, expression_names(target, point, spec));
    for (size_t i = 0; i < target.space.params.size(); ++i)
        if (target.space.params[i].kind == SweepParamKind::size && skipped)
            skipped->push_back(target.space.params[i].name + "=" + point.values[i]);
    return values;
}

AnnotationEdit point_edit(const SweepTarget& target, const SweepPoint& point, std::string& file_bytes, std::vector<std::string>* skipped) {
    if (!read_whole_file(target.file, file_bytes)) throw InputError("Cannot read " + target.file.string() + ".");
    // Compared as kplay reads a kernel file (a byte-order mark and CRLF set aside), as the sweep read it.
    if (read_source_file(target.file) != target.source)
        throw InputError(target.file.filename().string() + " changed since the sweep began; sweep it again before writing.");
    return edit_annotation(file_bytes, annotation_values(target, point, skipped));
}

}  // namespace kplay
