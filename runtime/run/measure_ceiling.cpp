// Measuring (or finding kept) the ceiling of a run.
#include "run/measure_ceiling.hpp"

#include "cuda/bandwidth_ceiling.hpp"
#include "kernel_file/task_spec.hpp"
#include "values/verdict.hpp"

namespace kplay {

namespace {

Ceiling bandwidth_ceiling(const SizeContext& context, CudaDevice& gpu, CeilingKind kind) {
    const bool remeasure = context.request.remeasure_ceiling;
    auto& cached = gpu.ceilings();
    const std::string key = spec_name(kind);
    auto found = cached.find(key);
    if (found == cached.end() || (remeasure && found->second.cached)) {
        gpu.make_current();
        const std::filesystem::path& cache_dir = context.services.config.cache_dir;
        const Ceiling measured = kind == CeilingKind::copy ? device_copy_ceiling(gpu.info(), cache_dir, remeasure)
                                                           : device_read_ceiling(gpu.info(), cache_dir, remeasure);
        found = cached.insert_or_assign(key, measured).first;
    }
    return found->second;
}

// cuBLAS SGEMM on the main size's inputs, timed like a kernel.
Ceiling measure_cublas(const SizeContext& context, const SizeRun& main, double flops) {
    Ceiling ceiling;
    ceiling.kind = CeilingKind::cublas;
    const KernelSpec& spec = context.file.spec;
    ceiling.name = cublas_ceiling_name(spec.task);
    const std::unique_ptr<LoadedKernel> library = context.device.library(Baseline::cublas_fp32, spec.task.gemm_types());
    const TaskData& data = *main.data;
    const LaunchPlan plan =
        make_plan_with_args(spec, spec.task.cost.gemm, data.values, plan_buffers(data), {}, context.device.info(), &library->attributes);
    RunnerSettings settings;
    settings.warmup = 2;
    settings.repeat = 10;
    settings.flush_l2 = context.request.flush_l2;
    const RunnerResult timed = run_launches(context.device, {{library.get(), &plan, "cuBLAS"}}, data, settings);
    ceiling.ms = timed.timing.median;
    if (ceiling.ms > 0) ceiling.gflops = flops / (ceiling.ms * 1e-3) / 1e9;
    return ceiling;
}

}  // namespace

Ceiling measure_ceiling(const SizeContext& context, CudaDevice* gpu, const SizeRun& main, double flops) {
    if (const auto own = context.source.own_ceiling(flops, main.launches->timing.median)) return *own;
    Ceiling ceiling;
    ceiling.kind = context.file.spec.task.cost.ceiling;
    if (!gpu || !context.request.measure_ceiling || ceiling.kind == CeilingKind::none) return ceiling;
    if (ceiling.kind == CeilingKind::copy || ceiling.kind == CeilingKind::read_only) return bandwidth_ceiling(context, *gpu, ceiling.kind);
    ceiling.name = cublas_ceiling_name(context.file.spec.task);
    if (context.request.defer_library_ceiling) {
        ceiling.deferred = true;
        return ceiling;
    }
    auto& cached = gpu->ceilings();
    const std::string key = "cublas:" + main.data->sizes;
    if (!cached.count(key)) cached[key] = measure_cublas(context, main, flops);
    return cached[key];
}

}  // namespace kplay
