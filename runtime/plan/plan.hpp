// The plan of one launch: spec + sizes + settings + device -> a validated launch and bound arguments.
//
// Pure: it evaluates the spec's expressions over the run's values (sizes, derived values, literal
// arguments, integer -D defines, the device's SM count), picks the auto grid over the task's extent, checks the kernel's
// `requires`, validates the launch against the device's limits and the kernel's resources, and binds
// every argument (buffers by index). Anything wrong is an InputError naming the problem.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "base/expression.hpp"
#include "values/device_values.hpp"
#include "values/kernel_resources.hpp"
#include "values/launch_config.hpp"
#include "values/run_report.hpp"
#include "plan/argument_binding.hpp"
#include "plan/tensor_map_plan.hpp"
#include "plan/texture_plan.hpp"
#include "kernel_file/kernel_spec.hpp"

namespace kplay {

// What the user changed for this run; unset fields follow the spec.
struct LaunchSettings {
    std::optional<std::vector<int64_t>> block;
    std::optional<std::vector<int64_t>> grid;  // empty vector = auto
    std::optional<int64_t> smem;
    std::map<std::string, std::string> arg_overrides;
};

// A task buffer as the plan sees it: its name, type and extent.
struct PlanBuffer {
    std::string name;
    ElementType type = ElementType::f32;
    int64_t count = 0;
    std::vector<int64_t> shape;  // {rows, cols} or {count}
    bool is_output = false;
};

struct LaunchPlan {
    LaunchConfig launch;
    Coverage coverage;
    std::array<int64_t, 3> extent{1, 1, 1};
    NamedValues names;  // everything the expressions saw: values, literals, sms
    std::vector<BoundArgument> arguments;
    std::vector<TensorMapPlan> tensor_maps;  // the arguments that are TMA descriptors
    std::vector<TexturePlan> textures;       // the arguments that are texture or surface objects
};

// Arguments that could not be bound (plan/argument_binding.hpp's messages), with the launch the plan had
// come to, so a report of the failure still shows the sizes and the grid it was for.
class ArgumentsRejected : public InputError {
public:
    ArgumentsRejected(const std::string& message, LaunchPlan plan) : InputError(message), plan_(std::move(plan)) {}
    const LaunchPlan& plan() const { return plan_; }

private:
    LaunchPlan plan_;
};

// The elements the auto grid covers: the task's declared extent, else the largest buffer (1D) or the
// primary output's shape, columns then rows (2D).
std::array<int64_t, 3> launch_extent(const TaskSpec& task, int launch_dims, const NamedValues& values,
                                     const std::vector<PlanBuffer>& buffers);

// Later definitions of the same name win, so request defines override the annotation's.
std::vector<std::pair<std::string, std::string>> merge_defines(std::vector<std::pair<std::string, std::string>> base,
                                                                const std::vector<std::pair<std::string, std::string>>& extra);

// The defines whose value is a decimal integer (-DTILE=64), by name, the later definition winning: the
// annotation's expressions see them, so `block=(BM/TM)*(BN/TN) grid=cdiv(N,BN),cdiv(M,BM)` follows a
// tile size given as a define (and a sweep over -DTM changes the launch with the kernel).
NamedValues integer_defines(const std::vector<std::pair<std::string, std::string>>& defines);

// `names` with block_x, block_y and block_z: the block this launch will have (the settings', else the
// spec's), so a `requires` may name it (requires=block_x==256 for a kernel whose shared arrays assume it).
NamedValues with_block_names(const KernelSpec& spec, const LaunchSettings& settings, NamedValues names);

// Whether the kernel's `requires` holds at these values; the reason when it does not.
std::optional<std::string> requirement_broken(const KernelSpec& spec, const NamedValues& values);

// `function` null: the device's limits only (before a kernel is loaded), and no binding.
LaunchPlan make_plan(const KernelSpec& spec, const NamedValues& values, const std::vector<PlanBuffer>& buffers,
                     const LaunchSettings& settings, const DeviceInfo& device, const FunctionAttributes* function);

// The same plan for other arguments (a library standing in for the kernel binds its own list).
LaunchPlan make_plan_with_args(const KernelSpec& spec, const std::vector<std::string>& args, const NamedValues& values,
                               const std::vector<PlanBuffer>& buffers, const LaunchSettings& settings, const DeviceInfo& device,
                               const FunctionAttributes* function);

}  // namespace kplay
