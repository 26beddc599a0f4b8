// kplay: task=grayscale kernel=spin args=in,out,n launch=1d block=256
// expect: stage=worker code=KPLAY_TIMEOUT
// expect-emulated: stage=run code=KPLAY_TIMEOUT
//
// Fault: an endless loop. These GPUs have no watchdog, so the kernel would spin forever; kplay's
// watchdog stops the worker after the run timeout (5 s by default) and reports "Kernel did not finish
// within 5 s and was stopped — an endless loop?". The same source is not re-run automatically.

__global__ void spin(unsigned char* x, unsigned char* out, int n) {
    volatile unsigned char* p = x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    while (true) {
        if (p[i] == 1 && p[i] == 2) break;  // volatile reads: a real loop the compiler must keep
    }
    out[i] = 0;
}
