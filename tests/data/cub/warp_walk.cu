// Every documented form of cub::WarpReduce (Sum, Reduce, over valid_items, head- and tail-segmented),
// cub::WarpScan (inclusive, exclusive, with an initial value, a warp aggregate, both at once, Broadcast),
// cub::WarpLoad, cub::WarpStore and cub::WarpExchange, for logical warps of 32, 16, 8 and 4 lanes in a
// block of 128 threads, each logical warp width with one load and store algorithm. Each result is a
// slot of 512 ints in `out`: one value per thread (thread t's at t), or four (thread t's item i at
// t*4+i); two float sums per width in `fout`. Results CUB leaves undefined are walk::kUndefined.
#include "walk.cuh"

namespace {

constexpr int kThreads = 128, kItems = 4, kSlot = kThreads * kItems;

template <int LW> __device__ void reduce_forms(const int* in, const float* fin, walk::Slots<int>& s, walk::Slots<float>& f) {
    using Reduce = cub::WarpReduce<int, LW>;
    __shared__ typename Reduce::TempStorage storage[kThreads / LW];
    const int t = threadIdx.x, lane = t % LW, warp = t / LW;
    const int x = in[t];
    const bool head = in[kThreads + t] % 3 == 0, tail = in[2 * kThreads + t] % 3 == 0;
    const bool head_segment_starts = head || lane == 0, tail_segment_starts = lane == 0 || in[2 * kThreads + t - 1] % 3 == 0;
    auto in_lane_0 = [&](int value) { s.next()[t] = lane == 0 ? value : walk::kUndefined; };
    auto where = [&](bool defined, int value) { s.next()[t] = defined ? value : walk::kUndefined; };
    in_lane_0(Reduce(storage[warp]).Sum(x));
    in_lane_0(Reduce(storage[warp]).Sum(x, LW > 2 ? LW - 2 : 1));
    in_lane_0(Reduce(storage[warp]).Reduce(x, walk::Max()));
    in_lane_0(Reduce(storage[warp]).Reduce(x, walk::Last()));
    in_lane_0(Reduce(storage[warp]).Reduce(x, walk::Max(), LW / 2 + 1));
    where(head_segment_starts, Reduce(storage[warp]).HeadSegmentedSum(x, head));
    where(head_segment_starts, Reduce(storage[warp]).HeadSegmentedReduce(x, head, walk::Last()));
    where(tail_segment_starts, Reduce(storage[warp]).TailSegmentedSum(x, tail));
    where(tail_segment_starts, Reduce(storage[warp]).TailSegmentedReduce(x, tail, walk::Max()));
    // A float sum: CUB's shuffle tree, which kplay's follows.
    using FloatReduce = cub::WarpReduce<float, LW>;
    __shared__ typename FloatReduce::TempStorage float_storage[kThreads / LW];
    const float sum = FloatReduce(float_storage[warp]).Sum(fin[t]);
    f.next()[t] = lane == 0 ? sum : 0.0f;
}

template <int LW> __device__ void scan_forms(const int* in, const float* fin, walk::Slots<int>& s, walk::Slots<float>& f) {
    using Scan = cub::WarpScan<int, LW>;
    __shared__ typename Scan::TempStorage storage[kThreads / LW];
    const int t = threadIdx.x, lane = t % LW, warp = t / LW;
    const int x = in[t];
    int y = 0, z = 0, aggregate = 0;
    auto one = [&](int value) { s.next()[t] = value; };
    auto not_lane_0 = [&](int value) { s.next()[t] = lane == 0 ? walk::kUndefined : value; };
    Scan(storage[warp]).InclusiveSum(x, y);
    one(y);
    Scan(storage[warp]).InclusiveSum(x, y, aggregate);
    one(y);
    one(aggregate);
    Scan(storage[warp]).ExclusiveSum(x, y);
    one(y);
    Scan(storage[warp]).ExclusiveSum(x, y, aggregate);
    one(y);
    one(aggregate);
    Scan(storage[warp]).InclusiveScan(x, y, walk::Last());
    one(y);
    Scan(storage[warp]).InclusiveScan(x, y, walk::Max(), aggregate);
    one(y);
    one(aggregate);
    Scan(storage[warp]).InclusiveScan(x, y, -1000, walk::Max());
    one(y);
    Scan(storage[warp]).InclusiveScan(x, y, 7, walk::Last(), aggregate);
    one(y);
    one(aggregate);
    Scan(storage[warp]).ExclusiveScan(x, y, walk::Last());
    not_lane_0(y);
    Scan(storage[warp]).ExclusiveScan(x, y, -1000, walk::Max());
    one(y);
    Scan(storage[warp]).ExclusiveScan(x, y, walk::Max(), aggregate);
    not_lane_0(y);
    one(aggregate);
    Scan(storage[warp]).ExclusiveScan(x, y, 7, walk::Last(), aggregate);
    one(y);
    one(aggregate);
    Scan(storage[warp]).Scan(x, y, z, walk::Max());
    one(y);
    not_lane_0(z);
    Scan(storage[warp]).Scan(x, y, z, 7, walk::Last());
    one(y);
    one(z);
    one(Scan(storage[warp]).Broadcast(x, 3 % LW));
    using FloatScan = cub::WarpScan<float, LW>;
    __shared__ typename FloatScan::TempStorage float_storage[kThreads / LW];
    float fy = 0.0f;
    FloatScan(float_storage[warp]).InclusiveSum(fin[t], fy);
    f.next()[t] = fy;
}

struct Registers {
    int a[kItems];
    __device__ void to(walk::Slots<int>& s) const {
        int* slot = s.next();
        for (int i = 0; i < kItems; ++i) slot[threadIdx.x * kItems + i] = a[i];
    }
};

template <int LW, cub::WarpLoadAlgorithm LOAD, cub::WarpStoreAlgorithm STORE> __device__ void io_forms(const int* in, walk::Slots<int>& s) {
    using Load = cub::WarpLoad<int, kItems, LOAD, LW>;
    using Store = cub::WarpStore<int, kItems, STORE, LW>;
    using Exchange = cub::WarpExchange<int, kItems, LW>;
    constexpr int kWarps = kThreads / LW, kWarpTile = LW * kItems, kValid = kWarpTile - 5;
    __shared__ typename Load::TempStorage load_storage[kWarps];
    __shared__ typename Store::TempStorage store_storage[kWarps];
    __shared__ typename Exchange::TempStorage exchange_storage[kWarps];
    const int t = threadIdx.x, lane = t % LW, warp = t / LW;
    const int* tile = in + warp * kWarpTile;
    Registers r, b, c;
    Load(load_storage[warp]).Load(tile, r.a);
    r.to(s);
    __syncwarp();
    for (int i = 0; i < kItems; ++i) r.a[i] = -1;
    Load(load_storage[warp]).Load(tile, r.a, kValid);
    for (int i = 0; i < kItems; ++i) {  // past the end: left as they were, or undefined after a transpose
        const int index = LOAD == cub::WARP_LOAD_STRIPED ? i * LW + lane : lane * kItems + i;
        if (LOAD == cub::WARP_LOAD_TRANSPOSE && index >= kValid) r.a[i] = walk::kUndefined;
    }
    r.to(s);
    __syncwarp();
    Load(load_storage[warp]).Load(tile, r.a, kValid, -7);
    r.to(s);
    __syncwarp();
    // The second tile; by the private storage where the algorithm needs none (a block's one private
    // TempStorage cannot serve all its warps' transposes at once).
    if constexpr (LOAD == cub::WARP_LOAD_TRANSPOSE) Load(load_storage[warp]).Load(tile + kThreads * kItems, r.a);
    else Load().Load(tile + kThreads * kItems, r.a);
    r.to(s);
    __syncwarp();
    Store(store_storage[warp]).Store(s.next() + warp * kWarpTile, r.a);
    __syncwarp();
    int* slot = s.next();
    for (int i = 0; i < kItems; ++i) slot[t * kItems + i] = -5;
    __syncthreads();
    Store(store_storage[warp]).Store(slot + warp * kWarpTile, r.a, kValid);
    __syncwarp();

    int ranks[kItems];
    for (int i = 0; i < kItems; ++i) r.a[i] = tile[lane * kItems + i];
    Exchange(exchange_storage[warp]).BlockedToStriped(r.a, b.a);
    b.to(s);
    __syncwarp();
    Exchange(exchange_storage[warp]).StripedToBlocked(b.a, c.a);
    c.to(s);
    __syncwarp();
    for (int i = 0; i < kItems; ++i) ranks[i] = (lane * kItems + i) * 5 % kWarpTile;
    Exchange(exchange_storage[warp]).ScatterToStriped(r.a, b.a, ranks);
    b.to(s);
    __syncwarp();
    for (int i = 0; i < kItems; ++i) ranks[i] = (lane * kItems + i) * 5 % kWarpTile;  // CUB may have padded them
    c = r;
    Exchange(exchange_storage[warp]).ScatterToStriped(c.a, ranks);
    c.to(s);
    __syncwarp();
    if constexpr (LW == kItems) {  // shuffles need as many items as lanes
        using Shuffle = cub::WarpExchange<int, kItems, LW, cub::WARP_EXCHANGE_SHUFFLE>;
        __shared__ typename Shuffle::TempStorage shuffle_storage[kWarps];
        Shuffle(shuffle_storage[warp]).BlockedToStriped(r.a, b.a);
        b.to(s);
        Shuffle(shuffle_storage[warp]).StripedToBlocked(b.a, c.a);
        c.to(s);
    }
    __syncthreads();
}

template <int LW, cub::WarpLoadAlgorithm LOAD, cub::WarpStoreAlgorithm STORE>
__device__ void warp_forms(const int* in, const float* fin, walk::Slots<int>& s, walk::Slots<float>& f) {
    reduce_forms<LW>(in, fin, s, f);
    scan_forms<LW>(in, fin, s, f);
    io_forms<LW, LOAD, STORE>(in, s);
}

}  // namespace

__global__ void warp_walk(const int* in, const float* fin, int* out, float* fout) {
    walk::Slots<int> s{out, kSlot};
    walk::Slots<float> f{fout, kThreads};
    warp_forms<32, cub::WARP_LOAD_DIRECT, cub::WARP_STORE_DIRECT>(in, fin, s, f);
    warp_forms<16, cub::WARP_LOAD_STRIPED, cub::WARP_STORE_STRIPED>(in, fin, s, f);
    warp_forms<8, cub::WARP_LOAD_VECTORIZE, cub::WARP_STORE_VECTORIZE>(in, fin, s, f);
    warp_forms<4, cub::WARP_LOAD_TRANSPOSE, cub::WARP_STORE_TRANSPOSE>(in, fin, s, f);
}
