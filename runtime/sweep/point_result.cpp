// A point's result from its run's report, and as JSON (the sweep cache and `kplay-cli sweep --json`).
#include "sweep/point_result.hpp"

#include "base/enum_names.hpp"
#include "sweep/sweep_target.hpp"

namespace kplay {

namespace {

constexpr EnumNames<PointState, 5> kStates{{{PointState::pending, "pending"},
                                            {PointState::pruned, "pruned"},
                                            {PointState::failed, "failed"},
                                            {PointState::wrong, "wrong"},
                                            {PointState::passed, "passed"}}};

// The first error diagnostic of a failed compile, as one line.
std::string compile_failure(const RunReport& report) {
    for (const Diagnostic& diagnostic : report.compile.diagnostics)
        if (diagnostic.severity == Severity::error)
            return "compile error at line " + std::to_string(diagnostic.line) + ": " + diagnostic.message;
    return report.error;
}

// The first line of a message (a fault's explanation follows on later lines).
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

const char* point_state_name(PointState state) { return enum_name(kStates, state); }
std::optional<PointState> parse_point_state(std::string_view text) { return enum_value(kStates, text); }

PointResult point_result_from(const SweepSpace& space, const SweepPoint& point, const RunReport& report) {
    PointResult result;
    result.point = point;
    result.label = point_label(space, point);
    if (report.function.registers_per_thread > 0) result.registers = report.function.registers_per_thread;
    if (report.occupancy.blocks_per_sm > 0) result.occupancy = report.occupancy.fraction;
    // Past planning the launch is known.
    if (reached(report, Stage::reference))
        result.launch = "grid " + report.launch.grid.text() + " block " + report.launch.block.text();
    if (!report.ok()) {
        if (report.error_code == ErrorCode::launch_rejected) {
            result.state = PointState::pruned;
            result.reason = pruned_reason(report.launch_problems);
        } else {
            result.state = PointState::failed;
            result.reason = report.stage == Stage::compile ? compile_failure(report) : first_line(report.error);
            const std::string code = error_code_name(report.error_code);
            if (!code.empty() && result.reason.find(code) == std::string::npos) result.reason = code + ": " + result.reason;
        }
        return result;
    }
    result.median_ms = report.kernel_ms.median;
    result.min_ms = report.kernel_ms.min;
    result.max_ms = report.kernel_ms.max;
    result.rate = report.rate();
    result.unit = report.spec ? report.spec->task.presentation.rate : RateUnit::bytes;
    result.percent_of_ceiling = report.emulated ? 0 : report.percent_of_ceiling;
    result.ceiling = report.ceiling.name;
    result.ceiling_rate = result.unit == RateUnit::flops ? report.ceiling.gflops : report.ceiling.gbps;
    if (!report.check.passed) {
        result.state = PointState::wrong;
        result.reason = report.check.summary;
        for (const SizeCheck& size : report.check.sizes)
            if (!size.passed && !size.skipped) {
                result.reason = "at " + size.sizes + ": " + first_line(size.summary);
                // A fault at a test size is a failure of the kernel, not a wrong answer.
                if (size.error_code != ErrorCode::none) {
                    result.state = PointState::failed;
                    const std::string code = error_code_name(size.error_code);
                    if (result.reason.find(code) == std::string::npos) result.reason = code + " " + result.reason;
                }
                break;
            }
        return result;
    }
    result.state = PointState::passed;
    return result;
}

nlohmann::json to_json(const PointResult& r) {
    return {{"point", r.point.values},  {"label", r.label},       {"state", point_state_name(r.state)},
            {"reason", r.reason},       {"median_ms", r.median_ms}, {"min_ms", r.min_ms},
            {"max_ms", r.max_ms},       {"rate", r.rate},        {"unit", r.unit == RateUnit::flops ? "GFLOP/s" : "GB/s"},
            {"percent_of_ceiling", r.percent_of_ceiling},       {"ceiling", r.ceiling}, {"ceiling_rate", r.ceiling_rate},
            {"registers", r.registers}, {"occupancy", r.occupancy}, {"launch", r.launch},
            {"from_cache", r.from_cache}, {"confirm_ms", r.confirm_ms}, {"confirmed_ms", r.confirmed_ms},
            {"spread", r.spread},       {"noisy", r.noisy},      {"clock_change", r.clock_change},
            {"unsteady", r.unsteady}};
}

PointResult point_result_from_json(const nlohmann::json& j) {
    PointResult r;
    j.at("point").get_to(r.point.values);
    j.at("label").get_to(r.label);
    const auto state = parse_point_state(j.at("state").get<std::string>());
    if (!state) throw nlohmann::json::other_error::create(501, "unknown point state", &j);
    r.state = *state;
    j.at("reason").get_to(r.reason);
    j.at("median_ms").get_to(r.median_ms);
    j.at("min_ms").get_to(r.min_ms);
    j.at("max_ms").get_to(r.max_ms);
    j.at("rate").get_to(r.rate);
    r.unit = j.at("unit").get<std::string>() == "GFLOP/s" ? RateUnit::flops : RateUnit::bytes;
    j.at("percent_of_ceiling").get_to(r.percent_of_ceiling);
    j.at("ceiling").get_to(r.ceiling);
    j.at("ceiling_rate").get_to(r.ceiling_rate);
    j.at("registers").get_to(r.registers);
    j.at("occupancy").get_to(r.occupancy);
    j.at("launch").get_to(r.launch);
    return r;  // the confirm round is never cached: it is re-timed in every sweep
}

}  // namespace kplay
