// Field lists for the worker protocol's JSON: one line per type, every field named.
//
// Missing fields keep their defaults (the _WITH_DEFAULT forms), so a report from a slightly older
// worker still decodes; the protocol version in the frame header guards real incompatibilities.
#include "values/codec.hpp"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>

namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
    static void to_json(json& j, const std::optional<T>& value) {
        if (value) j = *value;
        else j = nullptr;
    }
    static void from_json(const json& j, std::optional<T>& value) {
        if (j.is_null()) value.reset();
        else value = j.get<T>();
    }
};
}  // namespace nlohmann

namespace kplay {

// Enums travel by their names (the same tables the rest of kplay uses).
#define KPLAY_ENUM_JSON(Enum, to_name, from_name)                                              \
    void to_json(nlohmann::json& j, const Enum& value) { j = to_name(value); }                  \
    void from_json(const nlohmann::json& j, Enum& value) {                                      \
        const auto parsed = from_name(j.get<std::string>());                                    \
        if (!parsed) throw nlohmann::json::other_error::create(501, "unknown " #Enum " '" + j.get<std::string>() + "'", &j); \
        value = *parsed;                                                                        \
    }
KPLAY_ENUM_JSON(Stage, stage_name, parse_stage)
KPLAY_ENUM_JSON(ErrorCode, error_code_name, parse_error_code)
KPLAY_ENUM_JSON(ThreadOrder, thread_order_name, parse_thread_order)
KPLAY_ENUM_JSON(Baseline, baseline_name, parse_baseline)
KPLAY_ENUM_JSON(ElementType, spec_name, parse_spec_name<ElementType>)
KPLAY_ENUM_JSON(BufferRole, spec_name, parse_spec_name<BufferRole>)
KPLAY_ENUM_JSON(InitKind, spec_name, parse_spec_name<InitKind>)
KPLAY_ENUM_JSON(ImageLayout, spec_name, parse_spec_name<ImageLayout>)
KPLAY_ENUM_JSON(CheckKind, spec_name, parse_spec_name<CheckKind>)
KPLAY_ENUM_JSON(CeilingKind, spec_name, parse_spec_name<CeilingKind>)
KPLAY_ENUM_JSON(ReferenceKind, spec_name, parse_spec_name<ReferenceKind>)
KPLAY_ENUM_JSON(BuiltinReference, spec_name, parse_spec_name<BuiltinReference>)
KPLAY_ENUM_JSON(OutputKind, spec_name, parse_spec_name<OutputKind>)
KPLAY_ENUM_JSON(RateUnit, spec_name, parse_spec_name<RateUnit>)
KPLAY_ENUM_JSON(CoverageKind, spec_name, parse_spec_name<CoverageKind>)
#undef KPLAY_ENUM_JSON

NLOHMANN_JSON_SERIALIZE_ENUM(Severity, {{Severity::error, "error"}, {Severity::warning, "warning"}, {Severity::remark, "remark"}})
NLOHMANN_JSON_SERIALIZE_ENUM(PchUse, {{PchUse::none, "none"}, {PchUse::created, "created"}, {PchUse::used, "used"}})
NLOHMANN_JSON_SERIALIZE_ENUM(DriverStatus::State, {{DriverStatus::State::ready, "ready"},
                                                   {DriverStatus::State::no_library, "no_library"},
                                                   {DriverStatus::State::too_old, "too_old"},
                                                   {DriverStatus::State::missing_symbol, "missing_symbol"},
                                                   {DriverStatus::State::init_failed, "init_failed"}})

// JSON has no NaN or infinity (nlohmann writes null); a NaN error or an infinite ratio must survive.
struct Real {
    double value = 0;
};
void to_json(nlohmann::json& j, const Real& v) { j = std::isfinite(v.value) ? nlohmann::json(v.value) : nlohmann::json(std::to_string(v.value)); }
void from_json(const nlohmann::json& j, Real& v) { v.value = j.is_string() ? std::strtod(j.get<std::string>().c_str(), nullptr) : j.get<double>(); }

namespace {

// nlohmann's get<int>() of a float outside int's range (or get<uint64_t>() of a negative one) is a
// static_cast with undefined behaviour (found by tests/fuzz/fuzz_protocol). kplay's encoder writes every
// integer field as a JSON integer, so a float where an integer belongs is a malformed message: the
// decoders below refuse it with a type_error first. These are the integer fields' names (no real field
// shares one); "values" holds integers under any name. Nesting deeper than any message is refused too.
bool is_integer_field(const std::string& key) {
    static const std::set<std::string, std::less<>> names{
        "annotation_line", "binary_version", "block", "blocks_per_sm", "bucket", "buffer", "cc_major", "cc_minor",
        "channels", "column", "const_bytes", "coords", "count", "cpu_bench", "cpu_default", "device", "driver_version",
        "dynamic_smem", "elements", "emulation_workers", "error_line", "gpu_bench", "gpu_default", "grid", "height",
        "id", "idle_threads", "index", "input_copies", "input_h", "input_w", "l2_bytes", "launch_dims", "line",
        "local_bytes_per_thread", "max_block_dim", "max_grid_dim", "max_regs_per_block", "max_regs_per_sm",
        "max_smem_per_block", "max_smem_per_block_optin", "max_smem_per_sm", "max_threads_per_block",
        "max_threads_per_sm", "max_cluster_size", "memory_bus_bits", "memory_clock_khz", "nan_inf", "nondeterministic", "offset",
        "order_seed", "ordinal", "over_tolerance", "printf_dropped", "ptx_version", "registers_per_thread", "repeat",
        "seed", "series_bucket", "series_count", "size", "sm_count", "smem", "static_smem_bytes", "swizzle_bytes", "tensor_map", "test", "texture", "threads",
        "total_memory", "uncovered", "unwritten", "warmup", "warp_size", "width", "x", "y", "z"};
    return names.count(key) != 0;
}

void check_integer_fields(const nlohmann::json& j, bool integer = false, bool members_integer = false, int depth = 0) {
    if (depth > 64) throw nlohmann::json::type_error::create(302, "message nested too deeply", &j);
    if (integer && j.is_number_float())
        throw nlohmann::json::type_error::create(302, "a whole number is expected, not " + j.dump(), &j);
    if (j.is_array()) {
        for (const auto& element : j) check_integer_fields(element, integer, members_integer, depth + 1);
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            check_integer_fields(it.value(), members_integer || is_integer_field(it.key()), it.key() == "values", depth + 1);
    }
}

}  // namespace

void to_json(nlohmann::json& j, const Metric& v) { j = {{"name", v.name}, {"value", Real{v.value}}}; }
void from_json(const nlohmann::json& j, Metric& v) {
    j.at("name").get_to(v.name);
    v.value = j.at("value").get<Real>().value;
}

void to_json(nlohmann::json& j, const BadElement& v) {
    j = {{"index", v.index}, {"coords", v.coords}, {"got", Real{v.got}}, {"expected", Real{v.expected}}, {"allowed", Real{v.allowed}},
         {"unwritten", v.unwritten}, {"text", v.text}};
}
void from_json(const nlohmann::json& j, BadElement& v) {
    j.at("index").get_to(v.index);
    j.at("coords").get_to(v.coords);
    v.got = j.at("got").get<Real>().value;
    v.expected = j.at("expected").get<Real>().value;
    v.allowed = j.at("allowed").get<Real>().value;
    j.at("unwritten").get_to(v.unwritten);
    j.at("text").get_to(v.text);
}

void to_json(nlohmann::json& j, const BufferCheck& v) {
    j = {{"buffer", v.buffer}, {"rule", v.rule}, {"checked", v.checked}, {"passed", v.passed}, {"elements", v.elements},
         {"over_tolerance", v.over_tolerance}, {"unwritten", v.unwritten}, {"nan_inf", v.nan_inf},
         {"nondeterministic", v.nondeterministic}, {"max_abs_error", Real{v.max_abs_error}}, {"max_rel_error", Real{v.max_rel_error}},
         {"max_error_ratio", Real{v.max_error_ratio}}, {"rel_frobenius_error", Real{v.rel_frobenius_error}},
         {"tolerance", Real{v.tolerance}}, {"first_bad", v.first_bad}, {"summary", v.summary}};
}
void from_json(const nlohmann::json& j, BufferCheck& v) {
    j.at("buffer").get_to(v.buffer);
    j.at("rule").get_to(v.rule);
    j.at("checked").get_to(v.checked);
    j.at("passed").get_to(v.passed);
    j.at("elements").get_to(v.elements);
    j.at("over_tolerance").get_to(v.over_tolerance);
    j.at("unwritten").get_to(v.unwritten);
    j.at("nan_inf").get_to(v.nan_inf);
    j.at("nondeterministic").get_to(v.nondeterministic);
    v.max_abs_error = j.at("max_abs_error").get<Real>().value;
    v.max_rel_error = j.at("max_rel_error").get<Real>().value;
    v.max_error_ratio = j.at("max_error_ratio").get<Real>().value;
    v.rel_frobenius_error = j.at("rel_frobenius_error").get<Real>().value;
    v.tolerance = j.at("tolerance").get<Real>().value;
    j.at("first_bad").get_to(v.first_bad);
    j.at("summary").get_to(v.summary);
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Diagnostic, file, line, column, severity, code, message, source_line, context, ptx_line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CompileResult, ok, diagnostics, log, binary, ptx, is_cubin, arch, lowered_names,
                                                options_used, compile_ms, lookup_ms, cache_hit, failure, pch)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KernelParam, type, name)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KernelDecl, name, is_template, is_extern_c, params, line, scope)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FollowingLaunch, kernel, args, block, grid, smem, line)

