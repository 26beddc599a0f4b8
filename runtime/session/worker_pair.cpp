// The thorough worker made on demand, and the runs held for the device list.
#include "session/worker_pair.hpp"

namespace kplay {

WorkerPair::WorkerPair(WorkerOptions options) : main_(options), options_(std::move(options)) {
    devices_request_ = main_.submit_devices();
}

WorkerClient& WorkerPair::for_run(bool thorough) {
    if (!thorough) return main_;
    if (!thorough_) {
        WorkerOptions options = options_;
        options.thorough = true;  // the worker restarts itself with the sanitizer runtimes preloaded
        thorough_ = std::make_unique<WorkerClient>(options);
    }
    return *thorough_;
}

bool WorkerPair::ready_for_run(bool automatic, bool devices_just_came) {
    if (!devices_known_) {
        held_run_ = automatic;
        return false;
    }
    if (devices_failed_ && !devices_just_came) {
        devices_failed_ = false;
        devices_known_ = false;
        devices_request_ = main_.submit_devices();
        held_run_ = automatic;
        return false;
    }
    return true;
}

std::optional<bool> WorkerPair::take_device_list(const WorkerResult& result) {
    devices_ = result.devices;
    devices_known_ = true;
    devices_failed_ = !result.ok();
    if (!result.ok()) devices_.driver.message = result.failure_message;
    const std::optional<bool> held = held_run_;
    held_run_.reset();
    return held;
}

std::string WorkerPair::device_banner() const {
    if (!devices_known_) return "";
    const std::string problem = devices_.problem();
    if (problem.empty()) return "";
    if (devices_failed_ && main_.remote())
        return "Cannot reach the worker on " + main_.remote_status().label +
               " (see Results); the next run tries again.";
    // The reason's headline ("No CUDA driver"); the whole text is in the Device menu.
    const std::string reason = problem.substr(0, problem.find(':'));
    return "No CUDA device (" + reason +
           "): kernels run on the emulated CPU device; its times say nothing about GPU speed.";
}

std::filesystem::path WorkerPair::sibling_cli() const {
    return (options_.worker_path.empty() ? default_worker_path() : options_.worker_path).parent_path() / "kplay-cli";
}

}  // namespace kplay
