// Supervision of kplay-worker over its link: the request queue, the watchdog, restarts and crash loops.
#include "client/worker_client.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "client/local_link.hpp"
#include "client/stream_link.hpp"
#include "client/worker_answer.hpp"
#include "values/codec.hpp"

namespace kplay {

namespace {

std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", seconds);
    return text;
}

}  // namespace

std::filesystem::path default_worker_path() {
    if (const char* env = std::getenv("KPLAY_WORKER"); env && *env) return env;
    std::error_code error;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path("kplay-worker") : exe.parent_path() / "kplay-worker";
}

WorkerClient::WorkerClient(WorkerOptions options) : options_(std::move(options)) {
    if (options_.worker_path.empty()) options_.worker_path = default_worker_path();
    if (options_.remote) link_ = std::make_unique<StreamLink>(*options_.remote);
    else link_ = std::make_unique<LocalLink>(options_);
}

WorkerClient::~WorkerClient() = default;  // the link stops the worker

void WorkerClient::set_timeouts(double run_s, double compile_s, double cpu_s) {
    options_.run_timeout_s = run_s;
    options_.compile_timeout_s = compile_s;
    options_.cpu_timeout_s = cpu_s;
}

uint64_t WorkerClient::enqueue(MessageKind kind, nlohmann::json body, std::string description) {
    WorkerRequest request;
    request.id = next_id_++;
    request.kind = kind;
    request.message = request_message(kind, request.id, std::move(body));
    request.description = std::move(description);
    queue_.push_back(std::move(request));
    return queue_.back().id;
}

uint64_t WorkerClient::submit_run(const RunRequest& request) {
    const uint64_t id = enqueue(MessageKind::run, request, "running " + request.kernel_path.string());
    link_->pack(queue_.back(), request.kernel_path, request.source, request.include_dirs, request.inputs.image_path);
    send_if_idle();
    return id;
}
uint64_t WorkerClient::submit_compile(const CompileFileRequest& request) {
    const uint64_t id = enqueue(MessageKind::compile, request, "compiling " + request.path.string());
    link_->pack(queue_.back(), request.path, request.source, request.include_dirs, "");
    send_if_idle();
    return id;
}
uint64_t WorkerClient::submit_devices() { return send_if_idle(enqueue(MessageKind::devices, nullptr, "listing devices")); }
uint64_t WorkerClient::submit_stats() { return send_if_idle(enqueue(MessageKind::stats, nullptr, "reading worker statistics")); }
uint64_t WorkerClient::submit_view(const std::string& key, bool thorough) {
    return send_if_idle(enqueue(MessageKind::view, {{"key", key}, {"thorough", thorough}}, "reading the output at full resolution"));
}
uint64_t WorkerClient::submit_ping() { return send_if_idle(enqueue(MessageKind::ping, nullptr, "checking the worker")); }

void WorkerClient::cut_short(uint64_t id) {
    if (!in_flight_ || in_flight_->id != id || in_flight_->kind != MessageKind::run || cut_sent_ == id || !link_->running()) return;
    WorkerRequest cut;
    cut.id = id;
    cut.kind = MessageKind::cut;
    cut.message = request_message(MessageKind::cut, id, nullptr);
    cut.description = "cutting short " + in_flight_->description;
    try {
        link_->send(cut, options_);
        cut_sent_ = id;
    } catch (const ProtocolError&) {
        // The worker is gone: the run's own answer says how it ended.
    }
}

// A request the worker can take now goes now: a caller that submits and then sleeps until the worker's
// socket is readable (the window's loop) would otherwise leave it queued until something else woke it.
uint64_t WorkerClient::send_if_idle(uint64_t id) {
    if (!in_flight_ && !queue_.empty())
        if (auto refused = send_next()) finished_.push_back(std::move(*refused));
    return id;
}

void WorkerClient::reset_crash_loop() {
    gave_up_ = false;
    gave_up_message_.clear();
    recent_failures_.clear();
    next_start_ = {};
}

void WorkerClient::note_failure() {
    const auto now = Clock::now();
    recent_failures_.push_back(now);
    const auto window = std::chrono::duration<double>(options_.quick_failure_window_s);
    std::erase_if(recent_failures_, [&](Clock::time_point t) { return now - t > window; });
    const int count = static_cast<int>(recent_failures_.size());
    if (count >= options_.max_quick_failures) {
        gave_up_ = true;
        gave_up_message_ = "kplay-worker failed " + std::to_string(count) + " times within " +
                           seconds_text(options_.quick_failure_window_s) + "; not restarting it again until asked.";
    }
    // Back off before the next start: 100 ms, 200 ms, 400 ms ... up to 2 s.
    const double backoff = std::min(2.0, 0.1 * std::pow(2.0, count - 1));
    next_start_ = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(backoff));
}

