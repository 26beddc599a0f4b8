// Serialisation of reports with nlohmann::json; NaN and infinity become null.
#include "client/report_json.hpp"

#include <cmath>

namespace kplay {

using nlohmann::json;

namespace {

json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json dim3(const Dim3& d) { return json::array({d.x, d.y, d.z}); }

}  // namespace

json to_json(const Diagnostic& d) {
    return {{"file", d.file},       {"line", d.line},       {"column", d.column},          {"severity", severity_name(d.severity)},
            {"code", d.code},       {"message", d.message}, {"source_line", d.source_line}, {"context", d.context}};
}

json to_json(const CompileResult& result) {
    json diagnostics = json::array();
    for (const auto& d : result.diagnostics) diagnostics.push_back(to_json(d));
    json lowered = json::object();
    for (const auto& [expression, name] : result.lowered_names) lowered[expression] = name;
    return {{"ok", result.ok},
            {"arch", result.arch},
            {"output", result.is_cubin ? "cubin" : "ptx"},
            {"cache_hit", result.cache_hit},
            {"compile_ms", number(result.compile_ms)},
            {"lookup_ms", number(result.lookup_ms)},
            {"errors", result.count(Severity::error)},
            {"warnings", result.count(Severity::warning)},
            {"diagnostics", diagnostics},
            {"lowered_names", lowered},
            {"options", result.options_used},
            {"log", result.log},
            {"failure", result.failure}};
}

json to_json(const DeviceInfo& device) {
    const auto& l = device.limits;
    return {{"ordinal", device.ordinal},
            {"name", device.name},
            {"uuid", device.uuid},
            {"compute_capability", std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor)},
            {"arch", device.arch()},
            {"sm_count", device.sm_count},
            {"total_memory_bytes", device.total_memory},
            {"l2_bytes", device.l2_bytes},
            {"max_threads_per_sm", device.max_threads_per_sm},
            {"limits",
             {{"max_threads_per_block", l.max_threads_per_block},
              {"max_block_dim", {l.max_block_dim[0], l.max_block_dim[1], l.max_block_dim[2]}},
              {"max_grid_dim", {l.max_grid_dim[0], l.max_grid_dim[1], l.max_grid_dim[2]}},
              {"max_smem_per_block", l.max_smem_per_block},
              {"max_smem_per_block_optin", l.max_smem_per_block_optin},
              {"max_regs_per_block", l.max_regs_per_block},
              {"warp_size", l.warp_size}}}};
}

json to_json(const DeviceQuery& query) {
    json devices = json::array();
    for (const auto& device : query.devices) devices.push_back(to_json(device));
    return {{"schema", kJsonSchemaVersion},
            {"driver_ready", query.driver.ready()},
            {"driver_version", cuda_version_string(query.driver.driver_version)},
            {"problem", query.problem()},
            {"devices", devices}};
}

json to_json(const RunReport& r) {
    json out = {{"schema", kJsonSchemaVersion},
                {"ok", r.ok()},
                {"passed", r.passed()},
                {"stage", r.stage},
                {"error", r.error},
                {"error_code", r.error_code},
                {"file", r.file},
                {"task", r.task},
                {"kernel", r.kernel},
                {"lowered_name", r.lowered_name},
                {"compile", to_json(r.compile)}};
    out["compile"].erase("log");  // diagnostics already carry it, parsed
    if (r.spec) {
        json inferred = r.spec->inferred;
        json defines = json::object();
        for (const auto& [name, value] : r.spec->defines) defines[name] = value;
        out["spec"] = {{"annotation_line", r.spec->annotation_line}, {"args", r.spec->args},
                       {"launch", r.spec->launch_dims == 2 ? "2d" : "1d"}, {"block", r.spec->block},
                       {"grid", r.spec->grid.empty() ? json("auto") : json(r.spec->grid)}, {"smem", r.spec->smem},
                       {"defines", defines}, {"inferred", inferred}};
    }
    if (r.device) out["device"] = {{"ordinal", r.device->ordinal}, {"name", r.device->name}, {"arch", r.device->arch()}};
    out["emulated"] = r.emulated;
    if (r.emulated) {
        out["emulation"] = {{"thread_order", r.thread_order}, {"thorough", r.thorough}, {"host_compile_ms", number(r.host_compile_ms)},
                            {"host_compile_cached", r.host_compile_cached}, {"printf", r.printf_lines},
                            {"printf_dropped", r.printf_dropped}, {"warnings", r.warnings},
                            {"error_line", r.error_line}};
    }
    if (r.stage == "compile" || r.stage == "spec" || r.stage == "input" || r.stage == "device") return out;

    const auto& f = r.function;
    out["function"] = {{"registers_per_thread", f.registers_per_thread}, {"static_smem_bytes", f.static_smem_bytes},
                       {"local_bytes_per_thread", f.local_bytes_per_thread}, {"max_threads_per_block", f.max_threads_per_block},
                       {"params", f.params.size()}};
    out["module_load_ms"] = number(r.module_load_ms);
    if (r.stage == "load") return out;
    out["input"] = r.input_description;
    out["launch"] = {{"grid", dim3(r.launch.grid)}, {"block", dim3(r.launch.block)}, {"dynamic_smem", r.launch.dynamic_smem},
                     {"auto_grid", r.launch.auto_grid}};
    out["coverage"] = {{"threads", r.coverage.threads}, {"elements", r.coverage.elements},
                       {"idle_threads", r.coverage.idle_threads}, {"uncovered", r.coverage.uncovered},
                       {"note", r.coverage.note()}};
    out["occupancy"] = {{"blocks_per_sm", r.occupancy.blocks_per_sm}, {"fraction", number(r.occupancy.fraction)}};
    json arguments = json::array();
    for (const auto& a : r.arguments)
        arguments.push_back({{"param", a.param}, {"binding", a.binding}, {"kind", a.kind}, {"value", a.value}});
    out["arguments"] = arguments;
    if (r.stage == "launch" || r.stage == "inputs") return out;
    out["timing"] = {{"warmup", r.warmup},
                     {"repeat", r.kernel_ms.count},
                     {"l2_flushed", r.l2_flushed},
                     {"kernel_ms", {{"median", number(r.kernel_ms.median)}, {"min", number(r.kernel_ms.min)},
                                    {"max", number(r.kernel_ms.max)}, {"mean", number(r.kernel_ms.mean)},
                                    {"stddev", number(r.kernel_ms.stddev)}}},
                     {"h2d_ms", number(r.h2d_ms)},
                     {"d2h_ms", number(r.d2h_ms)},
                     {"inputs_ms", number(r.inputs_ms)},
                     {"reference_ms", number(r.check.reference_ms)},
                     {"reference_cached", r.check.reference_cached}};
    out["throughput"] = {{"bytes", number(r.bytes)}, {"flops", number(r.flops)}, {"gbps", number(r.gbps)},
                         {"gflops", number(r.gflops)}, {"copy_ceiling_gbps", number(r.ceiling.gbps)},
                         {"percent_of_copy_ceiling", number(r.percent_of_ceiling)}};
    json metrics = json::object();
    for (const auto& m : r.check.metrics) metrics[m.name] = number(m.value);
    out["check"] = {{"passed", r.check.passed}, {"summary", r.check.summary}, {"tolerance", number(r.check.tolerance)},
                    {"first_bad", r.check.first_bad}, {"metrics", metrics}};
    return out;
}

}  // namespace kplay
