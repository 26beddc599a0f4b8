// The last run in numbers: compile (cache hit or miss), load, kernel median/min/max, transfers, the
// reference, the rate in the task's unit against its ceiling with a verdict that names the bound, the
// check of every output and of the further sizes, and the edit->result latency.
#include <imgui.h>

#include <cmath>

#include "editor_launcher.hpp"
#include "values/verdict.hpp"
#include "fault_lines_view.hpp"
#include "panels.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

namespace {
const ImVec4 kRed(0.95f, 0.35f, 0.35f, 1), kGreen(0.4f, 0.85f, 0.45f, 1);

void row(const char* label, const char* format, ...) IM_FMTARGS(2);
void row(const char* label, const char* format, ...) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", label);
    ImGui::TableNextColumn();
    va_list args;
    va_start(args, format);
    ImGui::TextV(format, args);
    va_end(args);
}
// A row whose value may be long: it wraps in its column.
void wrapped_row(const char* label, const std::string& text, const ImVec4* colour) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", label);
    ImGui::TableNextColumn();
    ImGui::PushTextWrapPos(0);
    if (colour) ImGui::TextColored(*colour, "%s", text.c_str());
    else ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
}
// Nsight Compute's summary of a run, beside its figures.
void draw_profile(AppState& state) {
    KernelSession& session = state.session;
    if (session.can_profile() && ImGui::SmallButton("Profile (Nsight Compute)")) session.profile_last_run();
    if (session.profiling()) ImGui::TextDisabled("Profiling under ncu...");
    const auto& profile = session.profile();
    if (!profile) return;
    if (!profile->summary) {
        ImGui::TextDisabled("Profile: %s", profile->problem.c_str());
        return;
    }
    const ProfileSummary& p = *profile->summary;
    const std::vector<std::string> lines = describe_profile(p);
    ImGui::Text("Profile of run %d (ncu, clocks as they are):", session.profile_run());
    for (const auto& line : lines) wrapped_colored(ImVec4(0.8f, 0.8f, 0.8f, 1), "%s", line.c_str());
    for (const auto& advice : p.advice) wrapped_colored(ImVec4(0.6f, 0.6f, 0.6f, 1), "ncu: %s", advice.c_str());
}

}  // namespace

