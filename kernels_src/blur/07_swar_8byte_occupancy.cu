// kplay: kernel=blur_swar8 launch=2d block=32,4 grid=cdiv(3*w,240),max(1,min(cdiv(h,64),sms*24/cdiv(3*w,240)))
//
// Step 7 of the blur ladder: step 6 with 8-byte chunks per lane, so that registers drop to 63 and
// 8 blocks (32 warps) fit on an SM, with a 3-row ring of loads in flight.
// Step 6 holds, per thread, the vertical running sums of 16 bytes (24 registers), the previous row,
// its ring of loads and the horizontal temporaries: 96 registers, which caps an SM at 20 warps, a
// quarter of what it can hold. Here each lane owns 8 bytes (one uint2 load and store per row), so
// the running sums and temporaries halve; with 63 registers (ptxas -v, no spills) 8 blocks of 4 warps
// fit, 32 warps per SM (50% occupancy), and the ring has 3 slots instead of 2: each warp keeps 2-3
// rows of 256 bytes in flight, about 20 KB per SM as in step 6, but spread over more warps, so more
// of them are ready to issue while others wait. A warp covers 240 output bytes of a row (30 writing
// lanes, as before); the grid is about three waves of 8 blocks per SM. Costs: the 6 shuffles and the
// per-row address and loop work are spread over 8 bytes instead of 16 (about 20% more instructions per
// byte), and 8-byte accesses are half as wide (a warp's row load is still 256 contiguous bytes, fully
// coalesced). The arithmetic is step 5's and bit exact; rows need 3w % 8 == 0 for the vector path.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/blur/*.cu --repeat 20): 0.0698 ms, 2852 GB/s =
// 68.7% of the copy ceiling (4153 GB/s).
//
// kplay-task: name=blur reference=host view=image extent=3*w,h coverage=per-thread
// kplay-sizes: w,h default=7680x4320 cpu=160x100 test=1x1,3x5,33x17,257x3,336x7,16x1 bench=7680x4320
// kplay-buffer: in u8[3*w*h] in init=image(interleaved)
// kplay-buffer: out u8[3*w*h] out shape=h,w,3 check=exact
// kplay-cost: bytes=6*w*h ceiling=copy

#include "kplay.cuh"

namespace {
constexpr int kChunk = 8;                     // bytes per lane: one uint2
constexpr int kWords = kChunk / 4;            // 32-bit words per chunk
constexpr int kPairs = kChunk / 2;            // 16-bit lane pairs per chunk (two bytes each)
constexpr int kOutLanes = 30;                 // lanes 1..30 write; 0 and 31 supply the halo
constexpr int kStrip = kOutLanes * kChunk;    // 240 output bytes per warp (the grid's 240)
constexpr int kBatch = 3;                     // row slots in the ring of loads in flight
constexpr unsigned kFull = 0xffffffffu;

struct Chunk {
    unsigned w[kWords];
};
}

// PRMT: byte n of the result is byte (s >> 4n) & 7 of the 8 bytes {b:a} (a is bytes 0-3, b bytes 4-7).
__device__ __forceinline__ unsigned perm(unsigned a, unsigned b, unsigned s) {
#ifdef KPLAY_EMULATED
    const unsigned long long x = (static_cast<unsigned long long>(b) << 32) | a;
    unsigned r = 0u;
    for (int n = 0; n < 4; ++n) r |= static_cast<unsigned>((x >> (8 * ((s >> (4 * n)) & 7u))) & 0xffu) << (8 * n);
    return r;
#else
    return __byte_perm(a, b, s);
#endif
}
// Bytes 0,1 (or 2,3) of w widened into the two 16-bit lanes of a word: one PRMT with a zero word.
__device__ __forceinline__ unsigned lanes_lo(unsigned w) { return perm(w, 0u, 0x4140u); }
__device__ __forceinline__ unsigned lanes_hi(unsigned w) { return perm(w, 0u, 0x4342u); }
// The lane pair that straddles two words: (upper lane of a, lower lane of b).
__device__ __forceinline__ unsigned straddle(unsigned a, unsigned b) { return perm(a, b, 0x5432u); }
// Four output bytes: the high byte of each 16-bit lane of s0 and s1, i.e. (sum + 128) >> 8 per lane.
__device__ __forceinline__ unsigned high_bytes(unsigned s0, unsigned s1) { return perm(s0, s1, 0x7531u); }

