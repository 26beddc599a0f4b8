// What a downsampled image view was made from, kept by the engine after its run: the checked launches'
// output copied and its reference shared, so the full resolution is made when the window asks for it (the
// "view" request: a zoom past the view's pixels, a Save) and never otherwise.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tasks/buffer_check.hpp"
#include "tasks/expected_outputs.hpp"

namespace kplay {

class KeptView {
public:
    // The key the next kept output goes by (OutputView::full_view_key), unique to this process; what was
    // kept before is let go.
    std::string next_key();
    // Copies what make_output_view reads of `input` (the spec, both launches' bytes, the sizes and the
    // tolerance) under the last key given; the reference and its bound, which input.expected and
    // input.bound point into, are shared (`reference`), not copied.
    void keep(const BufferCheckInput& input, OutputKind kind, std::shared_ptr<const ExpectedOutputs> reference);
    void clear() { kept_.reset(); }
    // The view at full resolution of the output kept under `key`. Throws InputError when it is not kept.
    OutputView full_view(const std::string& key) const;

private:
    struct Kept {
        BufferSpec spec;
        HostBuffer first, final;
        std::shared_ptr<const ExpectedOutputs> reference;
        const std::vector<unsigned char>* expected = nullptr;  // in `reference`
        const std::vector<double>* bound = nullptr;
        NamedValues values;
        std::optional<double> tolerance;
        OutputKind kind = OutputKind::image;
    };
    std::optional<Kept> kept_;
    std::string key_;
    uint64_t count_ = 0;
};

}  // namespace kplay
