// Text and JSON forms of a sweep.
#include "sweep/sweep_table.hpp"

#include <algorithm>
#include <cstdio>

namespace kplay {

namespace {

int rank_of(PointState state) {
    switch (state) {
        case PointState::passed: return 0;
        case PointState::wrong: return 1;
        case PointState::failed: return 2;
        case PointState::pending: return 3;
        case PointState::pruned: return 4;
    }
    return 5;
}

std::string rate_text(const PointResult& r, bool emulated) {
    char text[48];
    if (r.unit == RateUnit::flops && !emulated) std::snprintf(text, sizeof text, "%.2f TFLOP/s", r.rate / 1000);
    else if (r.unit == RateUnit::flops) std::snprintf(text, sizeof text, "%.2f GFLOP/s", r.rate);
    else std::snprintf(text, sizeof text, "%.1f GB/s", r.rate);
    return text;
}

std::string verdict_text(const PointResult& r, bool best) {
    switch (r.state) {
        case PointState::passed: return std::string(best ? "PASS  <- best" : "PASS") + (r.noisy ? " (noisy)" : "") + (r.from_cache ? " (cached)" : "");
        case PointState::wrong: return "WRONG: " + r.reason;
        case PointState::failed: return "FAILED: " + r.reason;
        case PointState::pending: return "not run: " + r.reason;
        case PointState::pruned: return "pruned: " + r.reason;
    }
    return "";
}

std::string percent_text(double spread) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * spread);
    return text;
}

}  // namespace

std::vector<size_t> display_order(const std::vector<PointResult>& results) {
    std::vector<size_t> order(results.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const PointResult &x = results[a], &y = results[b];
        if (rank_of(x.state) != rank_of(y.state)) return rank_of(x.state) < rank_of(y.state);
        // Confirmed points first (the winner is among them), each group by its own time.
        if ((x.confirmed_ms > 0) != (y.confirmed_ms > 0)) return x.confirmed_ms > 0;
        if (x.state == PointState::passed || x.state == PointState::wrong) return x.ranking_ms() < y.ranking_ms();
        return false;
    });
    return order;
}

std::string best_summary(const Sweep& sweep) {
    const auto& results = sweep.results();
    const std::optional<size_t> best = sweep.best();
    if (!best) {
        const bool any_ran = std::any_of(results.begin(), results.end(), [](const PointResult& r) { return r.state != PointState::pruned; });
        return any_ran ? "best: none: no point passed its check" : "best: none: every point was pruned";
    }
    const PointResult& r = results[*best];
    char line[512];
    std::string text = "best: " + r.label;
    std::snprintf(line, sizeof line, ": %.4f ms median", r.median_ms);
    text += line;
    if (r.percent_of_ceiling > 0) {
        std::snprintf(line, sizeof line, ", %.1f%% of %s", r.percent_of_ceiling, r.ceiling.c_str());
        text += line;
    }
    if (r.confirmed_ms > 0) {
        if (sweep.target().emulated)
            std::snprintf(line, sizeof line, "; confirm round %.4f ms, spread %s over %zu rounds", r.confirmed_ms, percent_text(r.spread).c_str(),
                          r.confirm_ms.size());
        else
            std::snprintf(line, sizeof line, "; confirm round %.4f ms, spread %s over %zu interleaved rounds of %d launches", r.confirmed_ms,
                          percent_text(r.spread).c_str(), r.confirm_ms.size(), sweep.options().confirm_repeat_factor * sweep.base().repeat);
        text += line;
        const std::optional<size_t> before = sweep.best_before_confirm();
        if (before && *before != *best) text += "; the confirm round changed the winner (the sweep's fastest was " + results[*before].label + ")";
        else text += "; the confirm round kept the winner";
        if (r.noisy) text += "; NOISY: its spread is over " + percent_text(sweep.options().noisy_spread) + ", so the ranking may not hold";
        if (!r.unsteady.empty()) text += "; the GPU was unsteady in its confirm round (" + r.unsteady + ")";
        const std::vector<size_t> tied = sweep.tied_with_best();
        if (!tied.empty()) {
            text += "; a TIE with ";
            for (size_t i = 0; i < tied.size(); ++i) {
                if (i == 3) {
                    text += " and " + std::to_string(tied.size() - 3) + " more";
                    break;
                }
                const PointResult& other = results[tied[i]];
                std::snprintf(line, sizeof line, "%s%s (+%s)", i ? ", " : "", other.label.c_str(),
                              percent_text((other.confirmed_ms - r.confirmed_ms) / r.confirmed_ms).c_str());
                text += line;
            }
            text += ": within the spread of their confirm rounds (or of the clocks), so this sweep cannot tell them apart";
        }
    }
    return text;
}

