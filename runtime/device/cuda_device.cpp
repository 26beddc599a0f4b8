// The GPU side of a run: modules, buffers, poison fills, timed launches and cuBLAS, on one stream.
#include "device/cuda_device.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/error.hpp"
#include "cuda/cublas_baseline.hpp"
#include "cuda/device_query.hpp"
#include "cuda/driver.hpp"
#include "cuda/module.hpp"
#include "device/constant_fill.hpp"
#include "device/cuda_images.hpp"
#include "device/cuda_outputs.hpp"

namespace kplay {

namespace {

class CudaKernel final : public LoadedKernel {
public:
    std::shared_ptr<const Module> module;  // shared by the kernels of one file
    KernelFunction function;
};

// cuBLAS's GEMM taking the arguments a kernel would: three buffers, then M, N, K.
class CublasKernel final : public LoadedKernel {
public:
    CublasKernel(bool tf32, GemmTypes types) : tf32(tf32), types(types) {
        attributes.params = {{0, 8}, {8, 8}, {16, 8}, {24, 4}, {28, 4}, {32, 4}};
    }
    bool tf32;
    GemmTypes types;
};

CublasType cublas_type(ElementType type) {
    switch (type) {
        case ElementType::f16: return CublasType::f16;
        case ElementType::bf16: return CublasType::bf16;
        default: return CublasType::f32;
    }
}

// 64 KiB after each buffer: more than a missing bounds check's last block writes past the end (1024
// threads of 16-byte stores); writes farther out are as likely to fault. KPLAY_GUARD_ZONE=0 leaves it
// out: compute-sanitizer judges a write by the allocation, so the fault finder's re-run under it
// allocates each buffer at its own size.
size_t guard_zone_bytes() {
    static const size_t bytes = [] {
        const char* setting = std::getenv("KPLAY_GUARD_ZONE");
        return setting && std::string(setting) == "0" ? size_t{0} : size_t{64} << 10;
    }();
    return bytes;
}

class CudaBuffers final : public DeviceBuffers {
public:
    CudaBuffers(const std::vector<BufferShape>& shapes, const Stream& stream, const FingerprintKernel& fingerprints)
        : stream_(stream), fingerprints_(fingerprints) {
        for (const auto& shape : shapes) {
            buffers_.emplace_back(shape.bytes, guard_zone_bytes());
            buffers_.back().arm_guard(stream_);
            element_sizes_.push_back(element_size(shape.type));
        }
    }
    size_t overrun(size_t index) override { return buffers_.at(index).guard_overrun(stream_); }
    uint64_t address(size_t index) const override { return buffers_.at(index).get(); }
    void write(size_t index, const void* data, size_t bytes) override {
        buffers_.at(index).upload(data, bytes);
        // The copy is ordered on the legacy stream; launches go to a non-blocking one.
        KPLAY_CU(driver_api().cuCtxSynchronize());
    }
    void read(size_t index, void* data, size_t bytes) override {
        stream_.synchronize();
        buffers_.at(index).download(data, bytes);
    }
    uint64_t fingerprint(size_t index) override {
        const DeviceBuffer& buffer = buffers_.at(index);
        return fingerprints_.fingerprint(stream_, buffer.get(), buffer.size());
    }
    void fill(size_t index, uint32_t word) override {
        const DeviceBuffer& buffer = buffers_.at(index);
        switch (element_sizes_.at(index)) {
            case 1: buffer.fill_bytes(static_cast<unsigned char>(word & 0xFF), stream_); break;
            case 2: buffer.fill_halves(static_cast<unsigned short>(word & 0xFFFF), stream_); break;
            default: buffer.fill_words(word, stream_); break;
        }
    }

private:
    const Stream& stream_;
    const FingerprintKernel& fingerprints_;
    std::vector<DeviceBuffer> buffers_;
    std::vector<size_t> element_sizes_;
};

// cuLaunchKernelEx's configuration for a launch with a thread block cluster, or a cooperative one
// (every block resident at once, as cuLaunchCooperativeKernel launches them), or both.
struct ExtendedLaunch {
    CUlaunchAttribute attributes[2]{};
    CUlaunchConfig config{};
    ExtendedLaunch(const LaunchConfig& launch, CUstream stream) {
        config.gridDimX = static_cast<unsigned>(launch.grid.x);
        config.gridDimY = static_cast<unsigned>(launch.grid.y);
        config.gridDimZ = static_cast<unsigned>(launch.grid.z);
        config.blockDimX = static_cast<unsigned>(launch.block.x);
        config.blockDimY = static_cast<unsigned>(launch.block.y);
        config.blockDimZ = static_cast<unsigned>(launch.block.z);
        config.sharedMemBytes = static_cast<unsigned>(launch.dynamic_smem);
        config.hStream = stream;
        config.attrs = attributes;
        if (launch.clustered()) {
            CUlaunchAttribute& cluster = attributes[config.numAttrs++];
            cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            cluster.value.clusterDim.x = static_cast<unsigned>(launch.cluster.x);
            cluster.value.clusterDim.y = static_cast<unsigned>(launch.cluster.y);
            cluster.value.clusterDim.z = static_cast<unsigned>(launch.cluster.z);
        }
        if (launch.cooperative) {
            CUlaunchAttribute& cooperative = attributes[config.numAttrs++];
            cooperative.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
            cooperative.value.cooperative = 1;
        }
    }
    ExtendedLaunch(const ExtendedLaunch&) = delete;  // config points at attributes
    ExtendedLaunch& operator=(const ExtendedLaunch&) = delete;
};

CUtensorMapDataType tensor_map_type(const TensorMapPlan& plan) {
    if (plan.element == TmaElement::tf32) return CU_TENSOR_MAP_DATA_TYPE_TFLOAT32;
    switch (plan.type) {
        case ElementType::u8: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
        case ElementType::i32: return CU_TENSOR_MAP_DATA_TYPE_INT32;
        case ElementType::u32: return CU_TENSOR_MAP_DATA_TYPE_UINT32;
        case ElementType::f16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
        case ElementType::f64: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
        case ElementType::i64: return CU_TENSOR_MAP_DATA_TYPE_INT64;
        case ElementType::bf16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
        // The tensor map has no signed byte or fp8 type: a byte copies the same bits.
        case ElementType::i8:
        case ElementType::fp8_e4m3:
        case ElementType::fp8_e5m2: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
        case ElementType::f32: break;
    }
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}

CUtensorMapSwizzle tensor_map_swizzle(TmaSwizzle swizzle) {
    switch (swizzle) {
        case TmaSwizzle::bytes32: return CU_TENSOR_MAP_SWIZZLE_32B;
        case TmaSwizzle::bytes64: return CU_TENSOR_MAP_SWIZZLE_64B;
        case TmaSwizzle::bytes128: return CU_TENSOR_MAP_SWIZZLE_128B;
        case TmaSwizzle::none: break;
    }
    return CU_TENSOR_MAP_SWIZZLE_NONE;
}

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

template <typename T>
T argument(const std::vector<void*>& args, size_t index) {
    T value;
    std::memcpy(&value, args.at(index), sizeof value);
    return value;
}

}  // namespace

CudaDevice::CudaDevice(int ordinal)
    : info_(describe_device(ordinal)),
      context_(ordinal),
      stream_(Stream::create()),
      start_(Event::create()),
      stop_(Event::create()),
      // A quarter of the GPU's memory, at most 16 GiB: the runs' own allocations must still fit beside it.
      resident_(static_cast<size_t>(std::min<int64_t>(info_.total_memory / 4, int64_t{16} << 30))),
      references_(static_cast<size_t>(std::min<int64_t>(info_.total_memory / 16, int64_t{4} << 30))) {}

std::vector<std::unique_ptr<LoadedKernel>> CudaDevice::load(const KernelSource& source) {
    make_current();
    const auto start = std::chrono::steady_clock::now();
    const auto module = std::make_shared<const Module>(Module::load(source.compiled->binary));
    std::vector<std::unique_ptr<LoadedKernel>> kernels;
    for (const std::string& lowered : source.lowered_names) {
        auto kernel = std::make_unique<CudaKernel>();
        kernel->module = module;
        kernel->function = module->function(lowered);
        kernel->attributes = kernel->function.attributes();
        kernels.push_back(std::move(kernel));
    }
    if (!kernels.empty()) kernels.front()->load_ms = ms_since(start);
    return kernels;
}

std::unique_ptr<LoadedKernel> CudaDevice::library(Baseline baseline, GemmTypes types) {
    if (!CublasLibrary::get().available()) throw InputError(CublasLibrary::get().why());
    return std::make_unique<CublasKernel>(baseline == Baseline::cublas_tf32, types);
}

void CudaDevice::prepare(LoadedKernel& kernel, const LaunchConfig& launch) {
    auto* cuda = dynamic_cast<CudaKernel*>(&kernel);
    if (!cuda) return;
    if (launch.dynamic_smem > info_.limits.max_smem_per_block) cuda->function.allow_dynamic_smem(static_cast<int>(launch.dynamic_smem));
    if (!launch.clustered()) return;
    // A cluster's blocks run at once on one GPU processing cluster: with too much shared memory or too
    // many threads per block, no cluster of this size fits, and the launch would fail without saying why.
    const ExtendedLaunch cluster(launch, stream_.get());
    int clusters = 0;
    KPLAY_CU(driver_api().cuOccupancyMaxActiveClusters(&clusters, cuda->function.get(), &cluster.config));
    if (clusters < 1)
        throw InputError("cluster=" + launch.cluster.text() + ": no cluster of " + std::to_string(launch.cluster.volume()) + " blocks of " +
                         std::to_string(launch.block.volume()) + " threads and " + std::to_string(launch.dynamic_smem) +
                         " bytes of dynamic shared memory fits on this GPU at once; use fewer blocks per cluster or less shared memory.");
}

void CudaDevice::write_constant(LoadedKernel& kernel, const std::string& name, const void* data, size_t bytes) {
    auto* cuda = dynamic_cast<CudaKernel*>(&kernel);
    CUdeviceptr address = 0;
    size_t size = 0;
    if (!cuda || !cuda->module || !cuda->module->global(name, &address, &size))
        throw InputError("kplay-constant " + name + ": the compiled module has no __constant__ array '" + name +
                         "': declare it at namespace scope, outside any namespace and not static (`__constant__ float " + name + "[...];`).");
    if (size != bytes) throw InputError(constant_size_problem(name, size, bytes));
    context_.make_current();
    KPLAY_CU(driver_api().cuMemcpyHtoD(address, data, bytes));
}

TensorMapBytes CudaDevice::encode_tensor_map(const TensorMapPlan& plan, uint64_t address) {
    static_assert(sizeof(CUtensorMap) == sizeof(TensorMapBytes));
    CUtensorMap map{};
    std::array<cuuint32_t, 5> element_strides{1, 1, 1, 1, 1};
    std::array<cuuint64_t, 5> dims{};
    std::array<cuuint64_t, 4> strides{};
    std::array<cuuint32_t, 5> box{};
    for (size_t d = 0; d < 5; ++d) {
        dims[d] = plan.dims[d];
        box[d] = plan.box[d];
        if (d < 4) strides[d] = plan.strides[d];
    }
    const CUresult result = driver_api().cuTensorMapEncodeTiled(
        &map, tensor_map_type(plan), static_cast<cuuint32_t>(plan.rank), reinterpret_cast<void*>(address), dims.data(), strides.data(), box.data(),
        element_strides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE, tensor_map_swizzle(plan.swizzle), CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS) {
        const char* name = nullptr;
        driver_api().cuGetErrorName(result, &name);
        throw InputError("kplay-tma " + plan.name + ": the driver refused the descriptor (" + (name ? name : "an error") + ") for " + plan.text() + ".");
    }
    TensorMapBytes bytes;
    std::memcpy(bytes.bytes, &map, sizeof map);
    return bytes;
}

std::unique_ptr<BoundImage> CudaDevice::bind_image(const TexturePlan& plan, DeviceBuffers& buffers) {
    make_current();
    CUdevice device = 0;
    KPLAY_CU(driver_api().cuDeviceGet(&device, info_.ordinal));
    int base = 0, pitch = 0;
    KPLAY_CU(driver_api().cuDeviceGetAttribute(&base, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, device));
    KPLAY_CU(driver_api().cuDeviceGetAttribute(&pitch, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, device));
    const TextureAlignment alignment{static_cast<uint64_t>(std::max(base, 1)), static_cast<uint64_t>(std::max(pitch, 1))};
    return bind_cuda_image(plan, buffers.address(static_cast<size_t>(plan.buffer)), stream_, alignment);
}

Occupancy CudaDevice::occupancy(const LoadedKernel& kernel, const LaunchConfig& launch) {
    Occupancy occupancy;
    const auto* cuda = dynamic_cast<const CudaKernel*>(&kernel);
    if (!cuda) return occupancy;
    const int threads = static_cast<int>(launch.block.volume());
    occupancy.blocks_per_sm = cuda->function.max_active_blocks_per_sm(threads, static_cast<size_t>(launch.dynamic_smem));
    const int warps = (threads + info_.limits.warp_size - 1) / info_.limits.warp_size;
    if (info_.max_threads_per_sm > 0)
        occupancy.fraction = static_cast<double>(occupancy.blocks_per_sm * warps * info_.limits.warp_size) / info_.max_threads_per_sm;
    return occupancy;
}

std::shared_ptr<CheckedOutputs> CudaDevice::checked_outputs(const std::vector<BufferShape>& shapes) {
    if (!check_) check_ = std::make_unique<CheckKernel>(info_);
    return std::make_shared<CudaOutputs>(shapes, context_, stream_, *check_, references_);
}

std::unique_ptr<DeviceBuffers> CudaDevice::allocate(const std::vector<BufferShape>& buffers, GuardEdge) {
    make_current();
    if (!fingerprint_) fingerprint_ = std::make_unique<FingerprintKernel>(info_);
    return std::make_unique<CudaBuffers>(buffers, stream_, *fingerprint_);
}

std::string CudaDevice::cooperative_refusal(const LoadedKernel& kernel, const LaunchConfig& launch) {
    const Occupancy occupancy = this->occupancy(kernel, launch);
    const int64_t resident = static_cast<int64_t>(occupancy.blocks_per_sm) * info_.sm_count;
    const int64_t blocks = launch.grid.volume();
    if (blocks <= resident) return {};
    return "A cooperative launch (this_grid().sync()) keeps every block of its grid resident at once: this GPU holds " +
           std::to_string(occupancy.blocks_per_sm) + " block(s) of " + std::to_string(launch.block.volume()) + " threads and " +
           std::to_string(launch.dynamic_smem) + " bytes of dynamic shared memory per SM (its registers and shared memory allow no more) x " +
           std::to_string(info_.sm_count) + " SMs = " + std::to_string(resident) + " blocks, and grid " + launch.grid.text() + " has " +
           std::to_string(blocks) + ". Launch at most " + std::to_string(resident) +
           " blocks (grid=sms*" + std::to_string(occupancy.blocks_per_sm) + " with a grid-stride loop), or use fewer registers or less shared memory.";
}

LaunchOutcome CudaDevice::launch(const std::vector<DeviceLaunch>& launches, DeviceBuffers&) {
    // Back to back on one stream between two events: the sequence is timed as one, gaps included.
    start_.record(stream_);
    for (const DeviceLaunch& item : launches) {
        const LaunchConfig& launch = *item.launch;
        std::vector<void*>& args = *item.args;
        if (auto* library = dynamic_cast<CublasKernel*>(item.kernel)) {
            const int m = argument<int32_t>(args, 3), n = argument<int32_t>(args, 4), k = argument<int32_t>(args, 5);
            const CUdeviceptr a = argument<CUdeviceptr>(args, 0), b = argument<CUdeviceptr>(args, 1), c = argument<CUdeviceptr>(args, 2);
            if (library->types.input == ElementType::f32)
                CublasLibrary::get().sgemm(stream_.get(), library->tf32, m, n, k, a, b, c);
            else
                CublasLibrary::get().gemm_ex(stream_.get(), cublas_type(library->types.input), cublas_type(library->types.output), m, n, k, a, b, c);
            continue;
        }
        const auto& cuda = static_cast<const CudaKernel&>(*item.kernel);
        if (launch.cooperative) {
            if (std::string refusal = cooperative_refusal(cuda, launch); !refusal.empty()) {
                LaunchOutcome refused;
                refused.ok = false;
                refused.error = std::move(refusal);
                refused.error_code = ErrorCode::cuda_cooperative_launch_too_large;
                return refused;
            }
        }
        if (launch.clustered() || launch.cooperative) {
            const ExtendedLaunch extended(launch, stream_.get());
            KPLAY_CU(driver_api().cuLaunchKernelEx(&extended.config, cuda.function.get(), args.data(), nullptr));
            continue;
        }
        KPLAY_CU(driver_api().cuLaunchKernel(cuda.function.get(), static_cast<unsigned>(launch.grid.x), static_cast<unsigned>(launch.grid.y),
                                             static_cast<unsigned>(launch.grid.z), static_cast<unsigned>(launch.block.x),
                                             static_cast<unsigned>(launch.block.y), static_cast<unsigned>(launch.block.z),
                                             static_cast<unsigned>(launch.dynamic_smem), stream_.get(), args.data(), nullptr));
    }
    stop_.record(stream_);
    stop_.synchronize();  // a fault surfaces here as an ApiError
    LaunchOutcome outcome;
    outcome.ms = Event::elapsed_ms(start_, stop_);
    return outcome;
}

ClockReading CudaDevice::read_clocks() {
    if (!nvml_ && nvml_missing_.empty()) {
        nvml_ = Nvml::open(pci_bus_id(info_.ordinal), nvml_missing_);
        if (!nvml_ && nvml_missing_.empty()) nvml_missing_ = "NVML could not be opened";
    }
    if (!nvml_) return {std::nullopt, nvml_missing_};
    if (auto sample = nvml_->sample()) return {sample, ""};
    return {std::nullopt, "NVML gave no clock reading for this GPU"};
}

bool CudaDevice::before_timed_launch(bool flush) {
    if (!flush || info_.l2_bytes <= 0) return false;
    if (!l2_flusher_) l2_flusher_ = std::make_unique<L2Flusher>(info_);
    l2_flusher_->flush(stream_);
    return true;
}

int CudaDevice::input_copies(size_t input_bytes, bool rotate) const {
    // Inputs small enough to stay in L2 get copies, one per timed launch in turn, so a repeat cannot be
    // served from the cache the previous one warmed.
    const size_t l2 = static_cast<size_t>(std::max(info_.l2_bytes, 0));
    if (!rotate || input_bytes == 0 || input_bytes >= l2) return 1;
    return static_cast<int>(std::min<size_t>(32, (2 * l2 + input_bytes - 1) / input_bytes));
}

}  // namespace kplay
