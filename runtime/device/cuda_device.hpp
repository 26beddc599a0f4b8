// A CUDA GPU as a Device: its primary context, a stream with two events for timing, the L2 flusher,
// and the ceilings measured on it (kept for the life of the process).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "values/run_report.hpp"
#include "cuda/cuda_context.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/check_kernel.hpp"
#include "cuda/fingerprint_kernel.hpp"
#include "cuda/l2_flush.hpp"
#include "cuda/nvml.hpp"
#include "device/device.hpp"
#include "device/resident_buffers.hpp"
#include "device/resident_references.hpp"

namespace kplay {

class CudaDevice final : public Device {
public:
    explicit CudaDevice(int ordinal);  // makes the context current
    const DeviceInfo& info() const override { return info_; }
    bool emulated() const override { return false; }
    std::vector<std::unique_ptr<LoadedKernel>> load(const KernelSource& source) override;
    std::unique_ptr<LoadedKernel> library(Baseline baseline, GemmTypes types) override;
    void prepare(LoadedKernel& kernel, const LaunchConfig& launch) override;
    Occupancy occupancy(const LoadedKernel& kernel, const LaunchConfig& launch) override;
    std::unique_ptr<DeviceBuffers> allocate(const std::vector<BufferShape>& buffers, GuardEdge edge) override;
    bool places_edges() const override { return false; }
    void write_constant(LoadedKernel& kernel, const std::string& name, const void* data, size_t bytes) override;
    TensorMapBytes encode_tensor_map(const TensorMapPlan& plan, uint64_t address) override;
    std::unique_ptr<BoundImage> bind_image(const TexturePlan& plan, DeviceBuffers& buffers) override;
    LaunchOutcome launch(const std::vector<DeviceLaunch>& launches, DeviceBuffers& buffers) override;
    bool times_repeats() const override { return true; }
    bool before_timed_launch(bool flush) override;
    int input_copies(size_t input_bytes, bool rotate) const override;
    ClockReading read_clocks() override;
    ResidentBuffers* resident() override { return &resident_; }
    std::shared_ptr<CheckedOutputs> checked_outputs(const std::vector<BufferShape>& shapes) override;

    void make_current() const { context_.make_current(); }
    // After a sticky fault the context cannot run kernels again in this process.
    bool poisoned() const { return poisoned_; }
    void mark_poisoned() { poisoned_ = true; }
    // Ceilings measured on this device, by kind and (for cuBLAS) by sizes.
    std::map<std::string, Ceiling>& ceilings() { return ceilings_; }
    const Stream& stream() const { return stream_; }
    const ResidentReferences& references() const { return references_; }

private:
    // Why this cooperative launch cannot have all its blocks resident at once (occupancy x SMs), or empty.
    std::string cooperative_refusal(const LoadedKernel& kernel, const LaunchConfig& launch);

    DeviceInfo info_;
    PrimaryContext context_;
    Stream stream_;
    Event start_, stop_;
    std::unique_ptr<L2Flusher> l2_flusher_;  // made at the first flush: reads a 2x-L2 buffer
    std::unique_ptr<Nvml> nvml_;             // opened at the first reading
    std::unique_ptr<FingerprintKernel> fingerprint_;  // built at the first allocation
    std::unique_ptr<CheckKernel> check_;              // built at the first run's check
    std::string nvml_missing_;               // why NVML could not be opened (tried once)
    bool poisoned_ = false;
    std::map<std::string, Ceiling> ceilings_;
    // Last: their buffers are freed before the context and stream above go.
    ResidentBuffers resident_;
    ResidentReferences references_;
};

}  // namespace kplay
