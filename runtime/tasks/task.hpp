// A task says what a kernel computes and how kplay feeds and checks it.
//
// It names its values (grayscale: in, out, w, h, n; matmul: a, b, c, M, N, K), makes or loads inputs,
// gives the launch extent for the auto grid, counts bytes and flops, and checks outputs against a CPU
// reference that it computes once per input set. A new task is one new file plus a line in
// task_registry.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/int_expr.hpp"

namespace kplay {

enum class ElementType { u8, f32 };

size_t element_size(ElementType type);
const char* element_type_name(ElementType type);

// One array a kernel reads or writes, on the host side.
struct HostBuffer {
    std::string name;
    ElementType type = ElementType::u8;
    size_t count = 0;
    bool is_output = false;
    std::vector<unsigned char> data;  // inputs: their content; outputs: filled after a run
    // Two poison patterns, written before alternate launches, so an unwritten element is caught even when
    // its right value happens to equal one of them. For floats both are NaNs.
    std::array<uint32_t, 2> poison{0, 0};
    size_t bytes() const { return count * element_size(type); }
};

// Everything one run needs from the task side: named values and buffers.
struct TaskData {
    std::string task;
    NamedValues values;
    std::vector<HostBuffer> buffers;
    std::string identity;     // names the input set (content hash or seed + sizes); keys the reference cache
    std::string description;  // for the user, e.g. "puppy.jpg, 1066x1600"
    HostBuffer* find(const std::string& name);
    const HostBuffer* find(const std::string& name) const;
};

// How the user asked for inputs; each task reads the fields that concern it.
struct InputRequest {
    std::string image_path;  // grayscale: PNG/JPEG; empty = the built-in image
    std::string size;        // grayscale "WxH" (built-in image at that size), matmul "MxNxK" or "N"
    uint64_t seed = 1;
};

struct Metric {
    std::string name;
    double value = 0;
};

// The verdict of one check, with named metrics in a fixed order (the JSON and the window show them).
struct CheckReport {
    bool passed = false;
    std::string summary;          // one line for the user
    std::vector<Metric> metrics;  // e.g. max_abs_diff, over_tolerance, unwritten
    std::string first_bad;        // where the first wrong element is, in task terms
    double tolerance = 0;
    double reference_ms = 0;
    bool reference_cached = false;
    // For the window: grayscale diff map (out - ref, NaN = never written) / matmul |C-R| over the allowed
    // error (max-pooled; NaN = not finite), row-major map_w x map_h.
    std::vector<float> map;
    int map_w = 0, map_h = 0;
    double metric(const std::string& name) const;
};

class Task {
public:
    virtual ~Task() = default;
    virtual std::string name() const = 0;
    virtual std::string summary() const = 0;
    // The value and buffer names an annotation may use, for messages.
    virtual std::vector<std::string> value_names() const = 0;
    // The canonical binding for a kernel with this many parameters; empty when it cannot be inferred.
    virtual std::vector<std::string> canonical_args(size_t param_count) const = 0;
    // 1 or 2 for a kernel with this many parameters.
    virtual int default_launch_dims(size_t param_count) const = 0;
    virtual std::vector<std::string> default_block(int launch_dims) const = 0;
    virtual TaskData make_inputs(const InputRequest& request) const = 0;
    // Elements per dimension the auto grid must cover (1D: n; 2D: columns, rows).
    virtual std::array<int64_t, 3> extent(const TaskData& data, int launch_dims) const = 0;
    // Fewest bytes the task must move through device memory, and its arithmetic.
    virtual double bytes_moved(const TaskData& data) const = 0;
    virtual double flops(const TaskData& data) const = 0;
    // Compares outputs (from the last two launches, poisoned differently) with the CPU reference.
    // tolerance < 0: the task's default.
    virtual CheckReport check(const TaskData& data, const std::vector<HostBuffer>& previous_outputs,
                              double tolerance, bool keep_map) const = 0;
};

}  // namespace kplay
