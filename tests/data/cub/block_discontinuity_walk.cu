// Every documented form of cub::BlockDiscontinuity (FlagHeads, FlagTails, FlagHeadsAndTails, with and
// without a tile predecessor and successor, with a flag operator that takes the item's index too) and
// of cub::BlockAdjacentDifference (SubtractLeft, SubtractRight, their partial-tile forms, in place), in a
// 32x2 block (BLOCK_DIM_Y = 2) with 4 items each. The flagged items are small, so many neighbours are equal.
// Each result is a slot of 256 ints in `out`, thread-major (thread t's item i at t*4+i).
#include "walk.cuh"

namespace {

constexpr int kThreads = 64, kItems = 4, kTile = kThreads * kItems;

struct Items {
    int a[kItems];
    __device__ void to(walk::Slots<int>& s) const {
        int* slot = s.next();
        for (int i = 0; i < kItems; ++i) slot[(threadIdx.x + 32 * threadIdx.y) * kItems + i] = a[i];
    }
};

__device__ void discontinuity_forms(const Items& runs, walk::Slots<int>& s) {
    using Discontinuity = cub::BlockDiscontinuity<int, 32, 2>;
    __shared__ typename Discontinuity::TempStorage storage;
    Items in = runs, heads, tails;
    Discontinuity(storage).FlagHeads(heads.a, in.a, walk::Unequal());
    heads.to(s);
    __syncthreads();
    Discontinuity(storage).FlagHeads(heads.a, in.a, walk::UnequalOrEvery17th());
    heads.to(s);
    __syncthreads();
    Discontinuity(storage).FlagHeads(heads.a, in.a, walk::Unequal(), runs.a[0]);  // thread 0's own first item: no head there
    heads.to(s);
    __syncthreads();
    Discontinuity(storage).FlagTails(tails.a, in.a, walk::Unequal());
    tails.to(s);
    __syncthreads();
    Discontinuity(storage).FlagTails(tails.a, in.a, walk::UnequalOrEvery17th(), 99);
    tails.to(s);
    __syncthreads();
    Discontinuity(storage).FlagHeadsAndTails(heads.a, tails.a, in.a, walk::Unequal());
    heads.to(s);
    tails.to(s);
    __syncthreads();
    Discontinuity(storage).FlagHeadsAndTails(heads.a, tails.a, 99, in.a, walk::Unequal());
    heads.to(s);
    tails.to(s);
    __syncthreads();
    Discontinuity(storage).FlagHeadsAndTails(heads.a, 99, tails.a, in.a, walk::UnequalOrEvery17th());
    heads.to(s);
    tails.to(s);
    __syncthreads();
    Discontinuity().FlagHeadsAndTails(heads.a, 99, tails.a, 99, in.a, walk::Unequal());  // the block's private storage
    heads.to(s);
    tails.to(s);
    __syncthreads();
}

__device__ void difference_forms(const Items& items, walk::Slots<int>& s) {
    using Adjacent = cub::BlockAdjacentDifference<int, 32, 2>;
    __shared__ typename Adjacent::TempStorage storage;
    Items in = items, o;
    Adjacent(storage).SubtractLeft(in.a, o.a, walk::Difference());
    o.to(s);
    __syncthreads();
    Adjacent(storage).SubtractLeft(in.a, o.a, walk::Difference(), 1000);
    o.to(s);
    __syncthreads();
    Adjacent(storage).SubtractLeftPartialTile(in.a, o.a, walk::Difference(), 150);
    o.to(s);
    __syncthreads();
    Adjacent(storage).SubtractLeftPartialTile(in.a, o.a, walk::Difference(), 150, 1000);
    o.to(s);
    __syncthreads();
    Adjacent(storage).SubtractLeftPartialTile(in.a, o.a, walk::Difference(), 0, 1000);  // nothing valid
    o.to(s);
    __syncthreads();
    Adjacent(storage).SubtractRight(in.a, o.a, walk::Difference());
    o.to(s);
    __syncthreads();
    Adjacent(storage).SubtractRight(in.a, o.a, walk::Difference(), 1000);
    o.to(s);
    __syncthreads();
    Adjacent(storage).SubtractRightPartialTile(in.a, o.a, walk::Difference(), 150);
    o.to(s);
    __syncthreads();
    Adjacent(storage).SubtractLeft(in.a, in.a, walk::Difference());  // in place
    in.to(s);
    __syncthreads();
    in = items;
    Adjacent().SubtractRight(in.a, in.a, walk::Difference());  // in place, the block's private storage
    in.to(s);
    __syncthreads();
}

}  // namespace

__global__ void block_discontinuity_walk(const int* in, const float* fin, int* out, float* fout) {
    walk::Slots<int> s{out, kTile};
    const int t = threadIdx.x + 32 * threadIdx.y;
    Items runs, items;
    for (int i = 0; i < kItems; ++i) {
        runs.a[i] = in[t * kItems + i] / 40;  // -2..2
        items.a[i] = in[kTile + t * kItems + i];
    }
    discontinuity_forms(runs, s);
    difference_forms(items, s);
}
