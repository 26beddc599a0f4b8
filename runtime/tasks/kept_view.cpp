// Keeping a run's primary output for its full-resolution view, and making that view on request.
#include "tasks/kept_view.hpp"

#include <unistd.h>

#include "base/error.hpp"

namespace kplay {

std::string KeptView::next_key() {
    kept_.reset();
    key_ = std::to_string(getpid()) + "." + std::to_string(++count_);
    return key_;
}

void KeptView::keep(const BufferCheckInput& input, OutputKind kind) {
    validate_check_input(input);
    Kept kept;
    kept.spec = *input.spec;
    if (input.first) kept.first = *input.first;
    kept.final = *input.final;
    kept.expected = *input.expected;
    if (input.bound) kept.bound = *input.bound;
    kept.values = input.values;
    kept.tolerance = input.tolerance_override;
    kept.kind = kind;
    kept_ = std::move(kept);
}

OutputView KeptView::full_view(const std::string& key) const {
    if (!kept_ || key != key_)
        throw InputError("the output at full resolution is no longer kept: a newer run has replaced it (run the file again to see it)");
    BufferCheckInput input;
    input.spec = &kept_->spec;
    input.first = &kept_->first;
    input.final = &kept_->final;
    input.expected = &kept_->expected;
    input.bound = kept_->bound ? &*kept_->bound : nullptr;
    input.values = kept_->values;
    input.tolerance_override = kept_->tolerance;
    input.kind = kept_->kind;
    return make_output_view(input, kept_->kind);
}

}  // namespace kplay
