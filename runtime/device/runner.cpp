// Checked launches, then warm-ups and timed repeats, on any Device.
#include "device/runner.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "device/constant_fill.hpp"
#include "device/resident_buffers.hpp"
#include "plan/argument_binding.hpp"

namespace kplay {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::vector<BufferShape> shapes_of(const TaskData& data) {
    std::vector<BufferShape> shapes;
    for (const HostBuffer& buffer : data.buffers) shapes.push_back({buffer.name, buffer.type, buffer.bytes()});
    return shapes;
}

// A set of the task's buffers with the inputs written, and each launch's arguments pointing into it.
struct BufferSet {
    std::unique_ptr<DeviceBuffers> buffers;
    std::vector<std::vector<BoundArgument>> arguments;  // by launch
    std::vector<std::vector<void*>> pointers;           // by launch, into `arguments`
    std::vector<DeviceLaunch> launches;                 // the sequence, pointing into `pointers`
    std::vector<std::unique_ptr<TensorMapBytes>> tensor_maps;  // TMA descriptors over these buffers
    std::vector<std::unique_ptr<BoundImage>> images;           // texture and surface objects over them
};

// `kept`: buffers a run of the same inputs left on the device, inputs as written (nothing to upload).
BufferSet make_set(Device& device, const std::vector<PlannedLaunch>& sequence, const TaskData& data, GuardEdge edge,
                   std::unique_ptr<DeviceBuffers> kept) {
    BufferSet set;
    set.buffers = std::move(kept);
    if (!set.buffers) {
        set.buffers = device.allocate(shapes_of(data), edge);
        for (size_t i = 0; i < data.buffers.size(); ++i)
            if (data.buffers[i].is_input()) set.buffers->write(i, data.buffers[i].data.data(), data.buffers[i].bytes());
    }
    for (const PlannedLaunch& planned : sequence)
        set.arguments.push_back(with_addresses(planned.plan->arguments, [&](size_t index) { return set.buffers->address(index); }));
    for (auto& arguments : set.arguments) set.pointers.push_back(argument_pointers(arguments));
    // A descriptor holds its buffer's address, so each set has its own; the kernel gets its 128 bytes.
    for (size_t i = 0; i < sequence.size(); ++i)
        for (const TensorMapPlan& map : sequence[i].plan->tensor_maps) {
            set.tensor_maps.push_back(std::make_unique<TensorMapBytes>(
                device.encode_tensor_map(map, set.buffers->address(static_cast<size_t>(map.buffer)))));
            set.pointers[i].at(map.argument) = set.tensor_maps.back()->bytes;
        }
    // One object per declared name, shared by the launches that take it: a surface two launches write is one array.
    std::vector<std::string> bound;
    for (size_t i = 0; i < sequence.size(); ++i)
        for (const TexturePlan& image : sequence[i].plan->textures) {
            size_t slot = static_cast<size_t>(std::find(bound.begin(), bound.end(), image.decl.name) - bound.begin());
            if (slot == bound.size()) {
                set.images.push_back(device.bind_image(image, *set.buffers));
                bound.push_back(image.decl.name);
            }
            set.pointers[i].at(image.argument) = &set.images[slot]->handle;
        }
    for (size_t i = 0; i < sequence.size(); ++i)
        set.launches.push_back({sequence[i].kernel, &sequence[i].plan->launch, &set.pointers[i], sequence[i].name});
    return set;
}

// The set's launches, with its texture and surface objects' copies around them (device/device.hpp).
LaunchOutcome launch_set(Device& device, BufferSet& set) {
    for (auto& image : set.images) image->before_launches();
    LaunchOutcome outcome = device.launch(set.launches, *set.buffers);
    if (outcome.ok)
        for (auto& image : set.images) image->after_launches();
    return outcome;
}

// Outputs get the launch's poison; inout buffers their initial content again (the kernel reads them).
void prepare_outputs(const TaskData& data, BufferSet& set, int launch_index) {
    for (size_t i = 0; i < data.buffers.size(); ++i) {
        const HostBuffer& buffer = data.buffers[i];
        if (buffer.role == BufferRole::inout || buffer.prefilled) set.buffers->write(i, buffer.data.data(), buffer.data.size());
        else if (buffer.role == BufferRole::out || buffer.role == BufferRole::scratch) set.buffers->fill(i, buffer.poison[static_cast<size_t>(launch_index % 2)]);
    }
}

// What a guard zone's overrun means: the GPU did not fault, so the kernel's line is found by running
// the launch again on the emulated device, which does.
LaunchOutcome overrun_failure(const HostBuffer& buffer, size_t past, const std::vector<PlannedLaunch>& sequence) {
    LaunchOutcome failure;
    failure.ok = false;
    failure.error_code = ErrorCode::out_of_bounds_write;
    const std::string kernels = sequence.size() == 1 ? sequence[0].name : "the launches";
    failure.error = kernels + " wrote past the end of '" + buffer.name + "' (" + std::to_string(buffer.bytes()) + " bytes): up to " +
                    std::to_string(past) + " bytes beyond it. The GPU did not fault, because the write stayed inside the allocation.";
    failure.fault.overrun = true;
    failure.fault.explanation = "A thread wrote past the end of a buffer without a fault: the GPU hands out memory in large pieces.";
    failure.fault.hint = "A thread whose index is past the data must skip its work: test the index against the size (e.g. `if (i < n)`) "
                         "before it is used. Find the line runs the same launch on the emulated device, which stops at the write.";
    return failure;
}

// What a run's buffers must match to be found again: the same input set, buffer shapes and sets.
std::string resident_key(const TaskData& data, size_t sets) {
    if (data.identity.empty()) return {};
    std::string key = data.identity + " sets=" + std::to_string(sets);
    for (const HostBuffer& buffer : data.buffers)
        key += " " + buffer.name + ":" + std::to_string(static_cast<int>(buffer.type)) + ":" + std::to_string(static_cast<int>(buffer.role)) +
               ":" + std::to_string(buffer.bytes());
    return key;
}

// The sets this run may start from: the ones kept under `key`, if all of them are there.
std::vector<std::unique_ptr<DeviceBuffers>> kept_sets(ResidentBuffers* resident, const std::string& key, size_t sets) {
    if (!resident || key.empty()) return {};
    std::vector<std::unique_ptr<DeviceBuffers>> kept = resident->take(key);
    if (kept.size() != sets) kept.clear();
    return kept;
}

// After a run that went well, its buffers stay for the next run of the same inputs: unless a launch
// wrote an input in any set (its fingerprint is no longer `as_written`'s) or into a guard zone (the next
// run would be blamed for it).
void keep_sets(ResidentBuffers* resident, const std::string& key, std::vector<BufferSet>& sets, const TaskData& data,
               const std::vector<uint64_t>& as_written) {
    if (!resident || key.empty()) return;
    std::vector<std::unique_ptr<DeviceBuffers>> buffers;
    size_t bytes = 0;
    for (BufferSet& set : sets)
        for (size_t i = 0; i < data.buffers.size(); ++i) {
            if (set.buffers->overrun(i)) return;
            if (data.buffers[i].role == BufferRole::in && set.buffers->fingerprint(i) != as_written[i]) return;
            bytes += data.buffers[i].bytes();
        }
    for (BufferSet& set : sets) buffers.push_back(std::move(set.buffers));
    resident->keep(key, std::move(buffers), bytes);
}

// Output `index` as launch `launch` (0 and 1 checked, 2 the last timed) left it in `buffers`: described,
// and its bytes kept where the device checks them (`on_device`), else read back.
HostBuffer launch_output(const HostBuffer& buffer, size_t index, int launch, DeviceBuffers& buffers, CheckedOutputs* on_device) {
    HostBuffer copy = buffer.described();
    if (on_device) {
        on_device->keep(index, launch, buffers);  // checked where it lies: no bytes here
    } else {
        copy.data.resize(buffer.bytes());
        buffers.read(index, copy.data.data(), copy.data.size());
    }
    return copy;
}

void keep_messages(const LaunchOutcome& outcome, RunnerResult& result) {
    result.printf_lines = outcome.printf_lines;
    result.printf_dropped = outcome.printf_dropped;
    result.warnings = outcome.warnings;
}

}  // namespace