void to_json(nlohmann::json& j, const TensorMapDecl& v) {
    j = {{"name", v.name}, {"buffer", v.buffer}, {"shape", v.shape}, {"box", v.box}, {"swizzle_bytes", swizzle_span_bytes(v.swizzle)},
         {"tf32", v.element == TmaElement::tf32}, {"line", v.line}};
}
void from_json(const nlohmann::json& j, TensorMapDecl& v) {
    j.at("name").get_to(v.name);
    j.at("buffer").get_to(v.buffer);
    j.at("shape").get_to(v.shape);
    j.at("box").get_to(v.box);
    const int bytes = j.at("swizzle_bytes").get<int>();
    v.swizzle = bytes == 0 ? TmaSwizzle::none : bytes == 32 ? TmaSwizzle::bytes32 : bytes == 64 ? TmaSwizzle::bytes64 : TmaSwizzle::bytes128;
    if (bytes != 0 && bytes != 32 && bytes != 64 && bytes != 128)
        throw nlohmann::json::type_error::create(302, "swizzle_bytes must be 0, 32, 64 or 128", &j);
    v.element = j.at("tf32").get<bool>() ? TmaElement::tf32 : TmaElement::same;
    j.at("line").get_to(v.line);
}
NLOHMANN_JSON_SERIALIZE_ENUM(ImageKind, {{ImageKind::texture, "texture"}, {ImageKind::surface, "surface"}})
NLOHMANN_JSON_SERIALIZE_ENUM(TextureFilter, {{TextureFilter::point, "point"}, {TextureFilter::linear, "linear"}})
NLOHMANN_JSON_SERIALIZE_ENUM(TextureAddress, {{TextureAddress::clamp, "clamp"}, {TextureAddress::wrap, "wrap"},
                                              {TextureAddress::mirror, "mirror"}, {TextureAddress::border, "border"}})
