faults
// kplay: task=grayscale kernel=three_params args=in,out launch=1d block=256
// expect: stage=launch text=takes 3 parameters but 2 arguments
//
// Fault: the annotation binds two arguments to a kernel with three parameters. kplay compares the
// binding with the compiled kernel's real parameter list and refuses to launch with garbage in `n`.

__global__ void three_params(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i];
}
