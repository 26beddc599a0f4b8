// What a sweep runs: one kernel file, its space, the device and the size every point is timed at; and
// for each point the request that runs it, whether the launch it asks for can run at all, and what it
// would write into the file's annotation.
//
// Everything here is pure and runs in the client before anything compiles: a point that breaks a
// device limit or the kernel's `requires` (2048 threads, too much shared memory) is pruned with that
// limit named, using the same planning the worker uses (plan/plan.hpp). Limits that need the
// compiled kernel (its registers) are found by the point's run and reported as pruned too.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/expression.hpp"
#include "values/device_values.hpp"
#include "values/run_request.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "sweep/annotation_edit.hpp"
#include "sweep/sweep_space.hpp"

namespace kplay {

struct SweepTarget {
    std::filesystem::path file;
    std::string source;  // the text every point compiles (a later save does not change a sweep in flight)
    KernelSpec spec;
    SweepSpace space;    // resolved against the spec
    DeviceInfo device;   // the device the points run on (the emulated device's limits when emulated)
    bool emulated = false;
    int ordinal = 0;
    std::vector<int64_t> sizes;  // the size points are timed at: the task's bench size unless given
    std::string sizes_text;      // "4096x4096x4096"
};

// Resolves the spec and the space and picks the device and the size. `size_text` empty: the task's
// bench size for that device. Throws InputError: the spec does not resolve, a parameter names nothing,
// the size does not fit the task, or there is no device to run on.
SweepTarget make_sweep_target(const std::filesystem::path& file, std::string source, SweepSpace space, const DeviceQuery& devices,
                              bool emulate, int ordinal, const std::string& size_text);

// The names a restriction may use: the point's parameters, the sizes it runs at (and derived values),
// the annotation's literals and integer defines as the point sets them, and the device's limits:
// threads_max (threads per block), smem_max (shared memory per block with opt-in), smem_default (without),
// regs_max (registers per block), sms, warp_size.
NamedValues sweep_names(const SweepTarget& target, const SweepPoint& point);

// The sizes the point runs at (a size parameter replaces its size).
std::vector<int64_t> point_sizes(const SweepTarget& target, const SweepPoint& point);

// A point's launch as the annotation gives it there: the spec with the point's defines over the
// annotation's, the sizes it runs at, the swept literals and defines, the names the annotation's
// expressions see, and the whole block when a block axis is swept. Worked out once per point (pruning,
// the run's request and the annotation's edit read it); an expression of the annotation that does not
// evaluate at the point leaves `names` and `block` unset and says why in `problem`. Throws only for a
// point value the parser should have refused (std::stoll).
struct PointLaunch {
    SweepPoint point;
    KernelSpec spec;
    std::map<std::string, std::string> literals;
    std::vector<std::pair<std::string, std::string>> defines;
    std::vector<int64_t> sizes;
    NamedValues names;
    std::optional<std::vector<int64_t>> block;
    std::string problem;
};
PointLaunch point_launch(const SweepTarget& target, const SweepPoint& point);

// Why the point cannot run, before compiling: a restriction, the kernel's `requires`, or a device
// limit, as one line; nullopt when it may run. Never throws: an expression that cannot be evaluated
// at the point is its reason.
std::optional<std::string> prune_before_compile(const SweepTarget& target, const PointLaunch& launch);
std::optional<std::string> prune_before_compile(const SweepTarget& target, const SweepPoint& point);

// The limits a launch breaks (LaunchRejected::problems, RunReport::launch_problems) as one line.
std::string pruned_reason(const std::vector<std::string>& problems);

// The run of one point: `base` (warm-ups, repeats, flags) with the point's block, literals, defines and
// sizes, on the target's source and device, checked at the task's test sizes.
RunRequest point_request(const RunRequest& base, const SweepTarget& target, const PointLaunch& launch);
RunRequest point_request(const RunRequest& base, const SweepTarget& target, const SweepPoint& point);

// What "apply" writes into the annotation for this point: the block when a block axis is swept (its
// other axes as the annotation gives them at the point), the swept literals and defines. Sizes are not
// part of the annotation; `skipped` names them.
AnnotationValues annotation_values(const SweepTarget& target, const SweepPoint& point, std::vector<std::string>* skipped = nullptr);

// The edit that writes `point` into the file as it is on disk now, and those bytes (for
// write_annotation_edit). Throws InputError when the file cannot be read, when it changed since the
// sweep read it ("NAME changed since the sweep began; sweep it again before writing."), or when the
// annotation cannot hold the point. `skipped` names the swept sizes, which it does not hold.
AnnotationEdit point_edit(const SweepTarget& target, const SweepPoint& point, std::string& file_bytes,
                          std::vector<std::string>* skipped = nullptr);

}  // namespace kplay