RunnerResult run_launches(Device& device, const std::vector<PlannedLaunch>& sequence, const TaskData& data, const RunnerSettings& settings) {
    RunnerResult result;
    std::vector<LoadedKernel*> kernels;
    for (const PlannedLaunch& planned : sequence) {
        device.prepare(*planned.kernel, planned.plan->launch);
        kernels.push_back(planned.kernel);
    }
    write_constants(device, kernels, data);  // the task's __constant__ arrays, at this run's sizes
    size_t input_bytes = 0;
    for (const HostBuffer& buffer : data.buffers)
        if (buffer.is_input()) input_bytes += buffer.bytes();
    result.copies = settings.timed && device.times_repeats() ? device.input_copies(input_bytes, settings.rotate_inputs) : 1;

    const auto h2d_start = std::chrono::steady_clock::now();
    // Sets 0..copies-1 at the end edge; then the second checked launch's at the start edge, where the
    // device places edges (else the second checked launch takes a rotated copy, which must compute the same).
    const size_t set_count = static_cast<size_t>(result.copies) + (device.places_edges() ? 1 : 0);
    ResidentBuffers* resident = device.resident();
    const std::string key = resident ? resident_key(data, set_count) : std::string();
    std::vector<std::unique_ptr<DeviceBuffers>> kept = kept_sets(resident, key, set_count);
    result.inputs_resident = !kept.empty();
    std::vector<BufferSet> sets;
    for (size_t k = 0; k < set_count; ++k) {
        const GuardEdge edge = k < static_cast<size_t>(result.copies) ? GuardEdge::end : GuardEdge::start;
        std::unique_ptr<DeviceBuffers> reuse = kept.empty() ? nullptr : std::move(kept[k]);
        try {
            sets.push_back(make_set(device, sequence, data, edge, std::move(reuse)));
        } catch (...) {
            // Out of memory with earlier runs' buffers kept: let them go and try once more.
            if (!resident || resident->bytes() == 0) throw;
            resident->clear();
            sets.push_back(make_set(device, sequence, data, edge, nullptr));
        }
    }
    BufferSet& second = sets.size() > 1 ? sets[device.places_edges() ? sets.size() - 1 : 1] : sets[0];
    result.h2d_ms = ms_since(h2d_start);
    // Each `in` buffer's fingerprint as written: after the launches a different one means the kernel
    // wrote its input, found without reading the input back (a histogram's is 100 MB).
    std::vector<uint64_t> as_written(data.buffers.size(), 0);
    for (size_t i = 0; i < data.buffers.size(); ++i)
        if (data.buffers[i].role == BufferRole::in) as_written[i] = second.buffers->fingerprint(i);

    std::vector<double> checked_ms;
    result.first.resize(data.buffers.size());
    result.final.resize(data.buffers.size());
    result.fingerprints.assign(data.buffers.size(), 0);
    // Where the device checks its outputs itself, both checked launches' outputs are copied aside there.
    std::vector<BufferShape> kept_outputs = shapes_of(data);
    for (size_t i = 0; i < data.buffers.size(); ++i)
        if (!data.buffers[i].is_output()) kept_outputs[i].bytes = 0;
    result.on_device = device.checked_outputs(kept_outputs);
    result.inputs_changed.assign(data.buffers.size(), false);
    for (int launch_index = 0; launch_index < 2; ++launch_index) {
        BufferSet& set = launch_index == 0 ? sets[0] : second;
        prepare_outputs(data, set, launch_index);
        const LaunchOutcome outcome = launch_set(device, set);
        keep_messages(outcome, result);
        if (launch_index == 0) {
            result.races = outcome.races;
            result.writers = outcome.writers;
            result.writer_map = outcome.writer_map;
            result.writes = outcome.writes;
            result.line_access = outcome.line_access;
        }
        if (!outcome.ok) {
            result.failure = outcome;
            return result;
        }
        checked_ms.push_back(outcome.ms);
        const auto d2h_start = std::chrono::steady_clock::now();
        for (size_t i = 0; i < data.buffers.size(); ++i) {
            const HostBuffer& buffer = data.buffers[i];
            if (buffer.is_output()) {
                (launch_index == 0 ? result.first : result.final)[i] = launch_output(buffer, i, launch_index, *set.buffers, result.on_device.get());
                if (launch_index == 1) result.fingerprints[i] = set.buffers->fingerprint(i);
            } else if (launch_index == 1 && buffer.role == BufferRole::in) {
                result.inputs_changed[i] = set.buffers->fingerprint(i) != as_written[i];
            }
        }
        if (launch_index == 1) result.d2h_ms = ms_since(d2h_start);
        // A write past a buffer's end that did not fault (a missing bounds check, mostly) is a failure too.
        if (launch_index == 0)
            for (size_t i = 0; i < data.buffers.size(); ++i)
                if (const size_t past = set.buffers->overrun(i)) {
                    result.failure = overrun_failure(data.buffers[i], past, sequence);
                    return result;
                }
    }

    result.timing = summarize_timings(checked_ms);
    // The emulated device times no repeats, but its further sizes follow: its picture goes first too.
    if (settings.after_checked) settings.after_checked(result);
    if (!settings.timed || !device.times_repeats()) {
        keep_sets(resident, key, sets, data, as_written);
        return result;
    }
    const auto cut = [&] {
        if (!settings.cut_short || !settings.cut_short()) return false;
        result.cut_short = true;  // the checked launches' timing stays
        keep_sets(resident, key, sets, data, as_written);
        return true;
    };
    if (cut()) return result;
    const ClockReading clocks_before = device.read_clocks();
    const auto timed_start = std::chrono::steady_clock::now();
    result.warmup = std::max(0, settings.warmup);
    for (int i = 0; i < result.warmup; ++i) {
        BufferSet& set = sets[static_cast<size_t>(i % result.copies)];
        prepare_outputs(data, set, i);
        launch_set(device, set);
    }
    std::vector<double> samples;
    for (int i = 0; i < std::max(1, settings.repeat); ++i) {
        BufferSet& set = sets[static_cast<size_t>(i % result.copies)];
        prepare_outputs(data, set, i);
        result.l2_flushed = device.before_timed_launch(settings.flush_l2);
        samples.push_back(launch_set(device, set).ms);
        if (cut()) return result;
    }
    result.timing = summarize_timings(samples);
    result.timed_ms = ms_since(timed_start);
    result.conditions = timing_conditions(clocks_before, device.read_clocks());
    if (settings.keep_timed_outputs) {
        // Only an output whose bytes differ from the checked launch's is kept (a kernel that adds floats
        // atomically in another order, or one that replays an answer): the check judges those.
        BufferSet& last = sets[static_cast<size_t>((std::max(1, settings.repeat) - 1) % result.copies)];
        result.timed_last.resize(data.buffers.size());
        for (size_t i = 0; i < data.buffers.size(); ++i)
            if (data.buffers[i].is_output() && last.buffers->fingerprint(i) != result.fingerprints[i])
                result.timed_last[i] = launch_output(data.buffers[i], i, 2, *last.buffers, result.on_device.get());
    }
    keep_sets(resident, key, sets, data, as_written);
    return result;
}

}  // namespace kplay
