// What the window draws for a run's primary output, chosen by the task's output kind: an image beside
// its input and its difference, a matrix's error heatmap, a 1D array against its reference (as a line,
// or as bars: a histogram), or a scalar (its value and the reference's, beside its BufferCheck). The
// arrays travel as shared-memory blobs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_file/task_spec.hpp"

namespace kplay {

// A 1D output and its reference. Up to kMaxSeriesEntries elements travel one per entry (bucket 1,
// the *_max arrays empty); longer ones as min/max envelopes over buckets of elements.
struct Series {
    static constexpr int64_t kMaxSeriesEntries = 1 << 21;
    int64_t count = 0;   // elements in the buffer
    int64_t bucket = 1;  // elements per entry
    std::vector<float> got_min, got_max, want_min, want_max;
    std::vector<float> ratio_max;  // |got - ref| / allowed, the worst in each entry; NaN: never written or not finite
    size_t entries() const { return got_min.size(); }
};

struct OutputView {
    OutputKind kind = OutputKind::series;
    std::string buffer;
    int width = 0, height = 0;          // image: the view's pixels (see step); matrix: the map's size (max-pooled to 1024 a side)
    // image: the image's own height and width in pixels; matrix: its elements before pooling, a row of
    // cols (channels included)
    int64_t rows = 0, cols = 0;
    // image: the image's pixels per view pixel along each side; 1 is full resolution. A larger image is
    // viewed downsampled when the caller asks (RunRequest::view_side): each view pixel is its block's
    // mean colour and the block's difference furthest from zero (NaN wins), so no wrong pixel is
    // hidden; the full resolution is asked for apart (the worker's "view" request).
    int step = 1;
    // A downsampled view's: what a "view" request names to get the full resolution from the worker
    // that made it (empty: the view is whole, or nothing is kept).
    std::string full_view_key;
    int channels = 1;                   // image: 1 (gray) or 3 (interleaved RGB, a buffer of shape h,w,3)
    std::vector<unsigned char> output;  // image: the output pixels, channels interleaved
    // image: out - ref per pixel, the channel furthest off (NaN: never written); matrix: |C-R| / allowed (NaN: not finite)
    std::vector<float> map;
    Series series;
    // The input image the output was made from (tasks with an image input), planar RGB.
    std::vector<unsigned char> input;
    int input_w = 0, input_h = 0;
    std::string input_identity;  // the caller may already have it: then `input` stays empty
    // scalar: the output and the reference's value, printed as their type prints them (no float rounding)
    std::string value, expected;
    bool empty() const { return output.empty() && map.empty() && series.entries() == 0; }
    // Whether there is something to draw: a scalar is drawn from its BufferCheck alone, so it needs no arrays.
    bool drawable() const { return kind == OutputKind::scalar ? !buffer.empty() : !empty(); }
};

}  // namespace kplay