void draw_results_panel(AppState& state) {
    const KernelSession& session = state.session;
    const auto& last = session.last();
    if (!last) {
        ImGui::TextDisabled(session.busy() ? "Waiting for the first result..." : "No run yet.");
        return;
    }
    const RunReport& r = *last;
    if (!r.ok()) {
        ImGui::PushTextWrapPos(0);
        // The message in red; details after it (a sanitizer's report, a list of launch problems) in grey.
        const auto newline = r.error.find('\n');
        wrapped_colored(kRed, "%s", r.error.substr(0, newline).c_str());
        if (newline != std::string::npos) ImGui::TextDisabled("%s", r.error.substr(newline + 1).c_str());
        if (!r.fault.hint.empty()) ImGui::TextWrapped("Hint: %s", r.fault.hint.c_str());
        if (r.error_line > 0) {
            // The emulated device knows the line: take the user there.
            const std::string where = session.file().string() + ":" + std::to_string(r.error_line);
            if (ImGui::SmallButton(("Open line " + std::to_string(r.error_line) + " in the editor").c_str())) {
                ImGui::SetClipboardText(where.c_str());
                const std::string opened = open_in_editor(session.file().string(), r.error_line);
                state.say("Copied " + where + (opened.empty() ? "" : ". " + opened));
            }
        }
        draw_fault_lines(state, true);
        if (!r.fault.sanitizer_command.empty()) {
            ImGui::TextDisabled("or by hand: %s", r.fault.sanitizer_command.c_str());
            if (ImGui::SmallButton("Copy command")) ImGui::SetClipboardText(r.fault.sanitizer_command.c_str());
        }
        ImGui::PopTextWrapPos();
    }
    if (!ImGui::BeginTable("results", 2, ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    if (!r.compile.arch.empty())
        row("compile", "%.1f ms (%s) for %s", r.compile.cache_hit ? r.compile.lookup_ms : r.compile.compile_ms,
            r.compile.cache_hit ? "cache hit" : "cache miss", r.compile.arch.c_str());
    if (r.device && r.emulated)
        row("device", "%s, %s order%s", r.device->name.c_str(), thread_order_name(r.thread_order),
            r.thorough ? ", ASan + UBSan" : r.tracked ? ", races tracked" : "");
    else if (r.device) row("device", "%s (%s)", r.device->name.c_str(), r.device->arch().c_str());
    if (r.emulated && reached(r, Stage::load)) row("host build", r.host_compile_cached ? "cached" : "%.0f ms (host compiler)", r.host_compile_ms);
    if (!r.sizes.empty()) row("sizes", "%s", r.sizes.c_str());
    if (r.ok() && r.emulated) {
        row("kernel", "median %.1f ms (CPU time: not a GPU figure)", r.kernel_ms.median);
    } else if (r.ok()) {
        row("module load", "%.2f ms", r.module_load_ms);
        if (r.partial)  // the checked result, shown before its timed repeats (RunReport::partial)
            row("kernel", "%.4f ms over the %d checked launches; timing %d repeats and checking more sizes...", r.kernel_ms.median,
                r.kernel_ms.count, session.inputs.repeat);
        else
            row("kernel", "median %.4f ms  (min %.4f, max %.4f) over %d runs", r.kernel_ms.median, r.kernel_ms.min, r.kernel_ms.max,
                r.kernel_ms.count);
        if (!r.partial) row("clocks", "%s", conditions_text(r.conditions).c_str());
        row("transfers", "H2D %.2f ms, D2H %.2f ms", r.h2d_ms, r.d2h_ms);
    }
    if (r.ok()) {
        row("reference", r.check.reference_cached ? "%s, cached" : "%s, %.0f ms", r.check.reference.c_str(), r.check.reference_ms);
        if (!r.emulated) {
            const RateUnit unit = r.spec ? r.spec->task.presentation.rate : RateUnit::bytes;
            row("rate", "%.1f %s", r.rate(), rate_unit_text(unit));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextDisabled("verdict");
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", r.verdict.c_str());
            if (!session.baseline_note().empty() && r.ceiling.kind == CeilingKind::cublas) row("cuBLAS", "%s", session.baseline_note().c_str());
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("check");
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, r.check.passed ? kGreen : kRed);
        ImGui::TextWrapped("%s", r.check.summary.c_str());
        ImGui::PopStyleColor();
        for (const Race& race : r.races) {
            wrapped_row("race", describe_race(race), &kRed);
            wrapped_row("", race_advice(race), nullptr);
        }
        if (!r.check.first_bad.empty()) wrapped_row("first bad", r.check.first_bad, nullptr);
        if (r.check.buffers.size() > 1)
            for (const auto& buffer : r.check.buffers) wrapped_row(buffer.buffer.c_str(), buffer.passed ? "PASS" : buffer.summary, buffer.passed ? &kGreen : &kRed);
        for (const auto& size : r.check.sizes) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextDisabled("at %s", size.sizes.c_str());
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0);
            if (size.skipped) ImGui::TextDisabled("%s", size.summary.c_str());
            else if (size.passed) ImGui::TextColored(kGreen, "PASS");
            else wrapped_colored(kRed, "%s", size.summary.c_str());
            ImGui::PopTextWrapPos();
        }
        for (const auto& metric : r.check.metrics)
            if (metric.value != 0 || metric.name == "max_abs_error") row(metric.name.c_str(), "%.4g", metric.value);
    }
    if (!session.history().empty() && session.history().back().reused)
        row("note", "the result of an identical earlier run (same source and settings); F5 runs it again");
    // The first result after opening a file is not an edit's: it is labelled as what it is.
    if (session.showing_opened_result() && session.opened_to_result_ms())
        row("first result", "%.1f ms (opening the file to result on screen, worker start included)", *session.opened_to_result_ms());
    else if (!session.latencies_ms().empty())
        row("edit -> result", "%.1f ms (file change to result on screen)", session.latencies_ms().back());
    if (!session.history().empty() && session.history().back().worker_ms > 0)
        row("in the worker", "%.1f ms (compile, run, check, transfer back)", session.history().back().worker_ms);
    ImGui::EndTable();
    if (r.ok()) draw_profile(state);
}

}  // namespace kplay::window
