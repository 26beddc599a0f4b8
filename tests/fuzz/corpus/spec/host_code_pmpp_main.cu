misc
// kplay: task=matmul
// A PMPP-style exercise: the kernel, and a main() that allocates on the host and the device, copies the
// inputs over, launches, copies the product back and checks one element. kplay runs the kernel alone,
// launched as main() launches it (tests/host_code_test.cpp).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t status = (call);                                                      \
        if (status != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status)); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

__global__ void MatrixMulKernel(const float* A, const float* B, float* C, int M, int N, int K) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float value = 0.0f;
        for (int k = 0; k < K; ++k) value += A[row * K + k] * B[k * N + col];
        C[row * N + col] = value;
    }
}

int main() {
    const int M = 300, N = 200, K = 100;
    size_t bytes_a = M * K * sizeof(float), bytes_b = K * N * sizeof(float), bytes_c = M * N * sizeof(float);
    float* h_A = (float*)malloc(bytes_a);
    float* h_B = (float*)malloc(bytes_b);
    float* h_C = (float*)malloc(bytes_c);
    for (int i = 0; i < M * K; ++i) h_A[i] = 1.0f;
    for (int i = 0; i < K * N; ++i) h_B[i] = 2.0f;
    float *d_A, *d_B, *d_C;
    CUDA_CHECK(cudaMalloc(&d_A, bytes_a));
    CUDA_CHECK(cudaMalloc(&d_B, bytes_b));
    CUDA_CHECK(cudaMalloc(&d_C, bytes_c));
    CUDA_CHECK(cudaMemcpy(d_A, h_A, bytes_a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_B, h_B, bytes_b, cudaMemcpyHostToDevice));
    dim3 dimBlock(16, 16);
    dim3 dimGrid((N + dimBlock.x - 1) / dimBlock.x, (M + dimBlock.y - 1) / dimBlock.y);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(d_A, d_B, d_C, M, N, K);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_C, d_C, bytes_c, cudaMemcpyDeviceToHost));
    printf("C[0][0] = %f (expected %f)\n", h_C[0], 2.0f * K);
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(h_A);
    free(h_B);
    free(h_C);
    return 0;
}
