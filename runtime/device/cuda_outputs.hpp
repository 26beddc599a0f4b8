// A GPU run's checked outputs: each output's copy after the first and after the second checked launch,
// kept in device memory, and the check kernel's tally and views over them (tasks/outputs_on_device.hpp).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "cuda/check_kernel.hpp"
#include "cuda/cuda_context.hpp"
#include "cuda/cuda_handles.hpp"
#include "device/device.hpp"
#include "device/resident_references.hpp"

namespace kplay {

class CudaOutputs final : public CheckedOutputs {
public:
    // `context` is made current by each call: a view asked for later may come while another GPU's is.
    // The references are found in, or uploaded to, `references` (the device's, kept across runs).
    CudaOutputs(const std::vector<BufferShape>& shapes, const PrimaryContext& context, const Stream& stream, const CheckKernel& kernel,
                ResidentReferences& references);

    void keep(size_t index, int launch, DeviceBuffers& buffers) override;
    ElementTally tally(size_t index, const BufferCheckInput& input) override;
    ElementTally timed_tally(size_t index, const BufferCheckInput& input) override;
    OutputView view(size_t index, const BufferCheckInput& input, OutputKind kind, int view_side) override;
    std::vector<unsigned char> first_launch(size_t index) override;
    std::vector<unsigned char> final_launch(size_t index) override;

private:
    // The kernels' parameters for buffer `index`, made with the reference's (and bound's) upload, once per
    // buffer and run: the tally and the view of one output share them.
    CheckKernelParams params(size_t index, const BufferCheckInput& input);
    // The check kernel's tally with `p`, the largest |reference| found once per buffer and run.
    ElementTally tally_with(size_t index, CheckKernelParams p);

    const PrimaryContext& context_;
    const Stream& stream_;
    const CheckKernel& kernel_;
    ResidentReferences& resident_;
    std::vector<DeviceBuffer> first_, final_;  // by buffer index; empty for buffers not kept
    std::vector<DeviceBuffer> timed_;          // the last timed launch's, made only where it differed
    std::vector<bool> kept_first_;
    struct Reference {
        const void* host = nullptr;  // the expected outputs it was uploaded from (alive for the run)
        const void* spec = nullptr;  // and the buffer's spec, whose rule the params carry
        std::shared_ptr<const DeviceBuffer> expected, bound;
        CheckKernelParams params;
        std::optional<double> largest;  // the largest |reference|, found at the first tally
    };
    std::map<size_t, Reference> references_;
};

}  // namespace kplay
