// dlopen'ed cuBLAS: just the entry points a timed SGEMM and cublasGemmEx need.
#include "cuda/cublas_baseline.hpp"

#include <cublas_api.h>
#include <dlfcn.h>

#include "base/error.hpp"

namespace kplay {

struct CublasLibrary::Api {
    cublasStatus_t (*create)(cublasHandle_t*) = nullptr;
    cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t) = nullptr;
    cublasStatus_t (*set_math_mode)(cublasHandle_t, cublasMath_t) = nullptr;
    cublasStatus_t (*sgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float*, const float*, int,
                            const float*, int, const float*, float*, int) = nullptr;
    cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, const void*, cudaDataType,
                              int, const void*, cudaDataType, int, const void*, void*, cudaDataType, int, cublasComputeType_t,
                              cublasGemmAlgo_t) = nullptr;
};

namespace {

void check(cublasStatus_t status, const char* call) {
    if (status != CUBLAS_STATUS_SUCCESS) throw InputError(std::string(call) + " failed with cuBLAS status " + std::to_string(status));
}

cudaDataType data_type(CublasType type) {
    switch (type) {
        case CublasType::f16: return CUDA_R_16F;
        case CublasType::bf16: return CUDA_R_16BF;
        case CublasType::f32: break;
    }
    return CUDA_R_32F;
}

}  // namespace

CublasLibrary& CublasLibrary::get() {
    static CublasLibrary library;
    return library;
}

CublasLibrary::CublasLibrary() : api_(new Api) {
    void* library = nullptr;
    for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
        library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (library) break;
    }
    if (!library) {
        why_ = "cuBLAS is not installed (libcublas.so.13 not found): no cuBLAS rows";
        return;
    }
    api_->create = reinterpret_cast<decltype(api_->create)>(dlsym(library, "cublasCreate_v2"));
    api_->set_stream = reinterpret_cast<decltype(api_->set_stream)>(dlsym(library, "cublasSetStream_v2"));
    api_->set_math_mode = reinterpret_cast<decltype(api_->set_math_mode)>(dlsym(library, "cublasSetMathMode"));
    api_->sgemm = reinterpret_cast<decltype(api_->sgemm)>(dlsym(library, "cublasSgemm_v2"));
    api_->gemm_ex = reinterpret_cast<decltype(api_->gemm_ex)>(dlsym(library, "cublasGemmEx"));
    if (!api_->create || !api_->set_stream || !api_->set_math_mode || !api_->sgemm || !api_->gemm_ex) {
        why_ = "the installed cuBLAS lacks cublasSgemm_v2, cublasGemmEx or their helpers";
        return;
    }
    available_ = true;
}

void* CublasLibrary::handle_on(CUstream stream, bool tf32) {
    if (!available_) throw InputError(why_);
    if (!handle_) {
        cublasHandle_t handle = nullptr;
        check(api_->create(&handle), "cublasCreate");
        handle_ = handle;  // lives as long as the process (and its context)
    }
    auto handle = static_cast<cublasHandle_t>(handle_);
    check(api_->set_stream(handle, reinterpret_cast<cudaStream_t>(stream)), "cublasSetStream");
    check(api_->set_math_mode(handle, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    return handle;
}

void CublasLibrary::gemm_ex(CUstream stream, CublasType input, CublasType output, int m, int n, int k, CUdeviceptr a, CUdeviceptr b,
                            CUdeviceptr c) {
    auto handle = static_cast<cublasHandle_t>(handle_on(stream, false));
    // Row-major C = A·B as column-major C^T = B^T·A^T, as sgemm below; alpha and beta are floats for a
    // 32-bit compute type.
    const float one = 1, zero = 0;
    check(api_->gemm_ex(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, reinterpret_cast<const void*>(b), data_type(input), n,
                        reinterpret_cast<const void*>(a), data_type(input), k, &zero, reinterpret_cast<void*>(c), data_type(output), n,
                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
}

void CublasLibrary::sgemm(CUstream stream, bool tf32, int m, int n, int k, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c) {
    auto handle = static_cast<cublasHandle_t>(handle_on(stream, tf32));
    // Row-major C = A·B is column-major C^T = B^T·A^T: swap the operands, no transposes.
    const float one = 1, zero = 0;
    check(api_->sgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, reinterpret_cast<const float*>(b), n,
                      reinterpret_cast<const float*>(a), k, &zero, reinterpret_cast<float*>(c), n),
          "cublasSgemm");
}

}  // namespace kplay
