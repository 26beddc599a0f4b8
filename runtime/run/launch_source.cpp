// The two things a run can launch: the kernel file's kernels (compiled by NVRTC, each kplay-launch line
// planned after the first), and cuBLAS SGEMM on the task's GEMM in their place.
#include "run/launch_source.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "device/constant_fill.hpp"
#include "base/expression.hpp"
#include "kernel_file/include_dirs.hpp"
#include "kernel_file/kernel_types.hpp"
#include "kernel_file/task_sizes.hpp"
#include "values/verdict.hpp"

namespace kplay {

namespace {

std::optional<double> requested_tolerance(const RunRequest& request, const KernelSpec& spec) {
    return request.tolerance ? request.tolerance : spec.tolerance;
}

class KernelFileSource final : public LaunchSource {
public:
    KernelFileSource(const RunRequest& request, const KernelFile& file) : request_(request), file_(file) {}

    std::string name() const override { return file_.spec.kernel; }
    std::string problem() const override { return {}; }
    bool compiles() const override { return true; }
    Stage load_stage(const Device& device) const override { return device.load_stage(); }
    Phase load_phase(const Device& device) const override { return device.emulated() ? Phase::compile : Phase::gpu; }

    LoadedKernels load(Device& device, const CompileResult& compiled) const override {
        const KernelSpec& spec = file_.spec;
        std::vector<std::string> lowered_names;
        for (const auto& name : spec.kernel_expressions()) lowered_names.push_back(compiled.lowered_names.at(name));
        LoadedKernels loaded{spec.kernel_expressions(),
                             device.load({file_.source, request_.kernel_path, spec.kernel_expressions(), lowered_names, &compiled, spec.defines,
                                          constant_names(spec.task), kernel_include_dirs(spec, request_.kernel_path, request_.include_dirs)})};
        // The instances' own parameter types (a template's T as float), which the binding goes by.
        for (size_t i = 0; i < loaded.kernels.size() && i < lowered_names.size(); ++i)
            if (const auto types = instantiated_parameter_types(lowered_names[i])) loaded.kernels[i]->attributes.param_types = *types;
        return loaded;
    }

    SizePlan plan(const TaskData& data, const LoadedKernels& kernels, const Device& device) const override {
        SizePlan plan;
        plan.first = make_plan(file_.spec, data.values, plan_buffers(data), launch_settings_of(request_), device.info(),
                               &kernels.first().attributes);
        plan.following = following_plans(data, plan.first, kernels, device);
        return plan;
    }

    bool checks_further_sizes() const override { return true; }
    std::optional<double> tolerance() const override { return requested_tolerance(request_, file_.spec); }
    std::optional<Ceiling> own_ceiling(double, double) const override { return std::nullopt; }

private:
    // The launches after the first, each planned like it, with the first launch's block and grid in view.
    std::vector<LaunchPlan> following_plans(const TaskData& data, const LaunchPlan& first, const LoadedKernels& kernels,
                                            const Device& device) const {
        NamedValues names = data.values;
        const char* const axes[] = {"x", "y", "z"};
        const int64_t block[] = {first.launch.block.x, first.launch.block.y, first.launch.block.z};
        const int64_t grid[] = {first.launch.grid.x, first.launch.grid.y, first.launch.grid.z};
        for (int a = 0; a < 3; ++a) {
            names[std::string("block_") + axes[a]] = block[a];
            names[std::string("grid_") + axes[a]] = grid[a];
        }
        const std::vector<PlanBuffer> buffers = plan_buffers(data);
        std::vector<LaunchPlan> plans;
        for (const FollowingLaunch& step : file_.spec.following) {
            KernelSpec spec = file_.spec;
            spec.kernel = step.kernel;
            spec.args = step.args;
            spec.block = step.block;
            spec.grid = step.grid;
            spec.smem = step.smem;
            spec.requirement.clear();  // the file's requirement was checked with the first launch
            spec.cluster.clear();      // the annotation's cluster is the first launch's
            spec.cooperative = false;  // and so is its cooperative launch
            try {
                plans.push_back(make_plan(spec, names, buffers, {}, device.info(), &kernels.named(step.kernel).attributes));
            } catch (const InputError& error) {
                throw InputError(request_.kernel_path.filename().string() + ":" + std::to_string(step.line) + ": the launch of " +
                                 step.kernel + ": " + error.what());
            }
        }
        return plans;
    }

