// Every documented form of cub::BlockLoad and cub::BlockStore for each algorithm (loads and stores
// paired by algorithm), the Load/StoreDirect* functions under them, and cub::BlockExchange with and
// without warp time-slicing (the guarded and flagged scatters without it, the only way CUB has them), in a block of 64 threads with 4 items each. Every result is a slot of 256
// ints in `out`: the threads' registers, thread-major (thread t's item i at t*4+i), or the tile a store
// wrote. Where CUB leaves an item undefined the walk writes walk::kUndefined.
#include "walk.cuh"

namespace {

constexpr int kThreads = 64, kItems = 4, kTile = kThreads * kItems;

struct Registers {
    int a[kItems];
    // The registers to the next slot, thread-major.
    __device__ void to(walk::Slots<int>& s) const {
        int* slot = s.next();
        for (int i = 0; i < kItems; ++i) slot[threadIdx.x * kItems + i] = a[i];
    }
    __device__ void fill(int value) {
        for (int i = 0; i < kItems; ++i) a[i] = value;
    }
};

// The next slot, each of its elements `value` (the block meets before anyone stores into it).
__device__ int* filled_slot(walk::Slots<int>& s, int value) {
    int* slot = s.next();
    for (int i = 0; i < kItems; ++i) slot[threadIdx.x * kItems + i] = value;
    __syncthreads();
    return slot;
}

template <cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE> __device__ void load_store_forms(const int* in, walk::Slots<int>& s) {
    using Load = cub::BlockLoad<int, kThreads, kItems, LOAD>;
    using Store = cub::BlockStore<int, kThreads, kItems, STORE>;
    __shared__ typename Load::TempStorage load_storage;
    __shared__ typename Store::TempStorage store_storage;
    const int t = threadIdx.x;
    const bool transposing = LOAD == cub::BLOCK_LOAD_TRANSPOSE || LOAD == cub::BLOCK_LOAD_WARP_TRANSPOSE ||
                             LOAD == cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;
    Registers r;
    Load(load_storage).Load(in, r.a);
    r.to(s);
    __syncthreads();
    r.fill(-1);
    Load(load_storage).Load(in, r.a, 200);
    for (int i = 0; i < kItems; ++i) {  // past the end: left as they were, or undefined after a transpose
        const int index = LOAD == cub::BLOCK_LOAD_STRIPED ? i * kThreads + t : t * kItems + i;
        if (transposing && index >= 200) r.a[i] = walk::kUndefined;
    }
    r.to(s);
    __syncthreads();
    Load(load_storage).Load(in, r.a, 200, -7);
    r.to(s);
    __syncthreads();
    Load().Load(in + kTile, r.a);  // the block's private storage, the second tile
    r.to(s);
    __syncthreads();
    Store(store_storage).Store(s.next(), r.a);
    __syncthreads();
    Store(store_storage).Store(filled_slot(s, -5), r.a, 150);
    __syncthreads();
    Store().Store(s.next(), r.a);
    __syncthreads();
}

__device__ void direct_forms(const int* in, walk::Slots<int>& s) {
    const int t = threadIdx.x;
    Registers r;
    cub::LoadDirectBlocked(t, in, r.a);
    r.to(s);
    r.fill(-1);
    cub::LoadDirectBlocked(t, in, r.a, 200);
    r.to(s);
    cub::LoadDirectBlocked(t, in, r.a, 200, -7);
    r.to(s);
    cub::LoadDirectBlockedVectorized(t, const_cast<int*>(in) + kTile, r.a);
    r.to(s);
    cub::LoadDirectStriped<kThreads>(t, in, r.a);
    r.to(s);
    r.fill(-1);
    cub::LoadDirectStriped<kThreads>(t, in, r.a, 200);
    r.to(s);
    cub::LoadDirectStriped<kThreads>(t, in, r.a, 200, -7);
    r.to(s);
    cub::LoadDirectWarpStriped(t, in, r.a);
    r.to(s);
    r.fill(-1);
    cub::LoadDirectWarpStriped(t, in, r.a, 200);
    r.to(s);
    cub::LoadDirectWarpStriped(t, in, r.a, 200, -7);
    r.to(s);
    cub::LoadDirectBlocked(t, in + kTile, r.a);
    cub::StoreDirectBlocked(t, s.next(), r.a);
    cub::StoreDirectBlocked(t, filled_slot(s, -5), r.a, 150);
    cub::StoreDirectBlockedVectorized(t, s.next(), r.a);
    cub::StoreDirectStriped<kThreads>(t, s.next(), r.a);
    cub::StoreDirectStriped<kThreads>(t, filled_slot(s, -5), r.a, 150);
    cub::StoreDirectWarpStriped(t, s.next(), r.a);
    cub::StoreDirectWarpStriped(t, filled_slot(s, -5), r.a, 150);
    __syncthreads();
}

// Where striped place p got its item from, in the scatters below: rank = index * 37 mod 256, and
// 173 * 37 = 1 mod 256.
__device__ int scattered_from(int place) { return (place * 173) & (kTile - 1); }

template <bool TIME_SLICING> __device__ void exchange_forms(const int* in, walk::Slots<int>& s) {
    using Exchange = cub::BlockExchange<int, kThreads, kItems, TIME_SLICING>;
    __shared__ typename Exchange::TempStorage storage;
    const int t = threadIdx.x;
    Registers blocked, b, c;
    int ranks[kItems], guarded[kItems];
    bool valid[kItems];
    for (int i = 0; i < kItems; ++i) {
        const int index = t * kItems + i;
        blocked.a[i] = in[index];
        ranks[i] = (index * 37) & (kTile - 1);
        guarded[i] = index % 5 == 0 ? -1 : ranks[i];
        valid[i] = index % 3 != 0;
    }
    Exchange(storage).BlockedToStriped(blocked.a, b.a);
    b.to(s);
    __syncthreads();
    Exchange(storage).StripedToBlocked(b.a, c.a);
    c.to(s);
    __syncthreads();
    Exchange(storage).BlockedToWarpStriped(blocked.a, b.a);
    b.to(s);
    __syncthreads();
    Exchange(storage).WarpStripedToBlocked(b.a, c.a);
    c.to(s);
    __syncthreads();
    Exchange(storage).ScatterToBlocked(blocked.a, b.a, ranks);
    b.to(s);
    __syncthreads();
    Exchange(storage).ScatterToStriped(blocked.a, b.a, ranks);
    b.to(s);
    __syncthreads();
    // CUB's guarded and flagged scatters write the whole tile into the TempStorage, which time-slicing
    // sizes for one slice: on a GPU an out-of-bounds shared write (the emulated device refuses them).
    if constexpr (!TIME_SLICING) {
        Exchange(storage).ScatterToStripedGuarded(blocked.a, b.a, guarded);
        for (int i = 0; i < kItems; ++i)  // places no item was scattered to hold whatever was there
            if (scattered_from(i * kThreads + t) % 5 == 0) b.a[i] = walk::kUndefined;
        b.to(s);
        __syncthreads();
        Exchange(storage).ScatterToStripedFlagged(blocked.a, b.a, ranks, valid);
        for (int i = 0; i < kItems; ++i)
            if (scattered_from(i * kThreads + t) % 3 == 0) b.a[i] = walk::kUndefined;
        b.to(s);
        __syncthreads();
    }
    c = blocked;
    Exchange(storage).BlockedToStriped(c.a);
    c.to(s);
    __syncthreads();
    Exchange(storage).StripedToBlocked(c.a);
    c.to(s);
    __syncthreads();
    Exchange(storage).ScatterToBlocked(c.a, ranks);
    c.to(s);
    __syncthreads();
    Exchange().BlockedToWarpStriped(blocked.a, b.a);  // the block's private storage
    b.to(s);
    __syncthreads();
}

}  // namespace

__global__ void block_io_walk(const int* in, const float* fin, int* out, float* fout) {
    walk::Slots<int> s{out, kTile};
    load_store_forms<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(in, s);
    load_store_forms<cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>(in, s);
    load_store_forms<cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>(in, s);
    load_store_forms<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(in, s);
    load_store_forms<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(in, s);
    load_store_forms<cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>(in, s);
    direct_forms(in, s);
    exchange_forms<false>(in, s);
    exchange_forms<true>(in, s);
}
