matmul
// kplay: task=matmul kernel=matmul_k<16> args=a,b,c,M,N,K launch=2d block=16,16
template <int TW>
__global__ void matmul_k(const float* a, const float* b, float* c, int M, int N, int K) {}
template __global__ void matmul_k<16>(const float*, const float*, float*, int, int, int);