WorkerResult WorkerClient::fail_in_flight(WorkerFailure failure, const std::string& message) {
    WorkerResult result;
    result.id = in_flight_->id;
    result.kind = in_flight_->kind;
    result.failure = failure;
    result.failure_message = message;
    result.worker_pid = link_->pid();
    result.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - sent_at_).count();
    if (result.kind == MessageKind::run || result.kind == MessageKind::view) {
        result.run.file = in_flight_->message[protocol_field::body].value("kernel_path", "");
        result.run.stage = Stage::worker;
        result.run.error = message;
        result.run.error_code = failure == WorkerFailure::timeout ? ErrorCode::timeout : ErrorCode::worker_failed;
    } else if (result.kind == MessageKind::compile) {
        result.compile.input_error = message;
    }
    in_flight_.reset();
    return result;
}

// The link ended under the request: a failure that counts towards giving up.
WorkerResult WorkerClient::fail_link(const LinkEnding& ending) {
    note_failure();
    return fail_in_flight(ending.failure, ending.message);
}

std::optional<WorkerResult> WorkerClient::poll() {
    if (!finished_.empty()) {
        WorkerResult result = std::move(finished_.front());
        finished_.pop_front();
        return result;
    }
    return advance();
}

double WorkerClient::limit_for(Phase phase) const {
    switch (phase) {
        case Phase::cpu: return options_.cpu_timeout_s;
        case Phase::compile: return options_.compile_timeout_s;
        case Phase::gpu: return options_.run_timeout_s;
    }
    return options_.run_timeout_s;
}

void WorkerClient::set_deadline(double seconds) {
    const double limit = seconds + link_->watchdog_margin_s();
    deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
}

std::optional<WorkerResult> WorkerClient::advance() {
    if (!in_flight_ && !queue_.empty())
        if (auto refused = send_next()) return refused;
    if (!in_flight_) return std::nullopt;
    if (auto ending = link_->check(in_flight_->description)) return fail_link(*ending);
    if (auto result = receive()) return result;
    if (Clock::now() > deadline_) return time_out();
    return std::nullopt;
}

void WorkerClient::take_next() {
    in_flight_ = std::move(queue_.front());
    queue_.pop_front();
    sent_at_ = Clock::now();
}

// Sends the queue's next request, starting the worker first if none runs; a result when the request
// cannot go (the client gave up, or the worker cannot start).
std::optional<WorkerResult> WorkerClient::send_next() {
    if (gave_up_) {
        take_next();
        return fail_in_flight(WorkerFailure::gave_up, gave_up_message_);
    }
    if (!link_->running()) {
        if (Clock::now() < next_start_) return std::nullopt;  // backing off after a failure
        std::string why;
        if (!link_->start(why)) {
            take_next();
            note_failure();
            return fail_in_flight(WorkerFailure::start_failed, why);
        }
        ++starts_;
    }
    take_next();
    phase_ = in_flight_->kind == MessageKind::run ? Phase::compile : Phase::gpu;
    phase_fraction_ = -1;
    const bool compiles = in_flight_->kind == MessageKind::run || in_flight_->kind == MessageKind::compile;
    set_deadline(compiles ? options_.compile_timeout_s : std::max(10.0, options_.compile_timeout_s));
    try {
        link_->send(*in_flight_, options_);
    } catch (const ProtocolError&) {
        // The worker is gone before it could take the request; the read that follows says how it ended.
    }
    return std::nullopt;
}

// Reads what has arrived: progress, an answer, or the link's end or breakage.
std::optional<WorkerResult> WorkerClient::receive() {
    const auto drain_until = Clock::now() + std::chrono::milliseconds(6);
    try {
        for (;;) {
            if (auto frame = link_->next_frame()) {
                if (message_kind(frame->message) != MessageKind::progress) return take_answer(std::move(*frame));
                follow_progress(frame->message);
                continue;
            }
            const FrameReader::Status status = link_->read_more();
            if (status == FrameReader::Status::closed) return fail_link(link_->closed(in_flight_->description));
            if (status == FrameReader::Status::need_more && !link_->await_rest(drain_until)) return std::nullopt;
        }
    } catch (const ProtocolVersionMismatch& error) {
        // Retrying cannot help: the other side has another kplay-worker until it is updated.
        link_->stop(true);
        gave_up_ = true;
        gave_up_message_ = link_->other_version(error);
        return fail_in_flight(WorkerFailure::protocol, gave_up_message_);
    } catch (const std::exception& error) {
        const std::string message = link_->broken_answer(in_flight_->description, error.what());
        link_->stop(true);
        note_failure();
        return fail_in_flight(WorkerFailure::protocol, message);
    }
}

