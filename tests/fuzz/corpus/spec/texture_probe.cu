// Texture sampling on a GPU against the emulated device, bit for bit: the task's reference is this same
// kernel run on the emulated device, and every output is checked exactly. The texels are integers
// 0..255 and the coordinates steps of 1/1024 texel (w and h powers of two, so u = x/w is exact), so
// every filtered value is exact in a float and any difference is the sampler's, not a rounding:
// `weights` is 256 times the linear filter's fractional weight at every 1/1024 of a texel (CUDA keeps it
// in 9-bit fixed point); the others sweep x from two texels before the image to two past it, over
// rows in eighths, with each address mode, point sampling, tex1Dfetch past both ends, tex1D over a
// CUDA array and a layered texture.
// kplay-sizes: h,w default=4x8 cpu=4x8 test=2x2,8x16
// kplay-buffer: img f32[h*w] in init=randint(0,255)
// kplay-buffer: ramp f32[2] in init=iota(0,256)
// kplay-buffer: weights f32[1024] out check=exact
// kplay-buffer: clamped f32[1024*(w+4)] out check=exact
// kplay-buffer: bordered f32[1024*(w+4)] out check=exact
// kplay-buffer: wrapped f32[1024*(w+4)] out check=exact
// kplay-buffer: mirrored f32[1024*(w+4)] out check=exact
// kplay-buffer: nearest f32[1024*(w+4)] out check=exact
// kplay-buffer: fetched f32[1024*(w+4)] out check=exact
// kplay-buffer: arrayed f32[1024*(w+4)] out check=exact
// kplay-buffer: layered f32[1024*(w+4)] out check=exact
// kplay-texture: ramp_tex buffer=ramp shape=1,2 filter=linear
// kplay-texture: clamp_tex buffer=img shape=h,w filter=linear address=clamp
// kplay-texture: border_tex buffer=img shape=h,w filter=linear address=border
// kplay-texture: wrap_tex buffer=img shape=h,w filter=linear address=wrap normalized=yes
// kplay-texture: mirror_tex buffer=img shape=h,w filter=linear address=mirror normalized=yes
// kplay-texture: point_tex buffer=img shape=h,w address=border
// kplay-texture: fetch_tex buffer=img shape=h*w
// kplay-texture: array_tex buffer=img shape=w filter=linear layout=array
// kplay-texture: layers_tex buffer=img shape=2,w layers=h/2 filter=linear
// kplay-task: reference=texture_probe.cu:probe extent=1024*(w+4)
// kplay: args=ramp_tex,clamp_tex,border_tex,wrap_tex,mirror_tex,point_tex,fetch_tex,array_tex,layers_tex,weights,clamped,bordered,wrapped,mirrored,nearest,fetched,arrayed,layered,h,w block=256

__global__ void probe(cudaTextureObject_t ramp_tex, cudaTextureObject_t clamp_tex, cudaTextureObject_t border_tex,
                      cudaTextureObject_t wrap_tex, cudaTextureObject_t mirror_tex, cudaTextureObject_t point_tex,
                      cudaTextureObject_t fetch_tex, cudaTextureObject_t array_tex, cudaTextureObject_t layers_tex, float* weights,
                      float* clamped, float* bordered, float* wrapped, float* mirrored, float* nearest, float* fetched, float* arrayed,
                      float* layered, int h, int w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1024 * (w + 4)) return;
    float x = i / 1024.0f - 2.0f;      // every 1/1024 of a texel, from two before the image to two past it
    float y = (i % 53) / 8.0f - 1.5f;  // rows in eighths, from before the first to past the last
    if (i < 1024) weights[i] = tex2D<float>(ramp_tex, 0.5f + i / 1024.0f, 0.5f);
    clamped[i] = tex2D<float>(clamp_tex, x, y);
    bordered[i] = tex2D<float>(border_tex, x, y);
    wrapped[i] = tex2D<float>(wrap_tex, x / w, y / h);
    mirrored[i] = tex2D<float>(mirror_tex, x / w, y / h);
    nearest[i] = tex2D<float>(point_tex, x, y);
    fetched[i] = tex1Dfetch<float>(fetch_tex, i % (h * w + 8) - 4);
    arrayed[i] = tex1D<float>(array_tex, x);
    layered[i] = tex2DLayered<float>(layers_tex, x, y, i % 5 - 1);
}
