// Bytes and halves through a GPU's texture unit against the emulated device, bit for bit (the
// reference is this kernel on the emulated device, every output checked exactly): every u8 value read
// as a normalized float (v/255) and every i8 value (max(v/127, -1); filtered i8 within one step of
// 1/32767, README "Textures and surfaces"), an RGBA u8 image filtered as float4, and an f16 image
// filtered as float (within one ulp of a half, 8192 float ulps: a GPU rounds a few samples the other way).
// kplay-sizes: h,w default=8x16 cpu=8x16 test=2x4
// kplay-buffer: bytes u8[256] in init=iota(0,1)
// kplay-buffer: signed_bytes i8[256] in init=iota(-128,1)
// kplay-buffer: rgba u8[4*h*w] in init=randint(0,255)
// kplay-buffer: halves f16[h*w] in init=uniform(-4,4)
// kplay-buffer: unorm f32[512] out check=exact
// kplay-buffer: snorm f32[512] out check=abs:3.1e-5
// kplay-buffer: colour f32[4*1024*(w+2)] out check=exact
// kplay-buffer: half_out f32[1024*(w+2)] out check=ulp:8192
// kplay-texture: unorm_tex buffer=bytes shape=256 read=normalized-float filter=linear layout=array
// kplay-texture: snorm_tex buffer=signed_bytes shape=256 read=normalized-float filter=linear layout=array
// kplay-texture: rgba_tex buffer=rgba shape=h,w channels=4 read=normalized-float filter=linear
// kplay-texture: half_tex buffer=halves shape=h,w filter=linear
// kplay-task: reference=byte_probe.cu:probe extent=1024*(w+2)
// kplay: args=unorm_tex,snorm_tex,rgba_tex,half_tex,unorm,snorm,colour,half_out,h,w block=256

__global__ void probe(cudaTextureObject_t unorm_tex, cudaTextureObject_t snorm_tex, cudaTextureObject_t rgba_tex, cudaTextureObject_t half_tex,
                      float* unorm, float* snorm, float* colour, float* half_out, int h, int w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1024 * (w + 2)) return;
    if (i < 512) {  // each value at its texel's centre, then halfway to the next
        unorm[i] = tex1D<float>(unorm_tex, i / 2 + (i % 2 ? 1.0f : 0.5f));
        snorm[i] = tex1D<float>(snorm_tex, i / 2 + (i % 2 ? 1.0f : 0.5f));
    }
    float x = i / 1024.0f - 1.0f, y = (i % 37) / 4.0f - 0.5f;
    float4 c = tex2D<float4>(rgba_tex, x, y);
    colour[4 * i] = c.x;
    colour[4 * i + 1] = c.y;
    colour[4 * i + 2] = c.z;
    colour[4 * i + 3] = c.w;
    half_out[i] = tex2D<float>(half_tex, x, y);
}