void WorkerClient::follow_progress(const nlohmann::json& message) {
    // The run entered another phase, or got further in it: a new phase is timed by its own limit from
    // now on; a fraction alone only updates what the user sees.
    const Phase phase = parse_phase(message.value(protocol_field::phase, "")).value_or(Phase::gpu);
    phase_fraction_ = message.value(protocol_field::fraction, -1.0);
    if (phase != phase_ || phase_fraction_ < 0) {
        phase_ = phase;
        set_deadline(limit_for(phase));
    }
}

WorkerResult WorkerClient::take_answer(Frame frame) {
    // Decode before letting go of the request: a bad answer still fails *this* request.
    const bool partial = frame.message.value(protocol_field::partial, false) && in_flight_->kind == MessageKind::run;
    WorkerResult result = decode(std::move(frame));
    if (partial) {
        result.partial = true;  // the final answer follows; the request stays in flight
        return result;
    }
    in_flight_.reset();
    if (!link_->replaces_its_own_worker() && reports_sticky_fault(result)) {
        // The worker's CUDA context is dead: replace the process before the next request.
        link_->stop(false);
        append_to_run_error(result, " The worker process was replaced; the next run starts clean.");
    }
    return result;
}

WorkerResult WorkerClient::decode(Frame frame) {
    WorkerResult result;
    result.id = in_flight_->id;
    result.kind = in_flight_->kind;
    result.worker_pid = link_->pid();
    result.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - sent_at_).count();
    const nlohmann::json& message = frame.message;
    if (message.value(protocol_field::id, uint64_t{0}) != result.id)
        throw ProtocolError("the worker answered a different request");
    if (message.contains(protocol_field::error))
        throw ProtocolError("the worker could not handle the request: " +
                            message[protocol_field::error].get<std::string>());
    link_->read_answer_extras(message, sent_at_, result);
    if (options_.relay) result.answer = std::make_shared<Frame>(std::move(frame));
    else read_answer(frame, result);
    return result;
}

WorkerResult WorkerClient::time_out() {
    const double waited = std::chrono::duration<double>(Clock::now() - sent_at_).count();
    if (auto silent = link_->silence(in_flight_->description, seconds_text(std::round(waited)))) {
        link_->stop(true);
        note_failure();
        return fail_in_flight(WorkerFailure::timeout, *silent);
    }
    link_->stop(true);  // SIGKILL then waitpid: the GPU frees the process's memory only once it has been reaped
    const bool kernel = in_flight_->kind == MessageKind::run && phase_ == Phase::gpu;
    const double timeout = in_flight_->kind == MessageKind::run ? limit_for(phase_) : options_.compile_timeout_s;
    // CPU work: the inputs, the reference, the check, and a launch on the emulated device.
    const std::string what = phase_ == Phase::cpu       ? "its CPU work (the reference, the check or the emulated device's launch)"
                             : phase_ == Phase::compile ? "compiling"
                                                        : in_flight_->description;
    return fail_in_flight(WorkerFailure::timeout,
                          kernel ? "Kernel did not finish within " + seconds_text(timeout) + " and was stopped — an endless loop?"
                                 : "The worker did not finish " + what + " within " + seconds_text(timeout) + " and was stopped.");
}

WorkerResult WorkerClient::wait(uint64_t id) {
    for (;;) {
        for (auto it = finished_.begin(); it != finished_.end(); ++it)
            if (it->id == id) {
                WorkerResult result = std::move(*it);
                finished_.erase(it);
                return result;
            }
        if (auto result = advance()) {
            if (result->id == id) return std::move(*result);
            finished_.push_back(std::move(*result));  // someone else's; kept for their poll()
            continue;
        }
        // Sleep until the worker writes or a short tick passes (for the watchdog and backoff).
        if (!link_->wait_for_input(20)) usleep(10000);
    }
}

}  // namespace kplay
