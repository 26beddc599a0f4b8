// One runner for both devices: two checked launches with different poison, then (timed runs) the
// warm-ups and timed repeats. A launch here is the task's whole sequence of kernels (kplay-launch).
//
// Before each checked launch every output is filled with one of its two poison patterns (inout buffers
// get their input back instead), so an element the kernel never writes holds poison[0] after the first
// and poison[1] after the second and can never pass. On the emulated device the two launches use
// buffers placed against their guard pages at opposite edges, so an overrun and an underrun are both
// caught exactly. After them each input's fingerprint is taken where it lives: a kernel that writes an `in`
// buffer is flagged without reading it back.
// On a GPU both checked launches' outputs are copied aside on the device, where the check kernel checks
// them (tasks/outputs_on_device.hpp): neither is read back unless a failure is named or a view asks.
// The task's data is only read: its outputs go into the RunnerResult.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/timing_stats.hpp"
#include "device/device.hpp"
#include "plan/plan.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

struct RunnerResult;

struct RunnerSettings {
    bool timed = true;  // warm-ups and repeats after the checked launches (where the device times repeats)
    int warmup = 3;
    int repeat = 20;
    bool flush_l2 = true;
    bool rotate_inputs = false;  // inputs that fit in L2 rotate through copies between timed launches
    // Read each output back after the last timed launch (outside the timed region), so the check can see
    // that the timed launches computed what the checked ones did: their outputs were poisoned before each.
    bool keep_timed_outputs = false;
    // Called after the two checked launches, before any warm-up, with their outputs (or the device's
    // copies) and `timing` summarising the checked launches: a progressive run shows that result at once.
    std::function<void(const RunnerResult&)> after_checked;
    // Asked after the checked launches and between timed ones: true when the caller no longer wants the
    // timing (a newer run overtook this one): the repeats stop and RunnerResult::cut_short says so.
    std::function<bool()> cut_short;
};

struct RunnerResult {
    LaunchOutcome failure;  // ok unless a launch failed (a fault the device reports as a value)
    // By buffer index: each output as the first and as the second checked launch left it (inputs left
    // empty). Where the device checks its outputs itself (`on_device`), neither holds bytes: they stay
    // there, and cross to the host only when asked for (OutputsOnDevice::first_launch, final_launch).
    std::vector<HostBuffer> first, final;
    // By index: each output's fingerprint (base/fingerprint.hpp) after the second checked launch, taken
    // where it lies: two runs' outputs are compared by these, not by their bytes.
    std::vector<uint64_t> fingerprints;
    // The device's copies of both checked launches' outputs, for its own check (null: the host checks).
    std::shared_ptr<CheckedOutputs> on_device;
    // By index: whether an `in` buffer's fingerprint after the launches differs from the one it was
    // written with (the kernel wrote its input).
    std::vector<bool> inputs_changed;
    // By index: each output after the last timed launch (keep_timed_outputs), only where its fingerprint
    // differs from the second checked launch's (else empty, count 0): described, and its bytes read back
    // unless the device keeps them (`on_device`, as its launch 2) and judges them there.
    std::vector<HostBuffer> timed_last;
    TimingStats timing;
    bool cut_short = false;  // the timed repeats were stopped (RunnerSettings::cut_short): `timing` is the checked launches'
    int warmup = 0;
    int copies = 1;
    bool l2_flushed = false;
    double h2d_ms = 0, d2h_ms = 0;
    bool inputs_resident = false;  // the buffers a run of the same inputs left on the device: nothing uploaded
    double timed_ms = 0;  // the warm-ups and timed repeats, flushes included (wall time)
    TimingConditions conditions;  // the clocks before the warm-ups and after the last repeat (timed runs)
    std::vector<std::string> printf_lines, warnings;
    size_t printf_dropped = 0;
    std::vector<Race> races;  // the first checked launch's (a tracked emulated launch)
    std::vector<ElementWriter> writers;
    WriterMap writer_map;  // the first checked launch's (RunRequest::writer_map)
    std::vector<BufferWrites> writes;
    std::vector<LineAccessProfile> line_access;
};

// One launch of a run's sequence, as planned.
struct PlannedLaunch {
    LoadedKernel* kernel = nullptr;
    const LaunchPlan* plan = nullptr;
    std::string name;  // the kernel's name expression
};

// The launches run back to back wherever the runner says "launch": each checked launch, warm-up and
// timed repeat is the whole sequence, timed as one.
RunnerResult run_launches(Device& device, const std::vector<PlannedLaunch>& launches, const TaskData& data, const RunnerSettings& settings);

}  // namespace kplay
