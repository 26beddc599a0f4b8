// Every documented form of cub::BlockReduce, for each of its algorithms, in a 16x4x2 block (BLOCK_DIM_Y
// and BLOCK_DIM_Z): Sum and Reduce of one item or four per thread, over all threads or the first 77,
// and by the block's private storage. A reduction is defined in thread 0 only, which writes each result
// to the next int of `out` (or float of `fout`).
#include "walk.cuh"

namespace {

constexpr int kThreads = 128, kItems = 4;

template <cub::BlockReduceAlgorithm ALGORITHM>
__device__ void reduce_forms(const int* in, const float* fin, walk::Slots<int>& s, walk::Slots<float>& f) {
    using Reduce = cub::BlockReduce<int, 16, ALGORITHM, 4, 2>;
    using FloatReduce = cub::BlockReduce<float, 16, ALGORITHM, 4, 2>;
    __shared__ typename Reduce::TempStorage storage;
    __shared__ typename FloatReduce::TempStorage float_storage;
    const int t = threadIdx.x + 16 * threadIdx.y + 64 * threadIdx.z;
    const int x = in[t];
    int items[kItems];
    for (int i = 0; i < kItems; ++i) items[i] = in[kThreads + t * kItems + i];
    auto result = [&](int value) {
        int* slot = s.next();
        if (t == 0) *slot = value;
    };

    result(Reduce(storage).Sum(x));
    __syncthreads();
    result(Reduce(storage).Sum(items));
    __syncthreads();
    result(Reduce(storage).Sum(x, 77));
    __syncthreads();
    result(Reduce().Sum(x));  // the block's private storage
    __syncthreads();
    result(Reduce(storage).Reduce(x, walk::Max()));
    __syncthreads();
    result(Reduce(storage).Reduce(items, walk::Max()));
    __syncthreads();
    result(Reduce(storage).Reduce(x, walk::Max(), 77));
    __syncthreads();
    if (ALGORITHM != cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY) {  // which takes commutative operators only
        result(Reduce(storage).Reduce(x, walk::Last()));
        __syncthreads();
        result(Reduce(storage).Reduce(items, walk::Last()));
        __syncthreads();
        result(Reduce(storage).Reduce(x, walk::Last(), 77));
        __syncthreads();
    } else {
        for (int i = 0; i < 3; ++i) result(walk::kUndefined);
    }

    // Floats: CUB adds in a tree, so sums may differ from a sequential one in their last bits.
    float fitems[kItems];
    for (int i = 0; i < kItems; ++i) fitems[i] = fin[kThreads + t * kItems + i];
    auto float_result = [&](float value) {
        float* slot = f.next();
        if (t == 0) *slot = value;
    };
    float_result(FloatReduce(float_storage).Sum(fin[t]));
    __syncthreads();
    float_result(FloatReduce(float_storage).Sum(fitems));
    __syncthreads();
    float_result(FloatReduce(float_storage).Sum(fin[t], 77));
    __syncthreads();
    float_result(FloatReduce(float_storage).Reduce(fitems, walk::FloatMax()));
    __syncthreads();
}

}  // namespace

__global__ void block_reduce_walk(const int* in, const float* fin, int* out, float* fout) {
    walk::Slots<int> s{out, 1};
    walk::Slots<float> f{fout, 1};
    reduce_forms<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(in, fin, s, f);
    reduce_forms<cub::BLOCK_REDUCE_RAKING>(in, fin, s, f);
    reduce_forms<cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in, fin, s, f);
}
