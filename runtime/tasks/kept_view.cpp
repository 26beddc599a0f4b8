// Keeping a run's primary output for its full-resolution view, and making that view on request.
#include "tasks/kept_view.hpp"

#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "base/error.hpp"

namespace kplay {

std::string KeptView::next_key() {
    kept_.reset();
    key_ = std::to_string(getpid()) + "." + std::to_string(++count_);
    return key_;
}

void KeptView::keep(const BufferCheckInput& input, OutputKind kind, std::shared_ptr<const ExpectedOutputs> reference,
                    std::shared_ptr<OutputsOnDevice> on_device, size_t index) {
    validate_check_input(input);
    const auto within = [&](const auto* array, const auto& arrays) {
        return array == nullptr || std::any_of(arrays.begin(), arrays.end(), [&](const auto& a) { return &a == array; });
    };
    if (!reference || !within(input.expected, reference->outputs) || !within(input.bound, reference->bounds))
        throw std::invalid_argument("KeptView::keep: the reference given is not the one the input points into");
    if (input.bytes_on_device != (on_device != nullptr))
        throw std::invalid_argument("KeptView::keep: the outputs kept on a device come with that device's copies");
    Kept kept;
    kept.spec = *input.spec;
    if (input.first) kept.first = *input.first;
    kept.final = *input.final;
    kept.on_device = std::move(on_device);
    kept.index = index;
    kept.reference = std::move(reference);
    kept.expected = input.expected;
    kept.bound = input.bound;
    kept.values = input.values;
    kept.tolerance = input.tolerance_override;
    kept.kind = kind;
    kept.image_white = input.image_white;
    kept_ = std::move(kept);
}

OutputView KeptView::full_view(const std::string& key) const {
    if (!kept_ || key != key_)
        throw InputError("the worker no longer keeps this output (a newer run replaced it): run the file again (F5) to see it at full resolution");
    BufferCheckInput input;
    input.spec = &kept_->spec;
    input.first = &kept_->first;
    input.final = &kept_->final;
    input.expected = kept_->expected;
    input.bound = kept_->bound;
    input.reference_key = kept_->reference->key;
    input.values = kept_->values;
    input.tolerance_override = kept_->tolerance;
    input.kind = kept_->kind;
    input.image_white = kept_->image_white;
    input.bytes_on_device = kept_->on_device != nullptr;
    if (kept_->on_device) return kept_->on_device->view(kept_->index, input, kept_->kind, 0);
    return make_output_view(input, kept_->kind);
}

}  // namespace kplay