NLOHMANN_JSON_SERIALIZE_ENUM(TextureRead, {{TextureRead::element, "element"}, {TextureRead::normalized_float, "normalized-float"}})
NLOHMANN_JSON_SERIALIZE_ENUM(TextureLayout, {{TextureLayout::standard, "standard"}, {TextureLayout::array, "array"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TextureDecl, kind, name, buffer, shape, layers, channels, filter, address, normalized, read,
                                                layout, line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InitSpec, kind, params, layout, text)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CheckSpec, kind, abs, rel, ulp, bound, text)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BufferSpec, name, type, length, shape, role, init, prefill, zeros_allowed, seed, check, line, constant)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(StructField, name, type, pointer, value)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(StructDecl, param, type, fields, line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SizeSpec, names, gpu_default, cpu_default, test, cpu_test, gpu_bench, cpu_bench, derived)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CostSpec, bytes, flops, ceiling, gemm)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReferenceSpec, kind, builtin, function, file, kernel, line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Presentation, output, rate, coverage)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CanonicalBinding, params, args, launch_dims)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TaskSpec, name, summary, builtin, sizes, buffers, cost, reference, presentation,
                                                extent_1d, extent_2d, canonical, declaration_line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceLimits, max_threads_per_block, max_block_dim, max_grid_dim,
                                                max_smem_per_block, max_smem_per_block_optin, max_regs_per_block, warp_size,
                                                max_cluster_size)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceInfo, ordinal, name, uuid, cc_major, cc_minor, sm_count, total_memory,
                                                max_threads_per_sm, max_smem_per_sm, max_regs_per_sm, l2_bytes, memory_bus_bits,
                                                memory_clock_khz, limits)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DriverStatus, state, message, driver_version)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EmulatedDeviceStatus, available, host_compiler, problem, device)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ParamLayout, offset, size)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FunctionAttributes, registers_per_thread, static_smem_bytes, local_bytes_per_thread,
                                                const_bytes, max_threads_per_block, ptx_version, binary_version, params, param_types)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Occupancy, blocks_per_sm, fraction)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Dim3, x, y, z)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LaunchConfig, grid, block, dynamic_smem, auto_grid, cluster, cooperative)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FollowingLaunchReport, kernel, launch)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Coverage, threads, elements, idle_threads, uncovered, kind)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BoundArgument, param, binding, kind, value, buffer, size, tensor_map, texture)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TimingStats, count, median, min, max, mean, stddev)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ClockSample, sm_mhz, memory_mhz, temperature_c, power_w, throttle_reasons)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TimingConditions, recorded, why_not, before, after, throttled, moved)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Ceiling, kind, name, gbps, gflops, ms, bytes, cached, deferred)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SizeCheck, sizes, seed, passed, skipped, summary, error_code)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CheckReport, passed, summary, buffers, overwritten_inputs, input_independent, input_independent_at, replayed, sizes,
                                                metrics, first_bad, tolerance, reference, reference_ms, reference_cached)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InputRequest, image_path, size, seed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RunTimes, compiled_at_ms, loaded_at_ms, launched_at_ms, checked_at_ms, partial_at_ms, timed_ms, further_sizes_ms, run_ms)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FaultInfo, sticky, explanation, hint, sanitizer_command, overrun)
