// Field lists for the worker protocol's JSON, one macro line per type.
#include "client/codec.hpp"

#include <cmath>
#include <cstdlib>
#include <optional>

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

NLOHMANN_JSON_SERIALIZE_ENUM(Severity, {{Severity::error, "error"}, {Severity::warning, "warning"}, {Severity::remark, "remark"}})
NLOHMANN_JSON_SERIALIZE_ENUM(DriverStatus::State, {{DriverStatus::State::ready, "ready"},
                                                   {DriverStatus::State::no_library, "no_library"},
                                                   {DriverStatus::State::too_old, "too_old"},
                                                   {DriverStatus::State::missing_symbol, "missing_symbol"},
                                                   {DriverStatus::State::init_failed, "init_failed"}})

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Diagnostic, file, line, column, severity, code, message, source_line, context)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CompileResult, ok, diagnostics, log, binary, is_cubin, arch, lowered_names,
                                                options_used, compile_ms, lookup_ms, cache_hit, failure)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KernelParam, type, name)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KernelDecl, name, is_template, is_extern_c, params, line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KernelSpec, task, kernel, args, launch_dims, block, grid, smem, defines, tolerance,
                                                annotation_line, inferred, kernels)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceLimits, max_threads_per_block, max_block_dim, max_grid_dim,
                                                max_smem_per_block, max_smem_per_block_optin, max_regs_per_block, warp_size)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceInfo, ordinal, name, uuid, cc_major, cc_minor, sm_count, total_memory,
                                                max_threads_per_sm, max_smem_per_sm, max_regs_per_sm, l2_bytes, memory_bus_bits,
                                                memory_clock_khz, limits)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DriverStatus, state, message, driver_version)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ParamLayout, offset, size)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FunctionAttributes, registers_per_thread, static_smem_bytes, local_bytes_per_thread,
                                                const_bytes, max_threads_per_block, ptx_version, binary_version, params)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Occupancy, blocks_per_sm, fraction)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Dim3, x, y, z)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LaunchConfig, grid, block, dynamic_smem, auto_grid)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Coverage, threads, elements, idle_threads, uncovered)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BoundArgument, param, binding, kind, value, size)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TimingStats, count, median, min, max, mean, stddev)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CopyCeiling, gbps, copy_ms, bytes, cached)
void to_json(nlohmann::json& j, const Metric& v);
void from_json(const nlohmann::json& j, Metric& v);
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CheckReport, passed, summary, metrics, first_bad, tolerance, reference_ms,
                                                reference_cached, map_w, map_h)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InputRequest, image_path, size, seed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FaultInfo, sticky, explanation, hint, sanitizer_command)

// JSON has no NaN (nlohmann writes null); metrics such as a NaN error must survive the trip.
void to_json(nlohmann::json& j, const Metric& v) {
    j = {{"name", v.name}, {"value", std::isfinite(v.value) ? nlohmann::json(v.value) : nlohmann::json(std::to_string(v.value))}};
}

void from_json(const nlohmann::json& j, Metric& v) {
    j.at("name").get_to(v.name);
    const auto& value = j.at("value");
    v.value = value.is_string() ? std::strtod(value.get<std::string>().c_str(), nullptr) : value.get<double>();
}

void to_json(nlohmann::json& j, const RunRequest& v) {
    j = {{"kernel_path", v.kernel_path.string()}, {"source", v.source}, {"inputs", v.inputs}, {"block", v.block},
         {"grid", v.grid}, {"smem", v.smem}, {"arg_overrides", v.arg_overrides}, {"defines", v.defines},
         {"tolerance", v.tolerance}, {"arch", v.arch}, {"device", v.device}, {"warmup", v.warmup}, {"repeat", v.repeat},
         {"flush_l2", v.flush_l2}, {"measure_ceiling", v.measure_ceiling}, {"keep_outputs", v.keep_outputs},
         {"known_input", v.known_input}, {"rotate_inputs", v.rotate_inputs}, {"remeasure_ceiling", v.remeasure_ceiling},
         {"baseline", v.baseline}, {"emulate", v.emulate}, {"emulate_without_gpu", v.emulate_without_gpu},
         {"thread_order", v.thread_order}, {"order_seed", v.order_seed}, {"emulation_workers", v.emulation_workers},
         {"emulation_timeout_s", v.emulation_timeout_s}, {"emulation_symbol_check", v.emulation_symbol_check},
         {"emulation_sandbox", v.emulation_sandbox}, {"emulation_thorough", v.emulation_thorough}};
}

void from_json(const nlohmann::json& j, RunRequest& v) {
    v.kernel_path = j.at("kernel_path").get<std::string>();
    j.at("source").get_to(v.source);
    j.at("inputs").get_to(v.inputs);
    j.at("block").get_to(v.block);
    j.at("grid").get_to(v.grid);
    j.at("smem").get_to(v.smem);
    j.at("arg_overrides").get_to(v.arg_overrides);
    j.at("defines").get_to(v.defines);
    j.at("tolerance").get_to(v.tolerance);
    j.at("arch").get_to(v.arch);
    j.at("device").get_to(v.device);
    j.at("warmup").get_to(v.warmup);
    j.at("repeat").get_to(v.repeat);
    j.at("flush_l2").get_to(v.flush_l2);
    j.at("measure_ceiling").get_to(v.measure_ceiling);
    j.at("keep_outputs").get_to(v.keep_outputs);
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
    j.at("emulation_symbol_check").get_to(v.emulation_symbol_check);
    j.at("emulation_sandbox").get_to(v.emulation_sandbox);
    j.at("emulation_thorough").get_to(v.emulation_thorough);
}

