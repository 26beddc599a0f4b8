// cuBLAS's GEMM as the matmul baseline (SGEMM; cublasGemmEx for f16 and bf16), loaded at run time
// (libcublas.so.13) when it is installed.
#pragma once

#include <string>

#include <cuda.h>

namespace kplay {

// The element types cublasGemmEx is called with here (CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF).
enum class CublasType { f32, f16, bf16 };

class CublasLibrary {
public:
    // Loads once per process; available() is false (with why()) when the library or a symbol is missing.
    static CublasLibrary& get();
    bool available() const { return available_; }
    const std::string& why() const { return why_; }

    // C(MxN) = A(MxK)·B(KxN), row-major fp32, on `stream`. tf32: allow TF32 tensor cores.
    // Throws InputError with cuBLAS's status when a call fails.
    void sgemm(CUstream stream, bool tf32, int m, int n, int k, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c);
    // The same with A and B of type `input`, C of type `output`, accumulated in f32 (CUBLAS_COMPUTE_32F).
    void gemm_ex(CUstream stream, CublasType input, CublasType output, int m, int n, int k, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c);

private:
    CublasLibrary();
    void* handle_on(CUstream stream, bool tf32);  // the handle, created once, set to `stream` and the math mode
    bool available_ = false;
    std::string why_;
    void* handle_ = nullptr;  // cublasHandle_t, created lazily on the current context
    struct Api;
    Api* api_ = nullptr;
};

}  // namespace kplay