std::string format_sweep_table(const Sweep& sweep) {
    const SweepTarget& target = sweep.target();
    const auto& results = sweep.results();
    std::string out;
    char line[1024];
    std::snprintf(line, sizeof line, "device: %s%s", target.device.name.c_str(),
                  target.emulated ? "; emulated: these times are CPU wall time and say nothing about GPU speed" : "");
    out += line;
    // The ceiling the percentages are of, as the worker measured it (the bench's header names it the same way).
    for (const PointResult& r : results)
        if (r.ceiling_rate > 0 && !target.emulated) {
            if (r.unit == RateUnit::flops) std::snprintf(line, sizeof line, "; %s %.2f TFLOP/s", r.ceiling.c_str(), r.ceiling_rate / 1000);
            else std::snprintf(line, sizeof line, "; %s %.0f GB/s", r.ceiling.c_str(), r.ceiling_rate);
            out += line;
            break;
        }
    out += "\n";
    std::snprintf(line, sizeof line, "sweep of %s at %s: %s, %llu points in the space, %zu taken up (%d pruned, %d from the cache)\n",
                  target.file.string().c_str(), target.sizes_text.c_str(), sweep_strategy_name(sweep.options().strategy),
                  static_cast<unsigned long long>(target.space.size()), results.size(), sweep.pruned(), sweep.from_cache());
    out += line;
    int label_width = 24, launch_width = 30;
    for (const PointResult& r : results) {
        label_width = std::max(label_width, static_cast<int>(r.label.size()));
        launch_width = std::max(launch_width, static_cast<int>(r.launch.size()));
    }
    std::snprintf(line, sizeof line, "%-*s %-*s %10s %21s %14s %9s %5s %5s %19s  %s\n", label_width, "point", launch_width, "launch",
                  "median ms", "(min - max)", "throughput", "% ceiling", "regs", "occ", "confirmed (spread)", "check");
    out += line;
    const std::optional<size_t> best = sweep.best();
    std::vector<size_t> pruned;
    for (const size_t i : display_order(results)) {
        const PointResult& r = results[i];
        if (r.state == PointState::pruned) {
            pruned.push_back(i);
            continue;
        }
        const bool timed = r.state == PointState::passed || r.state == PointState::wrong;
        char median[24] = "-", range[48] = "", rate[32] = "", percent[16] = "-", regs[16] = "-", occupancy[16] = "-";
        if (timed) {
            std::snprintf(median, sizeof median, "%.4f", r.median_ms);
            std::snprintf(range, sizeof range, "(%.4f - %.4f)", r.min_ms, r.max_ms);
            std::snprintf(rate, sizeof rate, "%s", rate_text(r, target.emulated).c_str());
            if (r.percent_of_ceiling > 0) std::snprintf(percent, sizeof percent, "%.1f%%", r.percent_of_ceiling);
        }
        if (r.registers > 0) std::snprintf(regs, sizeof regs, "%d", r.registers);
        if (r.occupancy >= 0) std::snprintf(occupancy, sizeof occupancy, "%.0f%%", 100 * r.occupancy);
        char confirmed[40] = "-";
        if (r.confirmed_ms > 0) std::snprintf(confirmed, sizeof confirmed, "%.4f (%s)", r.confirmed_ms, percent_text(r.spread).c_str());
        std::snprintf(line, sizeof line, "%-*s %-*s %10s %21s %14s %9s %5s %5s %19s  %s\n", label_width, r.label.c_str(), launch_width,
                      r.launch.empty() ? "-" : r.launch.c_str(), median, range, rate, percent, regs, occupancy, confirmed,
                      verdict_text(r, best && *best == i).c_str());
        out += line;
    }
    if (!pruned.empty()) {
        out += "pruned before running (" + std::to_string(pruned.size()) + "):\n";
        for (const size_t i : pruned) out += "  " + results[i].label + ": " + results[i].reason + "\n";
    }
    if (target.emulated)
        out += "each point: 2 checked launches (median of CPU wall time), checked at the task's test sizes and a second seed\n";
    else {
        std::snprintf(line, sizeof line, "each point: checked at the task's test sizes and a second seed, then %d warm-up and %d timed launches\n",
                      sweep.base().warmup, sweep.base().repeat);
        out += line;
    }
    out += workers_summary(sweep);
    if (sweep.phase() == SweepPhase::cancelled) out += "cancelled: the points above are those finished before\n";
    if (!sweep.problem().empty()) out += "stopped: " + sweep.problem() + "\n";
    out += best_summary(sweep) + "\n";
    return out;
}

