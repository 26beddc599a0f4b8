// A surface over an inout buffer: each element read with surf2Dread and written back as 2v+1 with
// surf2Dwrite, on a float4 image (16-byte elements, x in bytes), and a layered u8 surface written
// through with cudaBoundaryModeZero past its edge. On a GPU the buffers go into CUDA arrays before the
// launch and back after it, so what kplay checks is what the kernel wrote through the surfaces.
// kplay-sizes: h,w default=24x40 cpu=24x40 test=1x1,5x3
// kplay-buffer: img f32[4*h*w] inout init=uniform(-1,1) check=exact
// kplay-buffer: stack u8[3*h*w] out check=exact
// kplay-surface: img_surf buffer=img shape=h,w channels=4
// kplay-surface: stack_surf buffer=stack shape=h,w layers=3
// kplay-task: extent=w+1,h
// kplay: args=img_surf,stack_surf,h,w launch=2d block=8,8

__global__ void round_trip(cudaSurfaceObject_t img_surf, cudaSurfaceObject_t stack_surf, int h, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y >= h) return;
    if (x < w) {
        float4 v = surf2Dread<float4>(img_surf, x * 16, y);
        surf2Dwrite(make_float4(2 * v.x + 1, 2 * v.y + 1, 2 * v.z + 1, 2 * v.w + 1), img_surf, x * 16, y);
    }
    for (int layer = 0; layer < 3; ++layer)  // x == w is past the edge: skipped
        surf2DLayeredwrite((unsigned char)(x + 7 * y + 50 * layer), stack_surf, x, y, layer, cudaBoundaryModeZero);
}

#ifdef KPLAY_REFERENCE
void kplay_reference(float* img, unsigned char* stack, int h, int w) {
    for (int i = 0; i < 4 * h * w; ++i) img[i] = 2 * img[i] + 1;
    for (int layer = 0; layer < 3; ++layer)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) stack[(layer * h + y) * w + x] = (unsigned char)(x + 7 * y + 50 * layer);
}
#endif
