// What a downsampled image view was made from, kept by the engine after its run: on a GPU the device's
// copies of the checked launches' output (nothing crosses to the host until asked), elsewhere their bytes
// copied; its reference shared. The full resolution is made when the window asks for it (the "view"
// request: a zoom past the view's pixels, a Save), on the device where the output lies, and never otherwise.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tasks/buffer_check.hpp"
#include "tasks/expected_outputs.hpp"
#include "tasks/outputs_on_device.hpp"

namespace kplay {

class KeptView {
public:
    // The key the next kept output goes by (OutputView::full_view_key), unique to this process; what was
    // kept before is let go.
    std::string next_key();
    // Keeps what the view of `input` is made from under the last key given: the spec, the sizes and the
    // tolerance copied; the launches' output shared where it stays on the device (`on_device`, as buffer
    // `index`), else its bytes copied; the reference and its bound, which input.expected and input.bound
    // point into, shared (`reference`).
    void keep(const BufferCheckInput& input, OutputKind kind, std::shared_ptr<const ExpectedOutputs> reference,
              std::shared_ptr<OutputsOnDevice> on_device, size_t index);
    void clear() { kept_.reset(); }
    // The view at full resolution of the output kept under `key`. Throws InputError when it is not kept.
    OutputView full_view(const std::string& key) const;

private:
    struct Kept {
        BufferSpec spec;
        HostBuffer first, final;  // no bytes where on_device keeps them
        std::shared_ptr<OutputsOnDevice> on_device;
        size_t index = 0;  // the output's, in on_device
        std::shared_ptr<const ExpectedOutputs> reference;
        const std::vector<unsigned char>* expected = nullptr;  // in `reference`
        const std::vector<double>* bound = nullptr;
        NamedValues values;
        std::optional<double> tolerance;
        OutputKind kind = OutputKind::image;
        double image_white = 255;
    };
    std::optional<Kept> kept_;
    std::string key_;
    uint64_t count_ = 0;
};

}  // namespace kplay
