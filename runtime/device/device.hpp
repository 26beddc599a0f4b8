// The device a run's launches go to: a CUDA GPU (cuda_device) or the emulated CPU device
// (emulated_device). The runner and the pipeline speak only this interface, so both devices follow one
// path: load a kernel, place the task's buffers, poison, launch (returning its time or its fault),
// read back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "values/compile_result.hpp"
#include "values/device_values.hpp"
#include "values/error_code.hpp"
#include "values/fault_info.hpp"
#include "values/kernel_resources.hpp"
#include "values/launch_config.hpp"
#include "values/race_report.hpp"
#include "values/who_wrote.hpp"
#include "values/writer_map.hpp"
#include "values/line_access.hpp"
#include "values/run_request.hpp"
#include "values/stage.hpp"
#include "values/timing_conditions.hpp"
#include "base/error.hpp"
#include "plan/tensor_map_plan.hpp"
#include "plan/texture_plan.hpp"
#include "tasks/outputs_on_device.hpp"
#include "kernel_file/task_spec.hpp"

namespace kplay {

// What a device loads kernels from: NVRTC's output for a GPU, the source itself for the emulated device.
struct KernelSource {
    std::string source;  // the kernel file's text
    std::filesystem::path path;
    std::vector<std::string> kernels;        // name expressions, e.g. "matmul_k<16>"; the annotated kernel first
    std::vector<std::string> lowered_names;  // NVRTC's names for them, by index (GPU)
    const CompileResult* compiled = nullptr;
    std::vector<std::pair<std::string, std::string>> defines;
    std::vector<std::string> constants;  // the `__constant__` arrays a run fills (kplay-constant), for the emulated build
    std::vector<std::string> include_dirs;  // the file's include= and the user's, searched before kplay's own
};

// A loaded kernel, or a library call standing in for one. Each device only launches its own.
class LoadedKernel {
public:
    virtual ~LoadedKernel() = default;
    FunctionAttributes attributes;  // parameter layout, registers, shared memory
    double load_ms = 0;             // module load (GPU)
    double host_compile_ms = 0;     // the host compiler's build (emulated device)
    bool host_compile_cached = false;
};

// How a buffer of a set is placed: on the emulated device the first checked launch has each buffer's
// end exactly against a guard page and the second its start, so both edges are exact.
enum class GuardEdge { end, start };

struct BufferShape {
    std::string name;
    ElementType type = ElementType::u8;
    size_t bytes = 0;
};

// One set of the task's buffers on the device, indexed like the task's buffers.
class ResidentBuffers;

class DeviceBuffers {
public:
    virtual ~DeviceBuffers() = default;
    virtual uint64_t address(size_t index) const = 0;
    virtual void write(size_t index, const void* data, size_t bytes) = 0;
    virtual void read(size_t index, void* data, size_t bytes) = 0;  // waits for work in flight
    virtual void fill(size_t index, uint32_t word) = 0;             // the word repeated (1-byte types: its low byte)
    // How many bytes past buffer `index`'s end the launches since it was allocated wrote into (0: none
    // seen). A GPU does not fault on a write just past a buffer (it stays inside the allocation's
    // granularity), so its buffers keep a guard zone after them; the emulated device faults at its
    // guard page instead and says 0.
    virtual size_t overrun(size_t) { return 0; }
    // base/fingerprint's fingerprint of buffer `index`, computed where the buffer lives (after the work
    // in flight): whether it changed is known without reading it back.
    virtual uint64_t fingerprint(size_t index) = 0;
};

// A run's outputs kept where the device computed them, checked there (tasks/outputs_on_device.hpp).
class CheckedOutputs : public OutputsOnDevice {
public:
    // Keeps buffer `index` of `buffers` as checked launch `launch` (0 or 1) left it, before anything
    // else is written to it; launch 2 is the last timed launch (only where its output differs).
    virtual void keep(size_t index, int launch, DeviceBuffers& buffers) = 0;
};

// One launch of a run's sequence (the annotated kernel's, then each kplay-launch line's).
struct DeviceLaunch {
    LoadedKernel* kernel = nullptr;
    const LaunchConfig* launch = nullptr;
    std::vector<void*>* args = nullptr;
    std::string name;  // the kernel's name expression, for a failure's message
};

// A texture or surface object over one buffer of a set (kplay-texture, kplay-surface): the 8-byte handle
// the kernel receives, and the copies a GPU needs where the object lives in a CUDA array of its own (a
// surface, a layered, 3D or misaligned texture): the buffer into it before the set's launches, and for a
// surface back out after them, outside their timing. Released with the set.
class BoundImage {
public:
    virtual ~BoundImage() = default;
    uint64_t handle = 0;
    virtual void before_launches() {}
    virtual void after_launches() {}
};

// A launch's time, or why it failed, and what the kernel printed (emulated device).
struct LaunchOutcome {
    bool ok = true;
    double ms = 0;
    std::string error;
    ErrorCode error_code = ErrorCode::none;
    int line = 0;  // the kernel line of a fault, when known
    FaultInfo fault;
    std::vector<std::string> printf_lines;
    size_t printf_dropped = 0;
    std::vector<std::string> warnings;
    std::vector<Race> races;  // a tracked emulated launch's
    std::vector<ElementWriter> writers;  // a tracked emulated launch's, for RunRequest::who_wrote
    WriterMap writer_map;                // a tracked emulated launch's, for RunRequest::writer_map
    std::vector<BufferWrites> writes;
    std::vector<LineAccessProfile> line_access;  // a tracked emulated launch's, one per kernel launched
};

class Device {
public:
    virtual ~Device() = default;
    virtual const DeviceInfo& info() const = 0;
    virtual bool emulated() const = 0;

