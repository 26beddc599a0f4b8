// kplay: task=grayscale kernel=rgb_to_grayscale_kernel args=in,out,w,h launch=2d block=16,16
//
// Step 2 of the grayscale ladder: the same formula with a 2D grid, one thread per (column, row), the
// way the lecture introduces 2D blocks before matmul. Each thread checks both bounds, so any w and h
// work with any block shape; the flat index is r*w + c.
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 7680x4320): 0.1134 ms, 1170 GB/s = 28.3% of the
// copy ceiling: the extra index arithmetic costs more than the 2D layout gains.

__global__ void rgb_to_grayscale_kernel(unsigned char* x, unsigned char* out, int w, int h) {
    int c = blockIdx.x*blockDim.x + threadIdx.x;
    int r = blockIdx.y*blockDim.y + threadIdx.y;

    if (c<w && r<h) {
        int i = r*w + c;
        int n = h*w;
        out[i] = 0.2989*x[i] + 0.5870*x[i+n] + 0.1140*x[i+2*n];
    }
}
