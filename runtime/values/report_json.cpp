// Serialisation of reports with nlohmann::json; NaN and infinity become null.
#include "values/report_json.hpp"

#include <cmath>

namespace kplay {

using nlohmann::json;

namespace {

json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json dim3(const Dim3& d) { return json::array({d.x, d.y, d.z}); }

}  // namespace

json to_json(const Diagnostic& d) {
    return {{"file", d.file},       {"line", d.line},       {"column", d.column},          {"severity", severity_name(d.severity)},
            {"code", d.code},       {"message", d.message}, {"source_line", d.source_line}, {"context", d.context},
            {"ptx_line", d.ptx_line}};
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
    const EmulatedDeviceStatus& emulated = query.emulated;
    return {{"schema", kJsonSchemaVersion},
            {"driver_ready", query.driver.ready()},
            {"driver_version", cuda_version_string(query.driver.driver_version)},
            {"nvrtc_version", query.nvrtc_version},
            {"problem", query.problem()},
            {"devices", devices},
            {"emulated_device", {{"name", emulated.device.name}, {"available", emulated.available},
                                 {"host_compiler", emulated.available ? emulated.host_compiler : emulated.problem},
                                 {"default", !query.problem().empty()}, {"limits", to_json(emulated.device)["limits"]}}}};
}

json to_json(const BufferCheck& b) {
    json first_bad = nullptr;
    if (b.first_bad.index >= 0)
        first_bad = {{"index", b.first_bad.index}, {"coords", b.first_bad.coords}, {"got", number(b.first_bad.got)},
                     {"expected", number(b.first_bad.expected)}, {"allowed", number(b.first_bad.allowed)},
                     {"unwritten", b.first_bad.unwritten}, {"text", b.first_bad.text}};
    json metrics = json::object();
    for (const auto& m : b.metrics()) metrics[m.name] = number(m.value);
    return {{"buffer", b.buffer}, {"checked", b.checked}, {"passed", b.passed}, {"rule", b.rule}, {"summary", b.summary},
            {"first_bad", first_bad}, {"max_error_ratio", number(b.max_error_ratio)}, {"metrics", metrics}};
}

namespace {

json access_json(const RaceAccess& access) {
    return {{"block", dim3(access.block)}, {"thread", dim3(access.thread)},
            {"write", access.write}, {"atomic", access.atomic}, {"volatile", access.is_volatile}, {"file", access.file}, {"line", access.line}};
}

json race_json(const Race& race) {
    return {{"kind", race_kind_name(race)}, {"space", race.space == RaceSpace::shared ? "shared" : "global"}, {"kernel", race.kernel},
            {"array", race.array}, {"element", race.element}, {"first", access_json(race.first)}, {"second", access_json(race.second)},
            {"same_warp", race.same_warp}, {"same_block", race.same_block}, {"conflicts", race.conflicts},
            {"description", describe_race(race)}, {"advice", race_advice(race)}};
}

}  // namespace

json to_json(const RunReport& r) {
    json out = {{"schema", kJsonSchemaVersion},
                {"ok", r.ok()},
                {"passed", r.passed()},
                {"stage", stage_name(r.stage)},
                {"error", r.error},
                {"error_code", error_code_name(r.error_code)},
                {"fault", {{"sticky", r.fault.sticky}, {"explanation", r.fault.explanation}, {"hint", r.fault.hint},
                           {"sanitizer_command", r.fault.sanitizer_command}}},
                {"file", r.file},
                {"task", r.task},
                {"kernel", r.kernel},
                {"lowered_name", r.lowered_name},
                {"compile", to_json(r.compile)}};
    out["compile"].erase("log");  // diagnostics already carry it, parsed
    if (r.spec) {
        json defines = json::object();
        for (const auto& [name, value] : r.spec->defines) defines[name] = value;
        out["spec"] = {{"annotation_line", r.spec->annotation_line}, {"args", r.spec->args},
                       {"launch", r.spec->launch_dims == 2 ? "2d" : "1d"}, {"block", r.spec->block},
                       {"grid", r.spec->grid.empty() ? json("auto") : json(r.spec->grid)}, {"smem", r.spec->smem},
                       {"defines", defines}, {"requires", r.spec->requirement}, {"inferred", r.spec->inferred},
                       {"task", {{"name", r.spec->task.name}, {"builtin", r.spec->task.builtin}, {"sizes", r.spec->task.sizes.names},
                                 {"view", spec_name(r.spec->task.presentation.output)},
                                 {"ceiling", spec_name(r.spec->task.cost.ceiling)},
                                 {"reference", spec_name(r.spec->task.reference.kind)}}}};
    }
    if (r.device) out["device"] = {{"ordinal", r.device->ordinal}, {"name", r.device->name}, {"arch", r.device->arch()}};
    out["emulated"] = r.emulated;
    out["error_line"] = r.error_line;
    if (r.emulated) {
        out["emulation"] = {{"thread_order", thread_order_name(r.thread_order)}, {"thorough", r.thorough},
                            {"host_compile_ms", number(r.host_compile_ms)}, {"host_compile_cached", r.host_compile_cached},
                            {"printf", r.printf_lines}, {"printf_dropped", r.printf_dropped}, {"warnings", r.warnings},
                            {"error_line", r.error_line}, {"tracked", r.tracked}};
        out["races"] = json::array();
        for (const Race& race : r.races) out["races"].push_back(race_json(race));
        out["writers"] = json::array();
        for (const ElementWriter& w : r.writers)
            out["writers"].push_back({{"buffer", w.element.buffer}, {"index", w.element.index}, {"written", w.written},
                                      {"block", dim3(w.block)}, {"thread", dim3(w.thread)}, {"more_than_one", w.many},
                                      {"atomic", w.atomic}, {"file", w.file}, {"line", w.line}, {"index_story", w.index_story},
                                      {"description", describe_writer(w)}});
        out["writes"] = json::array();
        for (const BufferWrites& w : r.writes)
            out["writes"].push_back({{"buffer", w.buffer}, {"elements", w.elements}, {"written", w.written}, {"more_than_one", w.many}});
    }
    if (!reached(r, Stage::load)) return out;

    const auto& f = r.function;
    out["function"] = {{"registers_per_thread", f.registers_per_thread}, {"static_smem_bytes", f.static_smem_bytes},
                       {"local_bytes_per_thread", f.local_bytes_per_thread}, {"max_threads_per_block", f.max_threads_per_block},
                       {"params", f.params.size()}};
    out["module_load_ms"] = number(r.module_load_ms);
    if (!reached(r, Stage::inputs)) return out;
    out["input"] = r.input_description;
    out["sizes"] = r.sizes;
    out["values"] = r.values;
    out["launch"] = {{"grid", dim3(r.launch.grid)}, {"block", dim3(r.launch.block)}, {"dynamic_smem", r.launch.dynamic_smem},
                     {"auto_grid", r.launch.auto_grid}};
    json following = json::array();
    for (const auto& then : r.following)
        following.push_back({{"kernel", then.kernel}, {"grid", dim3(then.launch.grid)}, {"block", dim3(then.launch.block)},
                             {"dynamic_smem", then.launch.dynamic_smem}});
    out["following"] = following;
    out["coverage"] = {{"threads", r.coverage.threads}, {"elements", r.coverage.elements},
                       {"idle_threads", r.coverage.idle_threads}, {"uncovered", r.coverage.uncovered},
                       {"note", r.coverage.note()}};
    out["occupancy"] = {{"blocks_per_sm", r.occupancy.blocks_per_sm}, {"fraction", number(r.occupancy.fraction)}};
    json arguments = json::array();
    for (const auto& a : r.arguments)
        arguments.push_back({{"param", a.param}, {"binding", a.binding}, {"kind", a.kind}, {"value", a.value}});
    out["arguments"] = arguments;
    if (!reached(r, Stage::run)) return out;
    out["timing"] = {{"warmup", r.warmup},
                     {"repeat", r.kernel_ms.count},
                     {"l2_flushed", r.l2_flushed},
                     {"conditions", {{"recorded", r.conditions.recorded}, {"why_not", r.conditions.why_not},
                                     {"sm_mhz", {r.conditions.before.sm_mhz, r.conditions.after.sm_mhz}},
                                     {"memory_mhz", r.conditions.after.memory_mhz},
                                     {"temperature_c", {r.conditions.before.temperature_c, r.conditions.after.temperature_c}},
                                     {"power_w", r.conditions.after.power_w}, {"throttled", r.conditions.throttled},
                                     {"moved", r.conditions.moved}}},
                     {"kernel_ms", {{"median", number(r.kernel_ms.median)}, {"min", number(r.kernel_ms.min)},
                                    {"max", number(r.kernel_ms.max)}, {"mean", number(r.kernel_ms.mean)},
                                    {"stddev", number(r.kernel_ms.stddev)}}},
                     {"h2d_ms", number(r.h2d_ms)},
                     {"inputs_resident", r.inputs_resident},
                     {"d2h_ms", number(r.d2h_ms)},
                     {"inputs_ms", number(r.inputs_ms)},
                     {"reference_ms", number(r.check.reference_ms)},
                     {"reference_cached", r.check.reference_cached}};
    const bool copy = r.ceiling.kind == CeilingKind::copy;
    out["throughput"] = {{"bytes", number(r.bytes)},
                         {"flops", number(r.flops)},
                         {"gbps", number(r.gbps)},
                         {"gflops", number(r.gflops)},
                         {"ceiling", {{"kind", spec_name(r.ceiling.kind)}, {"name", r.ceiling.name}, {"gbps", number(r.ceiling.gbps)},
                                      {"gflops", number(r.ceiling.gflops)}, {"cached", r.ceiling.cached}, {"deferred", r.ceiling.deferred}}},
                         {"percent_of_ceiling", number(r.percent_of_ceiling)},
                         {"copy_ceiling_gbps", number(copy ? r.ceiling.gbps : 0)},
                         {"percent_of_copy_ceiling", number(copy ? r.percent_of_ceiling : 0)},
                         {"verdict", r.verdict}};
    json metrics = json::object();
    for (const auto& m : r.check.metrics) metrics[m.name] = number(m.value);
    json buffers = json::array();
    for (const auto& b : r.check.buffers) buffers.push_back(to_json(b));
    json sizes = json::array();
    for (const auto& s : r.check.sizes)
        sizes.push_back({{"sizes", s.sizes}, {"seed", s.seed}, {"passed", s.passed}, {"skipped", s.skipped}, {"summary", s.summary},
                         {"error_code", error_code_name(s.error_code)}});
    out["check"] = {{"passed", r.check.passed}, {"summary", r.check.summary}, {"tolerance", number(r.check.tolerance)},
                    {"first_bad", r.check.first_bad}, {"metrics", metrics}, {"buffers", buffers},
                    {"overwritten_inputs", r.check.overwritten_inputs}, {"input_independent", r.check.input_independent},
                    {"replayed", r.check.replayed},
                    {"sizes", sizes}, {"reference", r.check.reference}};
    return out;
}

}  // namespace kplay
