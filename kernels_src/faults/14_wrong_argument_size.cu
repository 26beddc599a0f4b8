// kplay: task=grayscale kernel=struct_param args=in,out,n launch=1d block=256
// expect: stage=launch text=12-byte parameter
//
// Fault: the last parameter is a float3 (12 bytes) but the binding gives it the integer `n`. kplay
// checks each argument's size against the compiled kernel and refuses the launch.

__global__ void struct_param(unsigned char* x, unsigned char* out, float3 n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (int)n.x) out[i] = x[i];
}