// Rows that are a multiple of kChunk bytes: one vector load per lane and row. A chunk outside the row
// (the halo lanes at the image's left and right edges) loads the nearest chunk inside; the bytes it
// should have held are rebuilt later, from the vertical sums (see blur_band), so that nothing here
// reads the loaded value and the load can stay in flight.
__device__ __forceinline__ Chunk load_chunk_aligned(const unsigned char* __restrict__ row, int j0, int row_bytes) {
    const uint2 v = __ldg(reinterpret_cast<const uint2*>(row + min(max(j0, 0), row_bytes - kChunk)));
    return Chunk{{v.x, v.y}};
}

// Any other width: the chunk byte by byte, each pixel clamped to the image and each byte keeping its
// channel (j0 may lie left of 0 or right of 3w - 1). Slow, but every size is exact.
__device__ __noinline__ Chunk load_chunk_bytes(const unsigned char* __restrict__ row, int j0, int w) {
    Chunk q;
#pragma unroll
    for (int t = 0; t < kWords; ++t) q.w[t] = 0u;
#pragma unroll
    for (int i = 0; i < kChunk; ++i) {
        const int j = j0 + i;
        const int x = (j + 18) / 3 - 6;  // floor(j / 3) for j >= -18
        const int ch = j - 3 * x;
        q.w[i / 4] |= static_cast<unsigned>(row[3 * min(max(x, 0), w - 1) + ch]) << (8 * (i % 4));
    }
    return q;
}

template <bool kAligned>
__device__ __forceinline__ Chunk load_row(const unsigned char* __restrict__ in, int w, int h, int j0, int r) {
    const int row_bytes = 3 * w;
    const unsigned char* row = in + static_cast<size_t>(min(max(r, 0), h - 1)) * row_bytes;  // clamp to edge
    return kAligned ? load_chunk_aligned(row, j0, row_bytes) : load_chunk_bytes(row, j0, w);
}