NLOHMANN_JSON_SERIALIZE_ENUM(RaceSpace, {{RaceSpace::shared, "shared"}, {RaceSpace::global, "global"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RaceAccess, block, thread, write, atomic, is_volatile, file, line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Race, space, kernel, array, element, first, second, same_warp, same_block, conflicts)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ElementRef, buffer, index)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ElementWriter, element, written, block, thread, many, atomic, file, line, index_story)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BufferWrites, buffer, elements, written, many)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(IndexPart, name, expression, resolved)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(IndexRecipe, name, expression, parts)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WriterSite, file, line, recipe)

// The writer map's scalar fields; its cells are a blob.
void to_json(nlohmann::json& j, const WriterMap& v) {
    j = {{"buffer", v.buffer}, {"kernel", v.kernel}, {"grid", v.grid}, {"block", v.block}, {"sites", v.sites}};
}
void from_json(const nlohmann::json& j, WriterMap& v) {
    j.at("buffer").get_to(v.buffer);
    j.at("kernel").get_to(v.kernel);
    j.at("grid").get_to(v.grid);
    j.at("block").get_to(v.block);
    j.at("sites").get_to(v.sites);
}

// The view's scalar fields; its arrays are blobs.
void to_json(nlohmann::json& j, const OutputView& v) {
    j = {{"kind", v.kind}, {"buffer", v.buffer}, {"width", v.width}, {"height", v.height}, {"rows", v.rows}, {"cols", v.cols}, {"step", v.step}, {"full_view_key", v.full_view_key}, {"channels", v.channels}, {"input_w", v.input_w},
         {"input_h", v.input_h}, {"input_identity", v.input_identity}, {"series_count", v.series.count},
         {"series_bucket", v.series.bucket}, {"value", v.value}, {"expected", v.expected}};
}
void from_json(const nlohmann::json& j, OutputView& v) {
    j.at("kind").get_to(v.kind);
    j.at("buffer").get_to(v.buffer);
    j.at("width").get_to(v.width);
    j.at("height").get_to(v.height);
    if (const auto it = j.find("rows"); it != j.end()) it->get_to(v.rows);
    if (const auto it = j.find("cols"); it != j.end()) it->get_to(v.cols);
    if (const auto it = j.find("step"); it != j.end()) it->get_to(v.step);
    if (const auto it = j.find("full_view_key"); it != j.end()) it->get_to(v.full_view_key);
    j.at("channels").get_to(v.channels);
    j.at("input_w").get_to(v.input_w);
    j.at("input_h").get_to(v.input_h);
    j.at("input_identity").get_to(v.input_identity);
    j.at("series_count").get_to(v.series.count);
    j.at("series_bucket").get_to(v.series.bucket);
    j.at("value").get_to(v.value);
    j.at("expected").get_to(v.expected);
}

