// Every documented form of cub::BlockScan, for each of its three algorithms, in a 32x4 block
// (BLOCK_DIM_Y = 4): one item per thread and four (blocked), sums and operators, with a block aggregate,
// an initial value and a running block prefix. Ints in `out`, slots of 512 (tests/emu_cub_test.cpp reads
// them in this order); two float sums in `fout`.
#include "walk.cuh"

namespace {

constexpr int kThreads = 128, kItems = 4;

template <cub::BlockScanAlgorithm ALGORITHM>
__device__ void scan_forms(const int* in, const float* fin, walk::Slots<int>& s, walk::Slots<float>& f) {
    using Scan = cub::BlockScan<int, 32, ALGORITHM, 4>;
    using FloatScan = cub::BlockScan<float, 32, ALGORITHM, 4>;
    __shared__ typename Scan::TempStorage storage;
    __shared__ typename FloatScan::TempStorage float_storage;
    const int t = threadIdx.x + 32 * threadIdx.y;
    const int x = in[t];
    int items[kItems], o[kItems];
    for (int i = 0; i < kItems; ++i) items[i] = in[kThreads + t * kItems + i];
    int y = 0, aggregate = 0;
    auto one = [&](int value) { s.next()[t] = value; };
    auto many = [&](const int (&values)[kItems]) {
        int* slot = s.next();
        for (int i = 0; i < kItems; ++i) slot[t * kItems + i] = values[i];
    };

    // One item per thread.
    Scan(storage).InclusiveSum(x, y);
    one(y);
    __syncthreads();
    Scan(storage).InclusiveSum(x, y, aggregate);
    one(y);
    one(aggregate);
    __syncthreads();
    walk::Prefix<walk::Plus> sum_prefix{1000};
    Scan(storage).InclusiveSum(x, y, sum_prefix);
    one(y);
    __syncthreads();
    Scan(storage).InclusiveSum(x, y, sum_prefix);  // the second tile: the prefix has grown by the first's total
    one(y);
    one(sum_prefix.running);  // the first warp's callbacks ran; the others' did not
    __syncthreads();
    Scan().ExclusiveSum(x, y);  // the block's private storage
    one(y);
    __syncthreads();
    Scan(storage).ExclusiveSum(x, y, aggregate);
    one(y);
    one(aggregate);
    __syncthreads();
    walk::Prefix<walk::Plus> exclusive_prefix{1000};
    Scan(storage).ExclusiveSum(x, y, exclusive_prefix);
    one(y);
    __syncthreads();
    Scan(storage).InclusiveScan(x, y, walk::Last());
    one(y);
    __syncthreads();
    Scan(storage).InclusiveScan(x, y, walk::Max(), aggregate);
    one(y);
    one(aggregate);
    __syncthreads();
    walk::Prefix<walk::Max> max_prefix{50};
    Scan(storage).InclusiveScan(x, y, walk::Max(), max_prefix);
    one(y);
    __syncthreads();
    Scan(storage).ExclusiveScan(x, y, -1000, walk::Max());
    one(y);
    __syncthreads();
    Scan(storage).ExclusiveScan(x, y, 7, walk::Last(), aggregate);
    one(y);
    one(aggregate);
    __syncthreads();
    Scan(storage).ExclusiveScan(x, y, walk::Last());
    one(t == 0 ? walk::kUndefined : y);
    __syncthreads();
    Scan(storage).ExclusiveScan(x, y, walk::Max(), aggregate);
    one(t == 0 ? walk::kUndefined : y);
    one(aggregate);
    __syncthreads();
    walk::Prefix<walk::Last> last_prefix{5};
    Scan(storage).ExclusiveScan(x, y, walk::Last(), last_prefix);
    one(y);
    __syncthreads();

    // Four items per thread.
    Scan(storage).InclusiveSum(items, o);
    many(o);
    __syncthreads();
    Scan(storage).InclusiveSum(items, o, aggregate);
    many(o);
    one(aggregate);
    __syncthreads();
    walk::Prefix<walk::Plus> items_prefix{1000};
    Scan(storage).InclusiveSum(items, o, items_prefix);
    many(o);
    __syncthreads();
    Scan(storage).ExclusiveSum(items, o);
    many(o);
    __syncthreads();
    int in_place[kItems];
    for (int i = 0; i < kItems; ++i) in_place[i] = items[i];
    Scan(storage).ExclusiveSum(in_place, in_place, aggregate);  // CUB's own block-scan example
    many(in_place);
    one(aggregate);
    __syncthreads();
    walk::Prefix<walk::Plus> exclusive_items_prefix{1000};
    Scan(storage).ExclusiveSum(items, o, exclusive_items_prefix);
    many(o);
    __syncthreads();
    Scan(storage).InclusiveScan(items, o, walk::Last());
    many(o);
    __syncthreads();
    Scan(storage).InclusiveScan(items, o, walk::Max(), aggregate);
    many(o);
    one(aggregate);
    __syncthreads();
    Scan(storage).InclusiveScan(items, o, -1000, walk::Max());
    many(o);
    __syncthreads();
    Scan(storage).InclusiveScan(items, o, 7, walk::Last(), aggregate);
    many(o);
    one(aggregate);
    __syncthreads();
    walk::Prefix<walk::Last> items_last_prefix{5};
    Scan(storage).InclusiveScan(items, o, walk::Last(), items_last_prefix);
    many(o);
    __syncthreads();
    Scan(storage).ExclusiveScan(items, o, -1000, walk::Max());
    many(o);
    __syncthreads();
    Scan(storage).ExclusiveScan(items, o, 7, walk::Last(), aggregate);
    many(o);
    one(aggregate);
    __syncthreads();
    Scan(storage).ExclusiveScan(items, o, walk::Last());
    if (t == 0) o[0] = walk::kUndefined;
    many(o);
    __syncthreads();
    Scan(storage).ExclusiveScan(items, o, walk::Max(), aggregate);
    if (t == 0) o[0] = walk::kUndefined;
    many(o);
    one(aggregate);
    __syncthreads();
    walk::Prefix<walk::Last> exclusive_last_prefix{5};
    Scan(storage).ExclusiveScan(items, o, walk::Last(), exclusive_last_prefix);
    many(o);
    __syncthreads();

    // Float sums: CUB adds across threads in a tree, so these may differ from a sequential sum in
    // their last bits.
    float fy = 0.0f, fitems[kItems], fo[kItems];
    for (int i = 0; i < kItems; ++i) fitems[i] = fin[kThreads + t * kItems + i];
    FloatScan(float_storage).InclusiveSum(fin[t], fy);
    f.next()[t] = fy;
    __syncthreads();
    FloatScan(float_storage).ExclusiveSum(fitems, fo);
    float* slot = f.next();
    for (int i = 0; i < kItems; ++i) slot[t * kItems + i] = fo[i];
}

}  // namespace

__global__ void block_scan_walk(const int* in, const float* fin, int* out, float* fout) {
    walk::Slots<int> s{out, kThreads * kItems};
    walk::Slots<float> f{fout, kThreads * kItems};
    scan_forms<cub::BLOCK_SCAN_RAKING>(in, fin, s, f);
    scan_forms<cub::BLOCK_SCAN_RAKING_MEMOIZE>(in, fin, s, f);
    scan_forms<cub::BLOCK_SCAN_WARP_SCANS>(in, fin, s, f);
}