// One warp's band of rows [y0, y1) of one strip; kAligned: 3w % kChunk == 0.
template <bool kAligned>
__device__ __forceinline__ void blur_band(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int w, int h,
                                          int j0, bool writer, int y0, int y1) {
    const int row_bytes = 3 * w;
    // The running sums of the vertical pass, per 16-bit lane pair k (bytes 2k, 2k+1 of the chunk).
    // The previous row is kept packed (kWords words, not kPairs widened lane pairs) and widened again:
    // kPairs more PRMTs per row buy registers that the ring of loads needs.
    unsigned a[kPairs], b[kPairs], c[kPairs];
    Chunk prev;
#pragma unroll
    for (int k = 0; k < kPairs; ++k) a[k] = b[k] = c[k] = 0u;
#pragma unroll
    for (int t = 0; t < kWords; ++t) prev.w[t] = 0u;

    const int r_end = y1 + 2;  // input rows y0-2 .. y1+1 feed output rows y0 .. y1-1
    // A ring of kBatch rows in flight: slot i holds the row that the loop reaches i rows from now, and
    // is refilled, kBatch rows ahead, as soon as it has been read.
    Chunk slot[kBatch];
#pragma unroll
    for (int i = 0; i < kBatch; ++i)
        if (kAligned) slot[i] = load_row<kAligned>(in, w, h, j0, y0 - 2 + i);
    for (int r = y0 - 2; r < r_end; r += kBatch) {
#pragma unroll
        for (int i = 0; i < kBatch; ++i) {
            const int rr = r + i;  // the input row of slot i; its vertical sum is centred on rr - 2
            if (rr >= r_end) break;
            // (The byte-by-byte path of odd widths is a function call; it loads each row when needed.)
            const Chunk q = kAligned ? slot[i] : load_row<kAligned>(in, w, h, j0, rr);
            if (kAligned && rr + kBatch < r_end) slot[i] = load_row<kAligned>(in, w, h, j0, rr + kBatch);
            unsigned d[kPairs];
#pragma unroll
            for (int k = 0; k < kPairs; ++k) {
                const unsigned pk = k % 2 == 0 ? lanes_lo(q.w[k / 2]) : lanes_hi(q.w[k / 2]);
                const unsigned pp = k % 2 == 0 ? lanes_lo(prev.w[k / 2]) : lanes_hi(prev.w[k / 2]);
                const unsigned ak = pk + pp, bk = ak + a[k], ck = bk + b[k];
                d[k] = ck + c[k];  // p[-4] + 4p[-3] + 6p[-2] + 4p[-1] + p[0]
                a[k] = ak;
                b[k] = bk;
                c[k] = ck;
            }
            prev = q;
            if (rr - 2 < y0) continue;  // the first four rows of a band only fill the running sums

            // The halo lanes at the image's edges loaded the nearest chunk inside the row. The only 6
            // bytes that a written output reads from them are the edge pixel's channels twice: left of
            // the image (e0 e1 e2 e0 e1 e2) from pairs 0, 1 of the first chunk, right of it (l0 l1 l2
            // l0 l1 l2) from the last 3 bytes of the last chunk. The vertical sum is the same linear
            // combination for every byte, so rebuilding the sums gives what rebuilding the bytes would.
            unsigned up0 = d[kPairs - 3], up1 = d[kPairs - 2], up2 = d[kPairs - 1];  // to the lane above
            unsigned dn0 = d[0], dn1 = d[1], dn2 = d[2];                               // to the lane below
            if (kAligned && j0 < 0) {
                up0 = d[0];                         // (e0, e1)
                up1 = perm(d[1], d[0], 0x5410u);    // (e2, e0)
                up2 = straddle(d[0], d[1]);         // (e1, e2)
            } else if (kAligned && j0 >= row_bytes) {
                dn0 = straddle(d[kPairs - 2], d[kPairs - 1]);       // (l0, l1)
                dn1 = perm(d[kPairs - 1], d[kPairs - 2], 0x7632u);  // (l2, l0)
                dn2 = d[kPairs - 1];                                // (l1, l2)
            }

            // e[3 + k] is lane pair k for k = -3 .. kPairs+2: three words from each neighbouring lane.
            unsigned e[kPairs + 6];
            e[0] = __shfl_up_sync(kFull, up0, 1);
            e[1] = __shfl_up_sync(kFull, up1, 1);
            e[2] = __shfl_up_sync(kFull, up2, 1);
#pragma unroll
            for (int k = 0; k < kPairs; ++k) e[3 + k] = d[k];
            e[kPairs + 3] = __shfl_down_sync(kFull, dn0, 1);
            e[kPairs + 4] = __shfl_down_sync(kFull, dn1, 1);
            e[kPairs + 5] = __shfl_down_sync(kFull, dn2, 1);

            // st[m] straddles e[m], e[m+1]: the lane pair 3 bytes left of pair m+1. Output pair k
            // takes its -3 and +3 byte taps from st[k+1] and st[k+4]; each st is shared by two pairs.
            unsigned st[kPairs + 4];
#pragma unroll
            for (int m = 1; m < kPairs + 4; ++m) st[m] = straddle(e[m], e[m + 1]);

            // Horizontal taps at -6, -3, 0, +3, +6 bytes. 0x00800080 is the +128 of both lanes.
            unsigned s[kPairs];
#pragma unroll
            for (int k = 0; k < kPairs; ++k)
                s[k] = (e[k] + e[k + 6] + 0x00800080u) + 4u * (st[k + 1] + st[k + 4]) + 6u * e[k + 3];

            if (writer) {
                unsigned ow[kWords];
#pragma unroll
                for (int t = 0; t < kWords; ++t) ow[t] = high_bytes(s[2 * t], s[2 * t + 1]);
                unsigned char* orow = out + static_cast<size_t>(rr - 2) * row_bytes;
                if (kAligned) {
                    __stcs(reinterpret_cast<uint2*>(orow + j0), make_uint2(ow[0], ow[1]));
                } else {
#pragma unroll
                    for (int t = 0; t < kChunk; ++t)
                        if (j0 + t < row_bytes) orow[j0 + t] = static_cast<unsigned char>(ow[t / 4] >> (8 * (t % 4)));
                }
            }
        }
    }
}

// blockDim.x must be 32 (a warp per strip); the blockDim.y warps of a block take consecutive bands.
__global__ void __launch_bounds__(128, 8)
blur_swar8(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int w, int h) {
    const int lane = threadIdx.x;
    const int bands = gridDim.y * blockDim.y;
    const int band = blockIdx.y * blockDim.y + threadIdx.y;
    const int rows = (h + bands - 1) / bands;
    const int y0 = band * rows, y1 = min(h, y0 + rows);  // this warp's output rows
    if (y0 >= h) return;                                 // the whole warp: bands past the bottom

    const int j0 = blockIdx.x * kStrip + (lane - 1) * kChunk;  // this lane's first byte column
    const bool writer = lane >= 1 && lane <= kOutLanes && j0 < 3 * w;
    if (3 * w % kChunk == 0) blur_band<true>(in, out, w, h, j0, writer, y0, y1);  // every row aligned
    else blur_band<false>(in, out, w, h, j0, writer, y0, y1);
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
