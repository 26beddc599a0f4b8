// kplay: task=grayscale kernel=broken args=in,out,n launch=1d block=256
// expect: stage=compile text=expected a ";"
//
// Fault: a missing semicolon. NVRTC rejects the file; kplay shows the diagnostic with its line and
// column (kplay-cli prints it gcc-style, FILE:12:5: error: expected a ";") and nothing is launched.

__global__ void broken(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x
    if (i < n) out[i] = x[i];
}
