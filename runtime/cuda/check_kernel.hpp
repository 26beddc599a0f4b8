// The GPU's pass over an output against its reference, the one tasks/buffer_check makes on the host:
// each element judged by the buffer's rule (exact, tolerance, ulp, bound) across both checked launches
// (never written, different between them), summed into one tally; and the window's views (an image's
// difference per pixel, a matrix's pooled error map, a series' envelopes). Only the tally and the views
// are read back. The element types and rule kinds are kernel_file's enums, by their numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "values/device_values.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/module.hpp"

namespace kplay {

// What the kernels read: device addresses and the rule's numbers. Mirrors `Params` in the kernel source.
struct CheckKernelParams {
    CUdeviceptr first = 0;     // the first checked launch's copy; 0: none (no unwritten or nondeterministic)
    CUdeviceptr final = 0;     // the second's
    CUdeviceptr expected = 0;  // the reference, same type and count
    CUdeviceptr bound = 0;     // doubles, one per element (rule kind bound)
    unsigned long long count = 0;
    int type = 0;  // ElementType's number
    int kind = 0;  // CheckKind's number
    double abs = 0, rel = 0, ulp = 0, bound_scale = 1;
    double rel_floor = 0;  // relative errors only where |ref| is above it
    unsigned long long poison[2][2] = {};  // by launch and element parity: what a never-written element holds
};

// Mirrors `Tally` in the kernel source; maxima are the bits of non-negative doubles (atomicMax on them).
struct CheckKernelTally {
    unsigned long long over_tolerance = 0, unwritten = 0, nan_inf = 0, nondeterministic = 0, racy = 0, wrong = 0;
    unsigned long long first_bad = ~0ull;
    unsigned long long max_abs = 0, max_rel = 0, max_ratio = 0;
    double diff_squares = 0, ref_squares = 0;
};

// An image view's frame (OutputView's image fields): the image's size, and the view's.
struct ImageViewShape {
    int channels = 1;
    int64_t image_w = 0, image_h = 0;
    int step = 1, view_w = 0, view_h = 0;
    double to_byte = 1;  // a value times this is its byte (255 for a float image in 0..1)
};

class CheckKernel {
public:
    // Compiles with NVRTC for this device (needs the device's context current).
    explicit CheckKernel(const DeviceInfo& device);

    // The largest finite |reference| (for params.rel_floor), after the work on `stream`.
    double largest_reference(const Stream& stream, const CheckKernelParams& params) const;
    CheckKernelTally tally(const Stream& stream, const CheckKernelParams& params) const;
    // An image of `channels` interleaved channels, viewed at one pixel per step x step block: per view
    // pixel the block's difference furthest from zero (NaN: never written) into `map`, and into `bytes`
    // (when sized) each channel's mean of the bytes the block's pixels round to.
    void image_view(const Stream& stream, const CheckKernelParams& params, const ImageViewShape& shape, std::vector<float>& map,
                    std::vector<unsigned char>& bytes) const;
    // rows x cols elements max-pooled by row_step x col_step into `map` (height x width) of error ratios.
    void matrix_view(const Stream& stream, const CheckKernelParams& params, int64_t rows, int64_t cols, int64_t row_step,
                     int64_t col_step, int width, int height, std::vector<float>& map) const;
    // Entries of `bucket` elements: got and reference minima (and maxima when bucket > 1) and the worst ratio.
    void series_view(const Stream& stream, const CheckKernelParams& params, int64_t bucket, std::vector<float>& got_min,
                     std::vector<float>& got_max, std::vector<float>& want_min, std::vector<float>& want_max,
                     std::vector<float>& ratio_max) const;

private:
    unsigned blocks_for(unsigned long long items) const;

    Module module_;
    KernelFunction largest_, tally_, image_, matrix_, series_;
    DeviceBuffer result_;  // the tally, or the largest reference
    int sms_ = 1;
};

}  // namespace kplay
