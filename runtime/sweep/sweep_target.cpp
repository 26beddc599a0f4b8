// A sweep's target and the plan of each point, checked against the limits before anything compiles.
#include "sweep/sweep_target.hpp"

#include "base/cache_dir.hpp"
#include "base/error.hpp"
#include "base/text.hpp"
#include "plan/argument_binding.hpp"
#include "plan/plan.hpp"
#include "kernel_file/source_scan.hpp"
#include "kernel_file/task_sizes.hpp"

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
        if (param.name == "block") {  // block=32x8: x, then y and z; the axes it leaves out are 1
            const std::vector<int64_t> extents = block_extents(point.values[i]);
            for (size_t axis = 0; axis < 3; ++axis) block[axis] = axis < extents.size() ? extents[axis] : 1;
            continue;
        }
        for (int axis = 0; axis < 3; ++axis)
            if (param.name == kAxes[axis]) block[axis] = std::stoll(point.values[i]);
    }
    return block;
}

// The names a restriction sees at the point (sweep_names).
NamedValues restriction_names(const SweepTarget& target, const PointLaunch& launch) {
    NamedValues names;
    if (launch.problem.empty()) {
        // An expression of the annotation that does not evaluate here leaves its names out; the point's
        // run says what is wrong with it.
        names = launch.names;
        try {
            names = with_block_names(launch.spec, {}, names);
        } catch (const InputError&) {
        }
    }
    for (const auto& [name, value] : point_names(target.space, launch.point)) names[name] = value;
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

NamedValues sweep_names(const SweepTarget& target, const SweepPoint& point) { return restriction_names(target, point_launch(target, point)); }

std::string pruned_reason(const std::vector<std::string>& problems) {
    std::string line;
    for (std::string piece : problems) {
        piece = trim(piece);
        while (!piece.empty() && piece.back() == '.') piece.pop_back();
        if (piece.empty()) continue;
        if (!line.empty()) line += "; ";
        line += piece;
    }
    return line;
}

PointLaunch point_launch(const SweepTarget& target, const SweepPoint& point) {
    PointLaunch launch;
    launch.point = point;
    launch.spec = point_spec(target, point);  // copied once per point: pruning may take up thousands in a row
    launch.literals = point_literals(target, point);
    launch.defines = point_defines(target, point);
    launch.sizes = point_sizes(target, point);
    try {
        launch.names = expression_names(target, point, launch.spec);
        launch.block = point_block(target, point, launch.spec, launch.names);
    } catch (const InputError& error) {
        launch.problem = error.what();  // the point's run says what is wrong with the annotation here
    }
    return launch;
}

std::optional<std::string> prune_before_compile(const SweepTarget& target, const PointLaunch& launch) {
    try {
        if (auto broken = restriction_broken(target.space, launch.point, restriction_names(target, launch))) return broken;
        if (!launch.problem.empty()) return pruned_reason({launch.problem});
        LaunchSettings settings;
        settings.block = launch.block;
        settings.arg_overrides = launch.literals;
        make_plan(launch.spec, size_values(launch.spec.task, launch.sizes), {}, settings, target.device, nullptr);
    } catch (const LaunchRejected& refused) {
        return pruned_reason(refused.problems());
    } catch (const InputError& error) {
        return pruned_reason({error.what()});
    } catch (const std::exception& error) {  // a value std::stoll refuses (the parser keeps these integers)
        return std::string("cannot plan this point: ") + error.what();
    }
    return std::nullopt;
}

std::optional<std::string> prune_before_compile(const SweepTarget& target, const SweepPoint& point) {
    try {
        return prune_before_compile(target, point_launch(target, point));
    } catch (const std::exception& error) {
        return std::string("cannot plan this point: ") + error.what();
    }
}

RunRequest point_request(const RunRequest& base, const SweepTarget& target, const PointLaunch& launch) {
    RunRequest request = base;
    request.kernel_path = target.file;
    request.source = target.source;
    request.inputs.size = size_values_text(launch.sizes);
    request.bench_sizes = false;
    request.check_test_sizes = true;
    request.test_sizes_at_any_size = true;
    request.emulate = target.emulated;
    request.emulate_without_gpu = false;
    // A sweep is a table of times, as bench is: the emulated device's untracked build, on every core
    // (tracking races pays a second host build per point; `kplay-cli run` on the winner tracks them).
    request.emulation_track = false;
    request.device = target.ordinal;
    for (const auto& [name, value] : launch.literals) request.arg_overrides[name] = value;
    request.defines = merge_defines(request.defines, launch.defines);
    request.block = launch.block;  // unset where the annotation's block does not evaluate: the run reports it
    return request;
}

RunRequest point_request(const RunRequest& base, const SweepTarget& target, const SweepPoint& point) {
    return point_request(base, target, point_launch(target, point));
}

AnnotationValues annotation_values(const SweepTarget& target, const SweepPoint& point, std::vector<std::string>* skipped) {
    const PointLaunch launch = point_launch(target, point);
    if (!launch.problem.empty()) throw InputError(launch.problem);
    AnnotationValues values;
    values.literals = launch.literals;
    values.defines = launch.defines;
    values.block = launch.block;
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