std::string workers_summary(const Sweep& sweep) {
    const std::vector<SweepWorkerStatus>& workers = sweep.workers();
    if (workers.size() < 2) return "";  // one worker ran everything: nothing to tell apart
    std::string out = "workers (" + std::to_string(workers.size()) + "; the confirm round on one):\n";
    for (size_t i = 0; i < workers.size(); ++i) {
        const SweepWorkerStatus& worker = workers[i];
        out += "  worker " + std::to_string(i + 1) + " (" + worker.name + "): " + std::to_string(worker.points_run) + " points, " +
               std::to_string(worker.confirm_runs) + " confirm runs" + (worker.dropped ? "; dropped out: " + worker.dropped_reason : "") + "\n";
    }
    for (const std::string& note : sweep.notes()) out += "  " + note + "\n";
    return out;
}

nlohmann::json sweep_json(const Sweep& sweep) {
    const SweepTarget& target = sweep.target();
    nlohmann::json points = nlohmann::json::array();
    for (const size_t i : display_order(sweep.results())) {
        nlohmann::json point = to_json(sweep.results()[i]);
        const std::optional<size_t> worker = sweep.worker_of(i);
        point["worker"] = worker ? nlohmann::json(*worker + 1) : nlohmann::json(nullptr);  // numbered as in "workers"
        points.push_back(std::move(point));
    }
    nlohmann::json workers = nlohmann::json::array();
    for (const SweepWorkerStatus& worker : sweep.workers())
        workers.push_back({{"name", worker.name},
                           {"points", worker.points_run},
                           {"confirm_runs", worker.confirm_runs},
                           {"dropped", worker.dropped},
                           {"dropped_reason", worker.dropped_reason}});
    nlohmann::json params = nlohmann::json::array();
    for (const SweepParam& param : target.space.params)
        params.push_back({{"name", param.name}, {"kind", sweep_param_kind_name(param.kind)}, {"values", param.values}});
    const auto best = sweep.best();
    const auto before = sweep.best_before_confirm();
    const auto label = [&](std::optional<size_t> index) -> nlohmann::json {
        return index ? nlohmann::json(sweep.results()[*index].label) : nlohmann::json(nullptr);
    };
    nlohmann::json tied = nlohmann::json::array();
    for (const size_t index : sweep.tied_with_best()) tied.push_back(sweep.results()[index].label);
    return {{"schema", 1},
            {"file", target.file.string()},
            {"device", target.device.name},
            {"emulated", target.emulated},
            {"sizes", target.sizes_text},
            {"strategy", sweep_strategy_name(sweep.options().strategy)},
            {"params", params},
            {"restrictions", target.space.restrictions},
            {"space_size", target.space.size()},
            {"points", points},
            {"pruned", sweep.pruned()},
            {"from_cache", sweep.from_cache()},
            {"best", label(best)},
            {"best_before_confirm", label(before)},
            {"confirm_changed_winner", best && before && *best != *before},
            {"tied_with_best", tied},
            {"cancelled", sweep.phase() == SweepPhase::cancelled},
            {"problem", sweep.problem()},
            {"workers", workers},
            {"worker_notes", sweep.notes()},
            {"cache_file", sweep.cache_file().string()}};
}

}  // namespace kplay
