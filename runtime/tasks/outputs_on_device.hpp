// A run's outputs as they stay where the device computed them (a GPU's memory): the two checked
// launches' copies of each output, and the device's own pass over them. The check's tally and the
// window's view are computed there, so a save's check is no pass over every element on the CPU, and only
// those cross to the host: the outputs themselves only when a verdict names an element or a view shows
// every byte. buffer_check's host pass stays the reference implementation: tests hold the
// two to the same answers (tests/gpu_output_check_test.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "tasks/buffer_check.hpp"
#include "tasks/element_tally.hpp"

namespace kplay {

class OutputsOnDevice {
public:
    virtual ~OutputsOnDevice() = default;
    // Buffer `index`'s elements against `input`'s reference and bound (uploaded for the pass) by its rule.
    // input.first and input.final give the poisons, type and shape; their bytes are not read.
    virtual ElementTally tally(size_t index, const BufferCheckInput& input) = 0;
    // The same tally with the last timed launch's copy of buffer `index` in the first checked launch's
    // place (input.first describes it): the replay check's, made where the output lies.
    virtual ElementTally timed_tally(size_t index, const BufferCheckInput& input) = 0;
    // The view make_output_view makes (image, matrix, series or bars), computed on the device.
    virtual OutputView view(size_t index, const BufferCheckInput& input, OutputKind kind, int view_side) = 0;
    // The first and the second checked launch's bytes of buffer `index`: read back only to name a
    // failure or a single value, and for a view of bytes at full resolution (the whole picture).
    virtual std::vector<unsigned char> first_launch(size_t index) = 0;
    virtual std::vector<unsigned char> final_launch(size_t index) = 0;
};

}  // namespace kplay
