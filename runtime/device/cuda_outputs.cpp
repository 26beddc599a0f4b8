// Keeping a GPU run's checked outputs, and checking them with the check kernel.
#include "device/cuda_outputs.hpp"

#include <bit>

#include "base/error.hpp"
#include "cuda/driver.hpp"

namespace kplay {

namespace {

// The poisons the check kernel tells never-written elements by (the first copy's only where there is one).
void set_poisons(CheckKernelParams& p, const BufferCheckInput& input) {
    const size_t size = element_size(input.spec->type);
    for (size_t parity = 0; parity < 2; ++parity) {
        p.poison[0][parity] = p.first ? poison_element_bits(input.first->poison[0], size, parity) : 0;
        p.poison[1][parity] = poison_element_bits(input.final->poison[1], size, parity);
    }
}

// A kept copy's bytes, read back.
std::vector<unsigned char> downloaded(const PrimaryContext& context, const DeviceBuffer& copy) {
    std::vector<unsigned char> bytes(copy.size());
    if (bytes.empty()) return bytes;
    context.make_current();
    copy.download(bytes.data(), bytes.size());
    return bytes;
}

}  // namespace

CudaOutputs::CudaOutputs(const std::vector<BufferShape>& shapes, const PrimaryContext& context, const Stream& stream, const CheckKernel& kernel,
                         ResidentReferences& references)
    : context_(context), stream_(stream), kernel_(kernel), resident_(references), kept_first_(shapes.size(), false) {
    for (const BufferShape& shape : shapes) {
        first_.emplace_back(shape.bytes ? DeviceBuffer(shape.bytes) : DeviceBuffer());
        final_.emplace_back(shape.bytes ? DeviceBuffer(shape.bytes) : DeviceBuffer());
    }
}

void CudaOutputs::keep(size_t index, int launch, DeviceBuffers& buffers) {
    context_.make_current();
    if (launch == 2) {  // the last timed launch: a copy only for the outputs that differed
        if (timed_.size() < final_.size()) timed_.resize(final_.size());
        if (timed_.at(index).size() == 0 && final_[index].size() != 0) timed_[index] = DeviceBuffer(final_[index].size());
    }
    const DeviceBuffer& copy = launch == 0 ? first_.at(index) : launch == 1 ? final_.at(index) : timed_.at(index);
    if (copy.size() == 0) return;
    KPLAY_CU(driver_api().cuMemcpyDtoDAsync(copy.get(), buffers.address(index), copy.size(), stream_.get()));
    // The next launch's inout inputs are written on the legacy stream: the copy must be done first.
    stream_.synchronize();
    if (launch == 0) kept_first_[index] = true;
}

CheckKernelParams CudaOutputs::params(size_t index, const BufferCheckInput& input) {
    validate_check_input(input);
    const size_t bytes = input.final->count * element_size(input.spec->type);
    if (final_.at(index).size() != bytes)
        throw InputError("Internal: the device kept " + std::to_string(final_[index].size()) + " bytes of '" + input.spec->name +
                         "', but it holds " + std::to_string(bytes));
    context_.make_current();
    Reference& reference = references_[index];
    if (reference.host == input.expected->data() && reference.spec == input.spec) return reference.params;
    const CheckRule rule = check_rule(input);
    {
        // Named references stay on the device for the next run of the same inputs (a kernel-only save).
        const std::string key = input.reference_key.empty() ? std::string() : input.reference_key + "#" + std::to_string(index);
        reference.expected = resident_.get(key, input.expected->data(), input.expected->size());
        reference.bound.reset();
        if (rule.kind == CheckKind::bound)
            reference.bound = resident_.get(key.empty() ? key : key + " bound", input.bound->data(), input.bound->size() * sizeof(double));
        reference.host = input.expected->data();
        reference.spec = input.spec;
        reference.largest.reset();
    }
    CheckKernelParams& p = reference.params;
    p = CheckKernelParams{};
    p.first = kept_first_[index] ? first_[index].get() : 0;
    p.final = final_[index].get();
    p.expected = reference.expected->get();
    p.bound = reference.bound ? reference.bound->get() : 0;
    p.count = input.final->count;
    p.type = static_cast<int>(input.spec->type);
    p.kind = static_cast<int>(rule.kind);
    p.abs = rule.abs;
    p.rel = rule.rel;
    p.ulp = rule.ulp;
    p.bound_scale = rule.bound;
    set_poisons(p, input);
    return p;
}

ElementTally CudaOutputs::tally(size_t index, const BufferCheckInput& input) { return tally_with(index, params(index, input)); }

ElementTally CudaOutputs::timed_tally(size_t index, const BufferCheckInput& input) {
    if (index >= timed_.size() || timed_[index].size() == 0)
        throw InputError("Internal: no timed launch of '" + input.spec->name + "' was kept on the device");
    CheckKernelParams p = params(index, input);
    p.first = timed_[index].get();
    set_poisons(p, input);
    return tally_with(index, p);
}

ElementTally CudaOutputs::tally_with(size_t index, CheckKernelParams p) {
    // As the host pass: relative errors only where |ref| is not tiny next to the buffer's largest value.
    Reference& reference = references_[index];
    if (!reference.largest) reference.largest = kernel_.largest_reference(stream_, p);
    p.rel_floor = 1e-3 * *reference.largest;
    const CheckKernelTally found = kernel_.tally(stream_, p);
    ElementTally tally;
    tally.over_tolerance = static_cast<int64_t>(found.over_tolerance);
    tally.unwritten = static_cast<int64_t>(found.unwritten);
    tally.nan_inf = static_cast<int64_t>(found.nan_inf);
    tally.nondeterministic = static_cast<int64_t>(found.nondeterministic);
    tally.racy = static_cast<int64_t>(found.racy);
    tally.wrong = static_cast<int64_t>(found.wrong);
    tally.first_bad = found.first_bad == ~0ull ? -1 : static_cast<int64_t>(found.first_bad);
    tally.max_abs = std::bit_cast<double>(found.max_abs);
    tally.max_rel = std::bit_cast<double>(found.max_rel);
    tally.max_ratio = std::bit_cast<double>(found.max_ratio);
    tally.diff_squares = found.diff_squares;
    tally.ref_squares = found.ref_squares;
    return tally;
}

OutputView CudaOutputs::view(size_t index, const BufferCheckInput& input, OutputKind kind, int view_side) {
    ViewFrame frame = output_view_frame(input, kind, view_side);
    OutputView& view = frame.view;
    if (kind == OutputKind::scalar) throw InputError("Internal: a scalar's view is made on the host, from its one element");
    const CheckKernelParams p = params(index, input);
    switch (kind) {
        case OutputKind::image: {
            // Bytes are the picture as they are; other types come back rounded to bytes.
            // (The frame leaves `output` empty for bytes at full resolution: the kernel writes none.)
            const ImageViewShape shape{view.channels, view.cols, view.rows, view.step, view.width, view.height, 255.0 / input.image_white};
            kernel_.image_view(stream_, p, shape, view.map, view.output);
            if (view.output.empty()) view.output = final_launch(index);
            break;
        }
        case OutputKind::matrix:
            kernel_.matrix_view(stream_, p, view.rows, view.cols, frame.row_step, frame.col_step, view.width, view.height, view.map);
            break;
        default: {
            Series& s = view.series;
            kernel_.series_view(stream_, p, s.bucket, s.got_min, s.got_max, s.want_min, s.want_max, s.ratio_max);
            break;
        }
    }
    return std::move(view);
}

std::vector<unsigned char> CudaOutputs::first_launch(size_t index) { return downloaded(context_, first_.at(index)); }

std::vector<unsigned char> CudaOutputs::final_launch(size_t index) { return downloaded(context_, final_.at(index)); }

}  // namespace kplay
