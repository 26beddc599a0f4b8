// kplay: kernel=blur_swar launch=2d block=32,4 grid=cdiv(3*w,480),max(1,min(cdiv(h,32),sms*5/cdiv(3*w,480)))
//
// Step 5 of the blur ladder: 16 bytes per thread in registers, two channels per integer operation,
// the horizontal halo through warp shuffles, and no shared memory or barriers at all.
// Step 4 did one byte per load, per store and per multiply-add. Here each lane of a warp owns a
// 16-byte column chunk (one uint4 load and one uint4 store per row) and the warp walks down a band of
// rows. The vertical pass needs no neighbours, so it runs in registers as the rows stream by: 1 4 6 4 1
// is [1 1] applied four times, so four running sums (a = p + p', b = a + a', c = b + b', d = c + c',
// primes for the previous row's values) give d = p[-4] + 4p[-3] + 6p[-2] + 4p[-1] + p[0] with four adds
// per row, centred two rows back. The adds are SIMD within a register: each 32-bit word holds two
// 16-bit lanes (two neighbouring bytes widened), and since no lane can exceed 16 x 16 x 255 + 128 =
// 65408 < 65536 (the same bound that makes the arithmetic exact), no carry ever crosses into the other
// lane, so one add, shift or multiply by 4 or 6 does two channels. The horizontal pass needs the same
// channel 3 and 6 bytes to each side, which for the chunk's edge bytes lie in the neighbouring lanes'
// chunks: six __shfl_up/down_sync bring the three words on each side. Lanes 0 and 31 have no
// neighbour beyond the warp, so they only load and supply that halo, and 30 lanes write: a warp covers
// 480 output bytes (160 pixels) of each row, 6% extra loads. The rounding (+128 per lane) and >> 8
// become picking the high byte of each lane when the result is packed. Rows are loaded 4 at a time
// before any is used, so each thread keeps 64 bytes of loads in flight. The grid is one wave: the
// image's height is cut into as many bands as fill the SMs with 5 blocks of 4 warps each
// (__launch_bounds__(128, 5) holds the registers to 96, so 5 fit; at 6, under 80, they spill), about
// 84 rows a band at 7680x4320, so the 4 warm-up rows of each band are 5% extra and there is no tail
// wave. The uint4 path needs rows that are a multiple of 16 bytes (3w % 16 == 0, true at 7680); the
// halo chunks outside the image are rebuilt from its edge pixels in registers. Other widths load
// each chunk byte by byte with the clamp per byte (slow, but every size is exact).
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/blur/*.cu --repeat 20): 0.0926 ms, 2150 GB/s =
// 51.8% of the copy ceiling (4153 GB/s).
//
// kplay-task: name=blur reference=host view=image extent=3*w,h coverage=per-thread
// kplay-sizes: w,h default=7680x4320 cpu=160x100 test=1x1,3x5,33x17,257x3,336x7,16x1 bench=7680x4320
// kplay-buffer: in u8[3*w*h] in init=image(interleaved)
// kplay-buffer: out u8[3*w*h] out shape=h,w,3 check=exact
// kplay-cost: bytes=6*w*h ceiling=copy

#include "kplay.cuh"

namespace {
constexpr int kChunk = 16;                    // bytes per lane: one uint4
constexpr int kOutLanes = 30;                 // lanes 1..30 write; 0 and 31 supply the halo
constexpr int kStrip = kOutLanes * kChunk;    // 480 output bytes per warp (the grid's 480)
constexpr int kBatch = 4;                     // rows loaded before any is used
constexpr unsigned kFull = 0xffffffffu;
}

// Two neighbouring bytes widened into the two 16-bit lanes of a word: bytes 0,1 or 2,3 of w.
__device__ __forceinline__ unsigned lanes_lo(unsigned w) { return (w & 0xffu) | ((w << 8) & 0xff0000u); }
__device__ __forceinline__ unsigned lanes_hi(unsigned w) { return ((w >> 16) & 0xffu) | ((w >> 8) & 0xff0000u); }
// The lane pair that straddles two words: (upper lane of a, lower lane of b), an odd offset.
__device__ __forceinline__ unsigned straddle(unsigned a, unsigned b) { return (a >> 16) | (b << 16); }
// Four output bytes: the high byte of each 16-bit lane of s0 and s1, i.e. (sum + 128) >> 8 per lane.
__device__ __forceinline__ unsigned high_bytes(unsigned s0, unsigned s1) {
    return ((s0 >> 8) & 0xffu) | ((s0 >> 16) & 0xff00u) | ((s1 << 8) & 0xff0000u) | (s1 & 0xff000000u);
}

// Rows that are a multiple of 16 bytes: one uint4 load per lane and row. A chunk that lies outside
// the row (the halo lanes at the image's left and right edges) loads the nearest chunk inside and
// rebuilds from its edge pixel the only 6 bytes any written output reads: bytes -6..-1 left of the
// image are the first pixel's channels twice (e0 e1 e2 e0 e1 e2), bytes 3w..3w+5 the last pixel's.
__device__ __forceinline__ uint4 load_chunk_aligned(const unsigned char* __restrict__ row, int j0, int row_bytes) {
    uint4 q = __ldg(reinterpret_cast<const uint4*>(row + min(max(j0, 0), row_bytes - kChunk)));
    if (j0 < 0) {
        const unsigned e = q.x & 0xffffffu;  // e0 | e1 << 8 | e2 << 16
        q = make_uint4(0u, 0u, e << 16, (e >> 16) | (e << 8));  // bytes 10..15 = e0 e1 e2 e0 e1 e2
    } else if (j0 >= row_bytes) {
        const unsigned l = q.w >> 8;  // the last pixel: bytes 13..15 of the row's last chunk
        q = make_uint4(l | (l << 24), l >> 8, 0u, 0u);  // bytes 0..5 = l0 l1 l2 l0 l1 l2
    }
    return q;
}

// Any other width: the chunk byte by byte, each pixel clamped to the image and each byte keeping its
// channel (j0 may lie left of 0 or right of 3w - 1). Not inlined, so that the compiler does not keep
// its 16 clamped offsets in registers across the whole row loop.
__device__ __noinline__ uint4 load_chunk_bytes(const unsigned char* __restrict__ row, int j0, int w) {
    unsigned word[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int i = 0; i < kChunk; ++i) {
        const int j = j0 + i;
        const int x = (j + 18) / 3 - 6;  // floor(j / 3) for j >= -18
        const int ch = j - 3 * x;
        word[i / 4] |= static_cast<unsigned>(row[3 * min(max(x, 0), w - 1) + ch]) << (8 * (i % 4));
    }
    return make_uint4(word[0], word[1], word[2], word[3]);
}

// One warp's band of rows [y0, y1) of one 480-byte strip; kAligned: 3w % 16 == 0.
template <bool kAligned>
__device__ __forceinline__ void blur_band(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int w, int h,
                                          int j0, bool writer, int y0, int y1) {
    const int row_bytes = 3 * w;
    // The running sums of the vertical pass, per 16-bit lane pair k (bytes 2k, 2k+1 of the chunk).
    unsigned p[8], a[8], b[8], c[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) p[k] = a[k] = b[k] = c[k] = 0u;

    for (int r = y0 - 2; r < y1 + 2; r += kBatch) {
        uint4 q[kBatch];
#pragma unroll
        for (int i = 0; i < kBatch; ++i) {
            const unsigned char* row = in + static_cast<size_t>(min(max(r + i, 0), h - 1)) * row_bytes;  // clamp to edge
            if (r + i >= y1 + 2) q[i] = make_uint4(0u, 0u, 0u, 0u);
            else q[i] = kAligned ? load_chunk_aligned(row, j0, row_bytes) : load_chunk_bytes(row, j0, w);
        }
#pragma unroll
        for (int i = 0; i < kBatch; ++i) {
            const int rr = r + i;  // the input row just loaded; its vertical sum is centred on rr - 2
            if (rr >= y1 + 2) break;
            const unsigned word[4] = {q[i].x, q[i].y, q[i].z, q[i].w};
            unsigned d[8];
#pragma unroll
            for (int k = 0; k < 8; ++k) {
                const unsigned pk = k % 2 == 0 ? lanes_lo(word[k / 2]) : lanes_hi(word[k / 2]);
                const unsigned ak = pk + p[k], bk = ak + a[k], ck = bk + b[k];
                d[k] = ck + c[k];
                p[k] = pk;
                a[k] = ak;
                b[k] = bk;
                c[k] = ck;
            }
            if (rr - 2 < y0) continue;  // the first four rows of a band only fill the running sums

            // e[3 + k] is lane pair k for k = -3 .. 10: three words from each neighbouring lane.
            unsigned e[14];
            e[0] = __shfl_up_sync(kFull, d[5], 1);
            e[1] = __shfl_up_sync(kFull, d[6], 1);
            e[2] = __shfl_up_sync(kFull, d[7], 1);
#pragma unroll
            for (int k = 0; k < 8; ++k) e[3 + k] = d[k];
            e[11] = __shfl_down_sync(kFull, d[0], 1);
            e[12] = __shfl_down_sync(kFull, d[1], 1);
            e[13] = __shfl_down_sync(kFull, d[2], 1);

            // Horizontal taps at -6, -3, 0, +3, +6 bytes: -6 and +6 are whole words three pairs away,
            // -3 and +3 straddle two words. 0x00800080 is the +128 of both lanes.
            unsigned s[8];
#pragma unroll
            for (int k = 0; k < 8; ++k)
                s[k] = e[k] + e[k + 6] + 0x00800080u + 4u * (straddle(e[k + 1], e[k + 2]) + straddle(e[k + 4], e[k + 5])) +
                       6u * e[k + 3];

            if (writer) {
                const uint4 o = make_uint4(high_bytes(s[0], s[1]), high_bytes(s[2], s[3]), high_bytes(s[4], s[5]),
                                           high_bytes(s[6], s[7]));
                unsigned char* orow = out + static_cast<size_t>(rr - 2) * row_bytes;
                if (kAligned) {
                    *reinterpret_cast<uint4*>(orow + j0) = o;
                } else {
                    const unsigned ow[4] = {o.x, o.y, o.z, o.w};
#pragma unroll
                    for (int t = 0; t < kChunk; ++t)
                        if (j0 + t < row_bytes) orow[j0 + t] = static_cast<unsigned char>(ow[t / 4] >> (8 * (t % 4)));
                }
            }
        }
    }
}

// blockDim.x must be 32 (a warp per strip); the blockDim.y warps of a block take consecutive bands.
__global__ void __launch_bounds__(128, 5)
blur_swar(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int w, int h) {
    const int lane = threadIdx.x;
    const int bands = gridDim.y * blockDim.y;
    const int band = blockIdx.y * blockDim.y + threadIdx.y;
    const int rows = (h + bands - 1) / bands;
    const int y0 = band * rows, y1 = min(h, y0 + rows);  // this warp's output rows
    if (y0 >= h) return;                                 // the whole warp: bands past the bottom

    const int j0 = blockIdx.x * kStrip + (lane - 1) * kChunk;  // this lane's first byte column
    const bool writer = lane >= 1 && lane <= kOutLanes && j0 < 3 * w;
    if (3 * w % 16 == 0) blur_band<true>(in, out, w, h, j0, writer, y0, y1);  // every row 16-byte aligned
    else blur_band<false>(in, out, w, h, j0, writer, y0, y1);
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