void to_json(nlohmann::json& j, const RunReport& v) {
    j = {{"stage", v.stage}, {"error", v.error}, {"error_code", v.error_code}, {"fault", v.fault}, {"file", v.file},
         {"task", v.task}, {"kernel", v.kernel}, {"lowered_name", v.lowered_name}, {"spec", v.spec}, {"compile", v.compile},
         {"device", v.device}, {"function", v.function}, {"occupancy", v.occupancy}, {"module_load_ms", v.module_load_ms},
         {"launch", v.launch}, {"coverage", v.coverage}, {"arguments", v.arguments},
         {"input_description", v.input_description}, {"kernel_ms", v.kernel_ms}, {"warmup", v.warmup},
         {"l2_flushed", v.l2_flushed}, {"h2d_ms", v.h2d_ms}, {"d2h_ms", v.d2h_ms}, {"inputs_ms", v.inputs_ms},
         {"bytes", v.bytes}, {"flops", v.flops}, {"gbps", v.gbps}, {"gflops", v.gflops}, {"ceiling", v.ceiling},
         {"percent_of_ceiling", v.percent_of_ceiling}, {"check", v.check}, {"output_w", v.output_w},
         {"output_h", v.output_h}, {"input_w", v.input_w}, {"input_h", v.input_h},
         {"input_identity", v.input_identity}, {"input_copies", v.input_copies}, {"emulated", v.emulated},
         {"thread_order", v.thread_order}, {"thorough", v.thorough}, {"host_compile_ms", v.host_compile_ms}, {"host_compile_cached", v.host_compile_cached},
         {"printf_lines", v.printf_lines}, {"printf_dropped", v.printf_dropped}, {"warnings", v.warnings},
         {"error_line", v.error_line}};
}

void from_json(const nlohmann::json& j, RunReport& v) {
    j.at("stage").get_to(v.stage);
    j.at("error").get_to(v.error);
    j.at("error_code").get_to(v.error_code);
    j.at("fault").get_to(v.fault);
    j.at("file").get_to(v.file);
    j.at("task").get_to(v.task);
    j.at("kernel").get_to(v.kernel);
    j.at("lowered_name").get_to(v.lowered_name);
    j.at("spec").get_to(v.spec);
    j.at("compile").get_to(v.compile);
    j.at("device").get_to(v.device);
    j.at("function").get_to(v.function);
    j.at("occupancy").get_to(v.occupancy);
    j.at("module_load_ms").get_to(v.module_load_ms);
    j.at("launch").get_to(v.launch);
    j.at("coverage").get_to(v.coverage);
    j.at("arguments").get_to(v.arguments);
    j.at("input_description").get_to(v.input_description);
    j.at("kernel_ms").get_to(v.kernel_ms);
    j.at("warmup").get_to(v.warmup);
    j.at("l2_flushed").get_to(v.l2_flushed);
    j.at("h2d_ms").get_to(v.h2d_ms);
    j.at("d2h_ms").get_to(v.d2h_ms);
    j.at("inputs_ms").get_to(v.inputs_ms);
    j.at("bytes").get_to(v.bytes);
    j.at("flops").get_to(v.flops);
    j.at("gbps").get_to(v.gbps);
    j.at("gflops").get_to(v.gflops);
    j.at("ceiling").get_to(v.ceiling);
    j.at("percent_of_ceiling").get_to(v.percent_of_ceiling);
    j.at("check").get_to(v.check);
    j.at("output_w").get_to(v.output_w);
    j.at("output_h").get_to(v.output_h);
    j.at("input_w").get_to(v.input_w);
    j.at("input_h").get_to(v.input_h);
    j.at("input_identity").get_to(v.input_identity);
    j.at("input_copies").get_to(v.input_copies);
    j.at("emulated").get_to(v.emulated);
    j.at("thread_order").get_to(v.thread_order);
    j.at("thorough").get_to(v.thorough);
    j.at("host_compile_ms").get_to(v.host_compile_ms);
    j.at("host_compile_cached").get_to(v.host_compile_cached);
    j.at("printf_lines").get_to(v.printf_lines);
    j.at("printf_dropped").get_to(v.printf_dropped);
    j.at("warnings").get_to(v.warnings);
    j.at("error_line").get_to(v.error_line);
}

void to_json(nlohmann::json& j, const CompileFileRequest& v) {
    j = {{"path", v.path.string()}, {"source", v.source}, {"arch", v.arch}, {"want_ptx", v.want_ptx}, {"defines", v.defines}};
}

void from_json(const nlohmann::json& j, CompileFileRequest& v) {
    v.path = j.at("path").get<std::string>();
    j.at("source").get_to(v.source);
    j.at("arch").get_to(v.arch);
    j.at("want_ptx").get_to(v.want_ptx);
    j.at("defines").get_to(v.defines);
}

void to_json(nlohmann::json& j, const CompileFileResult& v) {
    CompileResult compile = v.compile;
    if (compile.is_cubin) compile.binary.clear();  // binary bytes are not JSON text; PTX is
    j = {{"compile", compile}, {"spec", v.spec}, {"spec_problem", v.spec_problem}, {"input_error", v.input_error}};
}

void from_json(const nlohmann::json& j, CompileFileResult& v) {
    j.at("compile").get_to(v.compile);
    j.at("spec").get_to(v.spec);
    j.at("spec_problem").get_to(v.spec_problem);
    j.at("input_error").get_to(v.input_error);
}

void to_json(nlohmann::json& j, const DeviceQuery& v) { j = {{"driver", v.driver}, {"devices", v.devices}}; }

void from_json(const nlohmann::json& j, DeviceQuery& v) {
    j.at("driver").get_to(v.driver);
    j.at("devices").get_to(v.devices);
}

}  // namespace kplay
