// The window's workers: the main one, which also answers the device list, the inspect compiles, the
// cuBLAS baselines and the fault re-runs, and a thorough one for runs on the emulated device with
// AddressSanitizer and UBSan (a worker with the sanitizer runtimes preloaded), made when first asked for.
//
// And the device list, asked of the main worker at once: a run waits for it (held, without blocking the
// window), since without a GPU it goes to the emulated device at sizes made for a CPU.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "client/worker_client.hpp"

namespace kplay {

class WorkerPair {
public:
    explicit WorkerPair(WorkerOptions options);  // asks for the device list

    WorkerClient& main() { return main_; }
    // The worker a run goes to; the thorough one is started on the first such run.
    WorkerClient& for_run(bool thorough);
    // The worker a run sent with `thorough` waits on.
    const WorkerClient& answering(bool thorough) const { return thorough && thorough_ ? *thorough_ : main_; }
    WorkerClient* thorough() { return thorough_.get(); }  // null until made

    // Whether a run can go now. Otherwise it is held until the device list comes: it has not come yet,
    // or the last list could not be had (a remote host out of reach), which is asked for again first so
    // that a run after the host is back goes to its GPU. `devices_just_came`: the run held for the list
    // that just came, which is not asked for again (a host that stays out of reach would be asked in a loop).
    bool ready_for_run(bool automatic, bool devices_just_came);
    bool holds_run() const { return held_run_.has_value(); }
    bool is_device_list(const WorkerResult& result) const { return result.id == devices_request_; }
    // The device list's answer; returns the run held for it, if any (whether it was automatic).
    std::optional<bool> take_device_list(const WorkerResult& result);

    const DeviceQuery& devices() const { return devices_; }
    bool devices_known() const { return devices_known_; }
    // Why runs go to the emulated device when there is no GPU (empty when there is one, or not known yet).
    std::string device_banner() const;
    // kplay-cli beside the worker: the fault finders and the profiler run it in a process of their own.
    std::filesystem::path sibling_cli() const;

private:
    WorkerClient main_;
    std::unique_ptr<WorkerClient> thorough_;
    WorkerOptions options_;
    DeviceQuery devices_;
    bool devices_known_ = false;
    bool devices_failed_ = false;  // the last device query got no answer (the worker or its host out of reach)
    uint64_t devices_request_ = 0;
    std::optional<bool> held_run_;  // a run asked for before the device list came (automatic or not)
};

}  // namespace kplay
