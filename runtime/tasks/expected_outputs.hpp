// What a reference produced for one input set: the expected content of every output buffer, and for
// outputs checked against an error bound, that bound per element.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace kplay {

struct ExpectedOutputs {
    std::vector<std::vector<unsigned char>> outputs;  // by buffer index, typed like the buffer; empty for inputs
    std::vector<std::vector<double>> bounds;          // by buffer index; only for CheckKind::bound outputs
    // What they were computed from (the reference and the input set), unique to this content in this
    // process: a GPU keeps its upload under it (ResidentReferences). Empty: unnamed, uploaded each time.
    std::string key;
};

// How far a long reference has got, 0..1 (the window shows it).
using ReferenceProgress = std::function<void(double fraction)>;

}  // namespace kplay