void to_json(nlohmann::json& j, const KernelSpec& v) {
    j = {{"task", v.task}, {"kernel", v.kernel}, {"args", v.args}, {"launch_dims", v.launch_dims}, {"block", v.block}, {"grid", v.grid},
         {"smem", v.smem}, {"defines", v.defines}, {"tolerance", v.tolerance}, {"requires", v.requirement},
         {"annotation_line", v.annotation_line}, {"inferred", v.inferred}, {"kernels", v.kernels},
         {"reference_function", v.reference_function}, {"following", v.following}, {"arch", v.arch}, {"cluster", v.cluster},
         {"tensor_maps", v.tensor_maps}, {"nvrtc_options", v.nvrtc_options}, {"include_dirs", v.include_dirs}, {"structs", v.structs},
         {"cooperative", v.cooperative}, {"textures", v.textures}};
}
void from_json(const nlohmann::json& j, KernelSpec& v) {
    check_integer_fields(j);
    j.at("task").get_to(v.task);
    j.at("kernel").get_to(v.kernel);
    j.at("args").get_to(v.args);
    j.at("launch_dims").get_to(v.launch_dims);
    j.at("block").get_to(v.block);
    j.at("grid").get_to(v.grid);
    j.at("smem").get_to(v.smem);
    j.at("defines").get_to(v.defines);
    j.at("tolerance").get_to(v.tolerance);
    j.at("requires").get_to(v.requirement);
    j.at("annotation_line").get_to(v.annotation_line);
    j.at("inferred").get_to(v.inferred);
    j.at("kernels").get_to(v.kernels);
    j.at("reference_function").get_to(v.reference_function);
    j.at("following").get_to(v.following);
    // Absent from a peer built before Hopper's features: none of them.
    if (const auto it = j.find("arch"); it != j.end()) it->get_to(v.arch);
    if (const auto it = j.find("cluster"); it != j.end()) it->get_to(v.cluster);
    if (const auto it = j.find("tensor_maps"); it != j.end()) it->get_to(v.tensor_maps);
    j.at("nvrtc_options").get_to(v.nvrtc_options);
    j.at("include_dirs").get_to(v.include_dirs);
    if (const auto it = j.find("structs"); it != j.end()) it->get_to(v.structs);  // absent from an older peer: none
    if (const auto it = j.find("cooperative"); it != j.end()) it->get_to(v.cooperative);
    if (const auto it = j.find("textures"); it != j.end()) it->get_to(v.textures);  // absent from an older peer: none
}

