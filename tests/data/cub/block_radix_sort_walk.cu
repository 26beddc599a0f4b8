// Every documented form of cub::BlockRadixSort (Sort, SortDescending, SortBlockedToStriped,
// SortDescendingBlockedToStriped; keys alone and with values; whole keys and bit ranges) for keys of
// seven types, in a 32x2 block (BLOCK_DIM_Y = 2) with 4 items per thread, and with tuning parameters
// other than the defaults for the keys-only sorts. Integer keys come from `in`, floating-point ones from
// fin[1024] on (-0.0 and +0.0, infinities and a NaN among them). Values are each key's place in the
// input, so a sort's stability shows. Each sort writes two slots of 512 ints: its keys (each key's
// bytes over two ints, little end first) and then its values (one int each, in the first 256), in rank
// order: thread t's item i at t*4+i for blocked results, at i*64+t for striped ones.
#include "walk.cuh"

namespace {

constexpr int kThreads = 64, kItems = 4, kTile = kThreads * kItems;

template <class Key> __device__ Key make_key(const int* in, const float* fin, int index);
template <> __device__ int make_key<int>(const int* in, const float*, int index) { return in[index]; }
template <> __device__ unsigned make_key<unsigned>(const int* in, const float*, int index) { return static_cast<unsigned>(in[index]) * 2654435761u; }
template <> __device__ unsigned char make_key<unsigned char>(const int* in, const float*, int index) { return static_cast<unsigned char>(in[index]); }
template <> __device__ short make_key<short>(const int* in, const float*, int index) { return static_cast<short>(in[index] * 331); }
template <> __device__ long long make_key<long long>(const int* in, const float*, int index) { return static_cast<long long>(in[index]) * 40000000011ll; }
template <> __device__ float make_key<float>(const int*, const float* fin, int index) { return fin[1024 + index]; }
template <> __device__ double make_key<double>(const int*, const float* fin, int index) { return static_cast<double>(fin[1024 + index]) / 3.0; }

template <class Key> struct Tile {
    Key keys[kItems];
    int values[kItems];
    __device__ void load(const int* in, const float* fin) {
        for (int i = 0; i < kItems; ++i) {
            const int index = (threadIdx.x + 32 * threadIdx.y) * kItems + i;
            keys[i] = make_key<Key>(in, fin, index);
            values[i] = index;
        }
    }
    // Keys and values to the next two slots; `striped`: item i of thread t is rank i*THREADS+t.
    __device__ void to(walk::Slots<int>& s, bool striped) const {
        int* key_slot = s.next();
        int* value_slot = s.next();
        const int t = threadIdx.x + 32 * threadIdx.y;
        for (int i = 0; i < kItems; ++i) {
            const int at = striped ? i * kThreads + t : t * kItems + i;
            unsigned long long bits = 0;
            memcpy(&bits, &keys[i], sizeof(Key));
            key_slot[2 * at] = static_cast<int>(bits & 0xffffffffu);
            key_slot[2 * at + 1] = static_cast<int>(bits >> 32);
            value_slot[at] = values[i];
        }
    }
};

template <class Key> struct Sorts {
    using Sort = cub::BlockRadixSort<Key, 32, kItems, int, 4, true, cub::BLOCK_SCAN_WARP_SCANS, cudaSharedMemBankSizeFourByte, 2>;
    using KeysOnly = cub::BlockRadixSort<Key, 32, kItems, cub::NullType, 5, false, cub::BLOCK_SCAN_RAKING, cudaSharedMemBankSizeEightByte, 2>;
    struct Storage {
        typename Sort::TempStorage sort;
        typename KeysOnly::TempStorage keys;
    };
};
// One shared allocation for every key type's sorts in turn, as CUB's TempStorage may be aliased: seven
// types' storage side by side would pass the 48 KiB of static shared memory a block may have.
template <class... Keys> __host__ __device__ constexpr unsigned largest_storage() {
    unsigned most = 0;
    ((most = sizeof(typename Sorts<Keys>::Storage) > most ? sizeof(typename Sorts<Keys>::Storage) : most), ...);
    return most;
}

// `private_storage`: the last sort uses the block's private storage (a GPU has room for one type's).
template <class Key, bool private_storage>
__device__ void sort_forms(const int* in, const float* fin, walk::Slots<int>& s, unsigned char* shared) {
    using Sort = typename Sorts<Key>::Sort;
    using KeysOnly = typename Sorts<Key>::KeysOnly;
    typename Sorts<Key>::Storage& both = *reinterpret_cast<typename Sorts<Key>::Storage*>(shared);
    typename Sort::TempStorage& storage = both.sort;
    typename KeysOnly::TempStorage& keys_storage = both.keys;
    constexpr int bits = static_cast<int>(sizeof(Key) * 8);
    Tile<Key> tile;
    tile.load(in, fin);
    Sort(storage).Sort(tile.keys, tile.values);
    tile.to(s, false);
    __syncthreads();
    tile.load(in, fin);
    KeysOnly(keys_storage).Sort(tile.keys);
    tile.to(s, false);
    __syncthreads();
    tile.load(in, fin);
    Sort(storage).SortDescending(tile.keys, tile.values);
    tile.to(s, false);
    __syncthreads();
    tile.load(in, fin);
    KeysOnly(keys_storage).SortDescending(tile.keys);
    tile.to(s, false);
    __syncthreads();
    tile.load(in, fin);
    Sort(storage).SortBlockedToStriped(tile.keys, tile.values);
    tile.to(s, true);
    __syncthreads();
    tile.load(in, fin);
    KeysOnly(keys_storage).SortBlockedToStriped(tile.keys);
    tile.to(s, true);
    __syncthreads();
    tile.load(in, fin);
    Sort(storage).SortDescendingBlockedToStriped(tile.keys, tile.values);
    tile.to(s, true);
    __syncthreads();
    tile.load(in, fin);
    if constexpr (private_storage) KeysOnly().SortDescendingBlockedToStriped(tile.keys);
    else KeysOnly(keys_storage).SortDescendingBlockedToStriped(tile.keys);
    tile.to(s, true);
    __syncthreads();
    // Bit ranges: the bits [begin, end) of each key as the sort sees it (sign bits flipped).
    tile.load(in, fin);
    Sort(storage).Sort(tile.keys, tile.values, 2, bits - 3);
    tile.to(s, false);
    __syncthreads();
    tile.load(in, fin);
    KeysOnly(keys_storage).Sort(tile.keys, 1, bits / 2);
    tile.to(s, false);
    __syncthreads();
    tile.load(in, fin);
    Sort(storage).SortDescending(tile.keys, tile.values, 3, bits - 1);
    tile.to(s, false);
    __syncthreads();
    tile.load(in, fin);
    Sort(storage).SortBlockedToStriped(tile.keys, tile.values, bits / 2, bits);
    tile.to(s, true);
    __syncthreads();
    tile.load(in, fin);
    Sort(storage).SortDescendingBlockedToStriped(tile.keys, tile.values, 0, bits / 2 + 1);
    tile.to(s, true);
    __syncthreads();
}

}  // namespace

__global__ void block_radix_sort_walk(const int* in, const float* fin, int* out, float* fout) {
    __shared__ __align__(16) unsigned char shared[largest_storage<int, unsigned, unsigned char, short, long long, float, double>()];
    walk::Slots<int> s{out, 2 * kTile};
    sort_forms<int, true>(in, fin, s, shared);
    sort_forms<unsigned, false>(in, fin, s, shared);
    sort_forms<unsigned char, false>(in, fin, s, shared);
    sort_forms<short, false>(in, fin, s, shared);
    sort_forms<long long, false>(in, fin, s, shared);
    sort_forms<float, false>(in, fin, s, shared);
    sort_forms<double, false>(in, fin, s, shared);
}
