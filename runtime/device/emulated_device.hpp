// The emulated CPU device as a Device: kernels built by the host compiler against the CUDA prelude,
// buffers between guard pages, and each launch in a sandboxed process of its own (emu/).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "device/device.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "values/who_wrote.hpp"

namespace kplay {

struct EmulationSettings {
    std::filesystem::path emu_include_dir;  // kplay_emu_prelude.h and the stand-in headers
    std::filesystem::path kernels_include_dir;
    std::filesystem::path cache_dir;
    ThreadOrder order = ThreadOrder::forward;
    uint64_t order_seed = 1;
    int workers = 0;  // 0: one per core
    double timeout_s = 10;
    bool thorough = false;  // AddressSanitizer + UBSan, one worker (needs the runtimes preloaded)
    bool track = false;     // every load and store tracked for races, one worker (not with thorough)
    std::vector<ElementRef> who_wrote;  // a tracked launch names these elements' writers
    std::string writer_map;             // a tracked launch maps this buffer's writers (RunRequest::writer_map)
    bool symbol_check = true;
    bool sandbox = true;
    bool debug = false;  // built and launched for a debugger: -O0 -g, one worker, no filter, no time limit
};

// Why the emulated device will not run a kernel: what only a GPU has (an arch-specific target, a
// thread block cluster, TMA descriptors), each named as the file writes it; empty when it can run it.
std::string emulated_device_refusal(const KernelSpec& spec, const std::string& file);

// An emulated launch's time budget: `timeout_s` (10 s unless --timeout says otherwise) for each million
// threads it launches (2^20), and never less than `timeout_s`: a CPU takes longer the more threads it runs.
constexpr double kEmulatedThreadsPerBudget = 1048576;
double emulated_time_budget(double timeout_s, const LaunchConfig& launch);

// How fault messages name an element of a buffer: "1 element past the end of 'out' (1000 floats)".
const char* element_c_name(ElementType type);

class EmulatedDevice final : public Device {
public:
    explicit EmulatedDevice(EmulationSettings settings);
    const DeviceInfo& info() const override { return info_; }
    bool emulated() const override { return true; }
    Stage load_stage() const override { return Stage::compile; }  // loading is the host compiler's build
    std::vector<std::unique_ptr<LoadedKernel>> load(const KernelSource& source) override;
    std::unique_ptr<LoadedKernel> library(Baseline baseline, GemmTypes types) override;
    void prepare(LoadedKernel&, const LaunchConfig&) override {}
    Occupancy occupancy(const LoadedKernel&, const LaunchConfig&) override { return {}; }
    std::unique_ptr<DeviceBuffers> allocate(const std::vector<BufferShape>& buffers, GuardEdge edge) override;
    bool places_edges() const override { return true; }
    void write_constant(LoadedKernel& kernel, const std::string& name, const void* data, size_t bytes) override;
    TensorMapBytes encode_tensor_map(const TensorMapPlan& plan, uint64_t address) override;
    std::unique_ptr<BoundImage> bind_image(const TexturePlan& plan, DeviceBuffers& buffers) override;
    LaunchOutcome launch(const std::vector<DeviceLaunch>& launches, DeviceBuffers& buffers) override;
    bool times_repeats() const override { return false; }
    bool before_timed_launch(bool) override { return false; }
    int input_copies(size_t, bool) const override { return 1; }
    const EmulationSettings& settings() const { return settings_; }

private:
    LaunchOutcome launch_one(const DeviceLaunch& launch, DeviceBuffers& buffers);
    EmulationSettings settings_;
    DeviceInfo info_;
};

}  // namespace kplay