void to_json(nlohmann::json& j, const RunRequest& v) {
    j = {{"kernel_path", v.kernel_path.string()}, {"source", v.source}, {"inputs", v.inputs}, {"block", v.block},
         {"grid", v.grid}, {"smem", v.smem}, {"arg_overrides", v.arg_overrides}, {"init_overrides", v.init_overrides}, {"defines", v.defines},
         {"include_dirs", v.include_dirs}, {"tolerance", v.tolerance}, {"arch", v.arch}, {"device", v.device}, {"warmup", v.warmup}, {"repeat", v.repeat},
         {"flush_l2", v.flush_l2}, {"measure_ceiling", v.measure_ceiling}, {"defer_library_ceiling", v.defer_library_ceiling},
         {"check_test_sizes", v.check_test_sizes}, {"test_sizes_at_any_size", v.test_sizes_at_any_size}, {"bench_sizes", v.bench_sizes}, {"keep_outputs", v.keep_outputs}, {"view_side", v.view_side}, {"progressive", v.progressive}, {"known_input", v.known_input},
         {"rotate_inputs", v.rotate_inputs}, {"remeasure_ceiling", v.remeasure_ceiling}, {"baseline", v.baseline},
         {"emulate", v.emulate}, {"emulate_without_gpu", v.emulate_without_gpu}, {"thread_order", v.thread_order},
         {"order_seed", v.order_seed}, {"emulation_workers", v.emulation_workers}, {"emulation_timeout_s", v.emulation_timeout_s},
         {"reference_timeout_s", v.reference_timeout_s},
         {"emulation_thorough", v.emulation_thorough}, {"emulation_track", v.emulation_track}, {"who_wrote", v.who_wrote}, {"writer_map", v.writer_map}, {"emulation_symbol_check", v.emulation_symbol_check},
         {"emulation_sandbox", v.emulation_sandbox}, {"emulation_debug", v.emulation_debug}};
}

void from_json(const nlohmann::json& j, RunRequest& v) {
    check_integer_fields(j);
    v.kernel_path = j.at("kernel_path").get<std::string>();
    j.at("source").get_to(v.source);
    j.at("inputs").get_to(v.inputs);
    j.at("block").get_to(v.block);
    j.at("grid").get_to(v.grid);
    j.at("smem").get_to(v.smem);
    j.at("arg_overrides").get_to(v.arg_overrides);
    j.at("init_overrides").get_to(v.init_overrides);
    j.at("defines").get_to(v.defines);
    if (const auto it = j.find("include_dirs"); it != j.end()) it->get_to(v.include_dirs);
    j.at("tolerance").get_to(v.tolerance);
    j.at("arch").get_to(v.arch);
    j.at("device").get_to(v.device);
    j.at("warmup").get_to(v.warmup);
    j.at("repeat").get_to(v.repeat);
    j.at("flush_l2").get_to(v.flush_l2);
    j.at("measure_ceiling").get_to(v.measure_ceiling);
    j.at("defer_library_ceiling").get_to(v.defer_library_ceiling);
    j.at("check_test_sizes").get_to(v.check_test_sizes);
    j.at("test_sizes_at_any_size").get_to(v.test_sizes_at_any_size);
    j.at("bench_sizes").get_to(v.bench_sizes);
    j.at("keep_outputs").get_to(v.keep_outputs);
    if (const auto it = j.find("view_side"); it != j.end()) it->get_to(v.view_side);
    if (const auto it = j.find("progressive"); it != j.end()) it->get_to(v.progressive);
    j.at("known_input").get_to(v.known_input);
    j.at("rotate_inputs").get_to(v.rotate_inputs);
    j.at("remeasure_ceiling").get_to(v.remeasure_ceiling);
    j.at("baseline").get_to(v.baseline);
    j.at("emulate").get_to(v.emulate);
    j.at("emulate_without_gpu").get_to(v.emulate_without_gpu);
    j.at("thread_order").get_to(v.thread_order);
    j.at("order_seed").get_to(v.order_seed);
    j.at("emulation_workers").get_to(v.emulation_workers);
    j.at("emulation_timeout_s").get_to(v.emulation_timeout_s);
    j.at("reference_timeout_s").get_to(v.reference_timeout_s);
    j.at("emulation_thorough").get_to(v.emulation_thorough);
    j.at("emulation_track").get_to(v.emulation_track);
    j.at("who_wrote").get_to(v.who_wrote);
    if (const auto it = j.find("writer_map"); it != j.end()) it->get_to(v.writer_map);
    j.at("emulation_symbol_check").get_to(v.emulation_symbol_check);
    j.at("emulation_sandbox").get_to(v.emulation_sandbox);
    if (const auto it = j.find("emulation_debug"); it != j.end()) it->get_to(v.emulation_debug);
}

