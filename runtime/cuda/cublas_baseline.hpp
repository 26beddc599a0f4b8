// cuBLAS SGEMM as the matmul baseline, loaded at run time (libcublas.so.13) when it is installed.
#pragma once

#include <string>

#include <cuda.h>

namespace kplay {

class CublasLibrary {
public:
    // Loads once per process; available() is false (with why()) when the library or a symbol is missing.
    static CublasLibrary& get();
    bool available() const { return available_; }
    const std::string& why() const { return why_; }

    // C(MxN) = A(MxK)·B(KxN), row-major fp32, on `stream`. tf32: allow TF32 tensor cores.
    // Throws InputError with cuBLAS's status when a call fails.
    void sgemm(CUstream stream, bool tf32, int m, int n, int k, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c);

private:
    CublasLibrary();
    bool available_ = false;
    std::string why_;
    void* handle_ = nullptr;  // cublasHandle_t, created lazily on the current context
    struct Api;
    Api* api_ = nullptr;
};

}  // namespace kplay
