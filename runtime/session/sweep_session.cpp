// The window's sweep controller.
#include "session/sweep_session.hpp"

#include "base/error.hpp"
#include "plan/argument_binding.hpp"
#include "kernel_file/source_scan.hpp"
#include "kernel_file/task_sizes.hpp"

namespace kplay {

SweepStart sweep_start_from(const KernelSession& session, bool at_current_sizes) {
    SweepStart start;
    start.file = session.file();
    start.source = session.source();
    start.devices = session.devices();
    start.emulate = session.emulating();
    start.ordinal = std::max(0, session.inputs.device);
    start.warmup = session.inputs.warmup;
    start.repeat = session.inputs.repeat;
    start.seed = session.inputs.seed;
    if (at_current_sizes && session.task()) {
        std::vector<int64_t> values;
        const NamedValues sizes = session.current_sizes();
        for (const auto& name : session.task()->sizes.names)
            if (sizes.count(name)) values.push_back(sizes.at(name));
        if (values.size() == session.task()->sizes.names.size()) start.size_text = size_values_text(values);
    }
    return start;
}

LaunchChange launch_change(const SweepTarget& target, const SweepPoint& point) {
    LaunchChange change;
    const AnnotationValues values = annotation_values(target, point);
    if (values.block) {
        std::array<int64_t, 3> block{1, 1, 1};
        for (size_t i = 0; i < 3 && i < values.block->size(); ++i) block[i] = (*values.block)[i];
        change.block = block;
    }
    change.args = values.literals;
    change.defines = values.defines;
    const auto sizes = point_sizes(target, point);
    for (size_t i = 0; i < target.space.params.size(); ++i)
        if (target.space.params[i].kind == SweepParamKind::size)
            for (size_t s = 0; s < target.spec.task.sizes.names.size() && s < sizes.size(); ++s)
                if (target.spec.task.sizes.names[s] == target.space.params[i].name) change.sizes[target.space.params[i].name] = sizes[s];
    return change;
}

SweepSession::SweepSession(WorkerOptions options) : options_(std::move(options)) {}

void SweepSession::suggest(const std::string& source, const std::optional<KernelSpec>& spec) {
    try {
        if (auto lines = find_sweep_lines(source, "file")) {
            text = sweep_text(*lines);
            return;
        }
    } catch (const InputError&) {
        // A broken kplay-sweep line is reported when the sweep starts; suggest as if there were none.
    }
    text = "block_x=32..1024 step *2\n";
    if (!spec) return;
    if (spec->launch_dims == 2) text = "block_x=8..32 step *2\nblock_y=8..32 step *2\nrestrict block_x*block_y <= threads_max\n";
    try {
        for (const auto& [name, value] : literal_arguments(spec->args, {}, {})) {
            if (value < 2) continue;
            text = name + "=" + std::to_string(value / 2) + "," + std::to_string(value) + "," + std::to_string(value * 2) + "\n";
            break;  // the block usually follows a literal (block=tw,tw): sweep it alone
        }
    } catch (const InputError&) {
    }
}

bool SweepSession::start(const SweepStart& start) { return start_on(start, {}); }

bool SweepSession::start(const SweepStart& start, std::vector<SweepWorker> workers) {
    if (workers.empty()) {
        problem_ = "The pool's group has no worker to sweep on.";
        return false;
    }
    return start_on(start, std::move(workers));
}

bool SweepSession::start_on(const SweepStart& start, std::vector<SweepWorker> pool_workers) {
    problem_.clear();
    notice_.clear();
    preview_.reset();
    if (on_pool_ && sweep_ && !sweep_->finished()) {
        problem_ = "A sweep is running.";
        for (SweepWorker& worker : pool_workers) unused_pool_clients_.push_back(std::move(worker.client));
        return false;
    }
    try {
        SweepSpace space = parse_sweep_text(text);
        SweepOptions options;
        options.strategy = strategy;
        options.confirm_top = confirm_top;
        parse_sweep_budget(budget, options);
        SweepTarget target = make_sweep_target(start.file, start.source, std::move(space), start.devices, start.emulate, start.ordinal,
                                               start.size_text);
        RunRequest base;
        base.warmup = start.warmup;
        base.repeat = start.repeat;
        base.inputs.seed = start.seed;
        base.rotate_inputs = true;
        if (!pool_workers.empty()) {
            // The last sweep's own worker is let go: this one runs on the pool's.
            if (!on_pool_) sweep_.reset();
            sweep_ = std::make_unique<Sweep>(std::move(target), base, options, std::move(pool_workers));
            on_pool_ = true;
            return true;
        }
        // The last sweep's worker when it finished: its compiles, inputs and references are still in memory.
        std::unique_ptr<WorkerClient> worker = sweep_ && !on_pool_ ? sweep_->release_worker() : nullptr;
        if (!worker) worker = std::make_unique<WorkerClient>(options_);
        sweep_ = std::make_unique<Sweep>(std::move(target), base, options, std::move(worker));
        on_pool_ = false;
    } catch (const InputError& error) {
        problem_ = error.what();
        for (SweepWorker& worker : pool_workers) unused_pool_clients_.push_back(std::move(worker.client));
        return false;
    }
    return true;
}

std::vector<std::unique_ptr<WorkerClient>> SweepSession::take_back_pool_workers() {
    if (!unused_pool_clients_.empty()) {
        std::vector<std::unique_ptr<WorkerClient>> clients = std::move(unused_pool_clients_);
        unused_pool_clients_.clear();
        return clients;
    }
    if (!on_pool_ || !sweep_ || !sweep_->finished()) return {};
    return sweep_->release_workers();
}

bool SweepSession::update() { return sweep_ && sweep_->update(); }

void SweepSession::cancel() {
    if (sweep_) sweep_->cancel();
}

bool SweepSession::apply_to_launch(KernelSession& session) {
    if (!sweep_ || !sweep_->best()) return false;
    const LaunchChange change = launch_change(sweep_->target(), sweep_->results()[*sweep_->best()].point);
    if (change.block) session.overrides.block = change.block;
    for (const auto& [name, value] : change.args) session.overrides.args[name] = value;
    for (const auto& define : change.defines) {
        bool replaced = false;
        for (auto& entry : session.overrides.defines)
            if (entry.first == define.first) {
                entry.second = define.second;
                replaced = true;
            }
        if (!replaced) session.overrides.defines.push_back(define);
    }
    for (const auto& [name, value] : change.sizes) session.set_size(name, value);
    session.apply_settings();
    notice_ = "Applied " + sweep_->results()[*sweep_->best()].label + " to the launch settings.";
    return true;
}

std::optional<AnnotationEdit> SweepSession::preview_file_edit() {
    preview_.reset();
    problem_.clear();
    if (!sweep_ || !sweep_->best()) {
        problem_ = "No point passed its check: nothing to write.";
        return std::nullopt;
    }
    try {
        preview_ = point_edit(sweep_->target(), sweep_->results()[*sweep_->best()].point, previewed_bytes_);
        if (!preview_->changed()) {
            notice_ = "The annotation already has the best point.";
            preview_.reset();
        }
    } catch (const InputError& error) {
        problem_ = error.what();
    }
    return preview_;
}

bool SweepSession::write_file_edit(KernelSession& session) {
    if (!preview_ || !sweep_) return false;
    try {
        const auto orig = write_annotation_edit(sweep_->target().file, previewed_bytes_, *preview_);
        notice_ = "Wrote line " + std::to_string(preview_->line) + " of " + sweep_->target().file.filename().string() +
                  "; the original is kept as " + orig.filename().string() + ".";
        // The file holds the point now: the window's settings go back to following it.
        session.overrides.block.reset();
        session.overrides.args.clear();
        session.overrides.defines.clear();
        preview_.reset();
        return true;
    } catch (const InputError& error) {
        problem_ = error.what();
        return false;
    }
}

}  // namespace kplay
