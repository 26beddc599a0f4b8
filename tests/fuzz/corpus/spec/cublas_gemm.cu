fuzz
// kplay: kernel=gemm
// kplay-sizes: M,N,K default=512x512x512 test=1x1x1,17x33x65
// kplay-buffer: a f32[M*K] in init=uniform(-1,1)
// kplay-buffer: b f32[K*N] in init=randint(0,255)
// kplay-buffer: c f32[M*N] out shape=M,N check=ulp:4
// kplay-cost: flops=2*M*N*K ceiling=cublas gemm=a,b,c,M,N,K
__global__ void gemm(const float* a, const float* b, float* c, int M, int N, int K) {}