    const RunRequest& request_;
    const KernelFile& file_;
};

// The leading number of a check rule, for scaling it (a TF32 baseline rounds 8192x coarser than fp32).
double leading_tolerance(const CheckSpec& check, const NamedValues& values) {
    const std::string& text = check.kind == CheckKind::bound ? check.bound
                              : check.kind == CheckKind::ulp ? check.ulp
                              : !check.rel.empty() && check.text.rfind("rel", 0) == 0 ? check.rel
                                                                                      : check.abs;
    return text.empty() ? 0 : evaluate_real_expr(text, values);
}

// cuBLAS on the task's GEMM (gemm=A,B,C,M,N,K), timed and checked like a kernel, at the main size only.
class LibrarySource final : public LaunchSource {
public:
    LibrarySource(const RunRequest& request, const KernelFile& file) : request_(request), spec_(file.spec) {}

    std::string name() const override {
        if (spec_.task.gemm_types().input != ElementType::f32) return "cuBLAS GemmEx (" + cublas_ceiling_name(spec_.task).substr(7) + ")";
        return std::string("cuBLAS SGEMM (") + (request_.baseline == Baseline::cublas_tf32 ? "TF32)" : "fp32)");
    }
    std::string problem() const override {
        if (spec_.task.cost.gemm.size() == 6) return {};
        return "Task " + spec_.task.name + " names no GEMM for cuBLAS to time (declare ceiling=cublas gemm=A,B,C,M,N,K).";
    }
    bool compiles() const override { return false; }
    Stage load_stage(const Device&) const override { return Stage::load; }
    Phase load_phase(const Device&) const override { return Phase::gpu; }

    LoadedKernels load(Device& device, const CompileResult&) const override {
        LoadedKernels loaded;
        loaded.kernels.push_back(device.library(request_.baseline, spec_.task.gemm_types()));
        return loaded;
    }

    SizePlan plan(const TaskData& data, const LoadedKernels& kernels, const Device& device) const override {
        return {make_plan_with_args(spec_, spec_.task.cost.gemm, data.values, plan_buffers(data), launch_settings_of(request_),
                                    device.info(), &kernels.first().attributes),
                {}};
    }

    bool checks_further_sizes() const override { return false; }

    std::optional<double> tolerance() const override {
        std::optional<double> tolerance = requested_tolerance(request_, spec_);
        if (request_.baseline != Baseline::cublas_tf32) return tolerance;
        // TF32 rounds at 2^-11, not 2^-24: the same rule, 8192 times wider.
        const BufferSpec* primary = spec_.task.primary_output();
        const double leading = tolerance  ? *tolerance
                               : primary ? leading_tolerance(primary->check, size_values(spec_.task, spec_.task.sizes.gpu_default))
                                         : 1;
        return leading * 8192;
    }

    std::optional<Ceiling> own_ceiling(double flops, double median_ms) const override {
        Ceiling ceiling;
        ceiling.kind = CeilingKind::cublas;
        ceiling.name = cublas_ceiling_name(spec_.task);
        ceiling.gflops = flops / (median_ms * 1e-3) / 1e9;
        return ceiling;
    }

private:
    const RunRequest& request_;
    const KernelSpec& spec_;
};

}  // namespace

LoadedKernel& LoadedKernels::named(const std::string& name) const {
    return *kernels.at(static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin()));
}

std::unique_ptr<LaunchSource> choose_launch_source(const RunRequest& request, const KernelFile& file) {
    if (request.baseline != Baseline::none) return std::make_unique<LibrarySource>(request, file);
    return std::make_unique<KernelFileSource>(request, file);
}

LaunchSettings launch_settings_of(const RunRequest& request) {
    return {request.block, request.grid, request.smem, request.arg_overrides};
}

std::vector<PlanBuffer> plan_buffers(const TaskData& data) {
    std::vector<PlanBuffer> buffers;
    for (const HostBuffer& buffer : data.buffers)
        buffers.push_back({buffer.name, buffer.type, static_cast<int64_t>(buffer.count), buffer.shape, buffer.is_output()});
    return buffers;
}

}  // namespace kplay