void to_json(nlohmann::json& j, const RunReport& v) {
    j = {{"stage", v.stage}, {"error", v.error}, {"error_code", v.error_code}, {"fault", v.fault}, {"error_line", v.error_line}, {"launch_problems", v.launch_problems},
         {"file", v.file}, {"task", v.task}, {"kernel", v.kernel}, {"lowered_name", v.lowered_name}, {"spec", v.spec},
         {"sizes", v.sizes}, {"values", v.values}, {"compile", v.compile}, {"device", v.device}, {"function", v.function},
         {"occupancy", v.occupancy}, {"module_load_ms", v.module_load_ms}, {"launch", v.launch}, {"following", v.following},
         {"coverage", v.coverage},
         {"arguments", v.arguments}, {"input_description", v.input_description}, {"input_identity", v.input_identity},
         {"kernel_ms", v.kernel_ms}, {"warmup", v.warmup}, {"l2_flushed", v.l2_flushed}, {"conditions", v.conditions},
         {"input_copies", v.input_copies},
         {"h2d_ms", v.h2d_ms}, {"d2h_ms", v.d2h_ms}, {"inputs_resident", v.inputs_resident}, {"inputs_ms", v.inputs_ms}, {"bytes", v.bytes}, {"flops", v.flops},
         {"gbps", v.gbps}, {"gflops", v.gflops}, {"ceiling", v.ceiling}, {"percent_of_ceiling", v.percent_of_ceiling},
         {"verdict", v.verdict}, {"check", v.check}, {"view", v.view}, {"emulated", v.emulated}, {"thread_order", v.thread_order},
         {"thorough", v.thorough}, {"tracked", v.tracked}, {"races", v.races}, {"writers", v.writers}, {"writer_map", v.writer_map}, {"writes", v.writes}, {"line_access", v.line_access}, {"host_compile_ms", v.host_compile_ms}, {"host_compile_cached", v.host_compile_cached},
         {"printf_lines", v.printf_lines}, {"printf_dropped", v.printf_dropped}, {"warnings", v.warnings}, {"partial", v.partial},
         {"view_sent_before", v.view_sent_before}, {"times", v.times}};
}