    // The stage a failed load is reported at (the emulated device compiles here).
    virtual Stage load_stage() const { return Stage::load; }
    // One loaded kernel per name in `source.kernels`, in order (one module, one build). Throws InputError
    // (the user's problem) or ApiError.
    virtual std::vector<std::unique_ptr<LoadedKernel>> load(const KernelSource& source) = 0;
    // cuBLAS in place of a kernel, taking (a, b, c, M, N, K) of `types` (SGEMM for f32, cublasGemmEx for
    // f16 and bf16); throws InputError where it cannot run.
    virtual std::unique_ptr<LoadedKernel> library(Baseline baseline, GemmTypes types) = 0;
    // Before launches with this configuration (the opt-in to more than 48 KiB of dynamic shared memory).
    virtual void prepare(LoadedKernel& kernel, const LaunchConfig& launch) = 0;
    virtual Occupancy occupancy(const LoadedKernel& kernel, const LaunchConfig& launch) = 0;

    virtual std::unique_ptr<DeviceBuffers> allocate(const std::vector<BufferShape>& buffers, GuardEdge edge) = 0;
    // Whether the two checked launches need sets placed differently (GuardEdge::end, then start).
    virtual bool places_edges() const = 0;
    // A TMA descriptor over the buffer at `address` (cuTensorMapEncodeTiled). Throws InputError where the
    // device has none (the emulated one refuses such kernels before this) or the driver refuses it.
    virtual TensorMapBytes encode_tensor_map(const TensorMapPlan& plan, uint64_t address) = 0;
    // The texture or surface object of `plan` over its buffer in `buffers`. Throws InputError where the
    // device has none or its driver refuses it (the reason and the object named).
    virtual std::unique_ptr<BoundImage> bind_image(const TexturePlan& plan, DeviceBuffers&) {
        throw InputError(std::string(plan.decl.key()) + " " + plan.decl.name + ": this device has no texture or surface objects.");
    }
    // Fills the `__constant__` array `name` of the kernel's module with `bytes` before its launches. Throws
    // InputError when the module has no such symbol or its size is not `bytes` (kplay-constant's length).
    virtual void write_constant(LoadedKernel& kernel, const std::string& name, const void* data, size_t bytes) = 0;
    // The launches in order, back to back, timed as one; the first that fails ends the sequence.
    virtual LaunchOutcome launch(const std::vector<DeviceLaunch>& launches, DeviceBuffers& buffers) = 0;

    // Timing: whether warm-ups and repeats make sense (the emulated device times its checked launches
    // only), the work done before each timed launch outside its timing (an L2 flush), and how many
    // copies of the inputs to rotate through so a repeat does not find them in cache.
    virtual bool times_repeats() const = 0;
    virtual bool before_timed_launch(bool flush) = 0;  // returns whether it flushed
    virtual int input_copies(size_t input_bytes, bool rotate) const = 0;
    // A place for one run's checked outputs where the device checks them itself, by buffer index (shapes
    // of 0 bytes: not kept); null where the host checks them (the emulated device: its memory is the host's).
    virtual std::shared_ptr<CheckedOutputs> checked_outputs(const std::vector<BufferShape>&) { return nullptr; }
    // Where this device keeps recent runs' buffers across runs (null: it does not).
    virtual ResidentBuffers* resident() { return nullptr; }
    // The device's clocks, temperature and throttling now, around the timed repeats (GPUs through NVML).
    virtual ClockReading read_clocks() { return {std::nullopt, "the emulated device has no GPU clocks"}; }
};

}  // namespace kplay