void from_json(const nlohmann::json& j, RunReport& v) {
    check_integer_fields(j);
    j.at("stage").get_to(v.stage);
    j.at("error").get_to(v.error);
    j.at("error_code").get_to(v.error_code);
    j.at("fault").get_to(v.fault);
    j.at("error_line").get_to(v.error_line);
    j.at("launch_problems").get_to(v.launch_problems);
    j.at("file").get_to(v.file);
    j.at("task").get_to(v.task);
    j.at("kernel").get_to(v.kernel);
    j.at("lowered_name").get_to(v.lowered_name);
    j.at("spec").get_to(v.spec);
    j.at("sizes").get_to(v.sizes);
    j.at("values").get_to(v.values);
    j.at("compile").get_to(v.compile);
    j.at("device").get_to(v.device);
    j.at("function").get_to(v.function);
    j.at("occupancy").get_to(v.occupancy);
    j.at("module_load_ms").get_to(v.module_load_ms);
    j.at("launch").get_to(v.launch);
    j.at("following").get_to(v.following);
    j.at("coverage").get_to(v.coverage);
    j.at("arguments").get_to(v.arguments);
    j.at("input_description").get_to(v.input_description);
    j.at("input_identity").get_to(v.input_identity);
    j.at("kernel_ms").get_to(v.kernel_ms);
    j.at("warmup").get_to(v.warmup);
    j.at("l2_flushed").get_to(v.l2_flushed);
    j.at("conditions").get_to(v.conditions);
    j.at("input_copies").get_to(v.input_copies);
    j.at("h2d_ms").get_to(v.h2d_ms);
    j.at("inputs_resident").get_to(v.inputs_resident);
    j.at("d2h_ms").get_to(v.d2h_ms);
    j.at("inputs_ms").get_to(v.inputs_ms);
    j.at("bytes").get_to(v.bytes);
    j.at("flops").get_to(v.flops);
    j.at("gbps").get_to(v.gbps);
    j.at("gflops").get_to(v.gflops);
    j.at("ceiling").get_to(v.ceiling);
    j.at("percent_of_ceiling").get_to(v.percent_of_ceiling);
    j.at("verdict").get_to(v.verdict);
    j.at("check").get_to(v.check);
    j.at("view").get_to(v.view);
    j.at("emulated").get_to(v.emulated);
    j.at("thread_order").get_to(v.thread_order);
    j.at("thorough").get_to(v.thorough);
    j.at("tracked").get_to(v.tracked);
    j.at("races").get_to(v.races);
    j.at("writers").get_to(v.writers);
    if (const auto it = j.find("writer_map"); it != j.end()) it->get_to(v.writer_map);
    j.at("writes").get_to(v.writes);
    j.at("line_access").get_to(v.line_access);
    j.at("host_compile_ms").get_to(v.host_compile_ms);
    j.at("host_compile_cached").get_to(v.host_compile_cached);
    j.at("printf_lines").get_to(v.printf_lines);
    j.at("printf_dropped").get_to(v.printf_dropped);
    j.at("warnings").get_to(v.warnings);
    if (const auto it = j.find("partial"); it != j.end()) it->get_to(v.partial);
    if (const auto it = j.find("view_sent_before"); it != j.end()) it->get_to(v.view_sent_before);
    if (const auto it = j.find("times"); it != j.end()) it->get_to(v.times);
}

void to_json(nlohmann::json& j, const CompileFileRequest& v) {
    j = {{"path", v.path.string()}, {"source", v.source}, {"arch", v.arch}, {"want_ptx", v.want_ptx}, {"inspect", v.inspect}, {"defines", v.defines},
         {"include_dirs", v.include_dirs}};
}

void from_json(const nlohmann::json& j, CompileFileRequest& v) {
    check_integer_fields(j);
    v.path = j.at("path").get<std::string>();
    j.at("source").get_to(v.source);
    j.at("arch").get_to(v.arch);
    j.at("want_ptx").get_to(v.want_ptx);
    j.at("inspect").get_to(v.inspect);
    j.at("defines").get_to(v.defines);
    if (const auto it = j.find("include_dirs"); it != j.end()) it->get_to(v.include_dirs);
}

void to_json(nlohmann::json& j, const CompileFileResult& v) {
    CompileResult compile = v.compile;
    if (compile.is_cubin) compile.binary.clear();  // binary bytes are not JSON text (the CUBIN goes as a blob); PTX is
    j = {{"compile", compile}, {"spec", v.spec}, {"spec_problem", v.spec_problem}, {"input_error", v.input_error}};
}

void from_json(const nlohmann::json& j, CompileFileResult& v) {
    check_integer_fields(j);
    j.at("compile").get_to(v.compile);
    j.at("spec").get_to(v.spec);
    j.at("spec_problem").get_to(v.spec_problem);
    j.at("input_error").get_to(v.input_error);
}

void to_json(nlohmann::json& j, const DeviceQuery& v) {
    j = {{"driver", v.driver}, {"devices", v.devices}, {"emulated", v.emulated}, {"nvrtc_version", v.nvrtc_version}};
}

void from_json(const nlohmann::json& j, DeviceQuery& v) {
    check_integer_fields(j);
    j.at("driver").get_to(v.driver);
    j.at("devices").get_to(v.devices);
    j.at("emulated").get_to(v.emulated);
    j.at("nvrtc_version").get_to(v.nvrtc_version);
}

}  // namespace kplay
