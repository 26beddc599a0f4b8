// cub/block/block_load.cuh on the emulated device: cub::BlockLoad and the Load* functions under it.
//
// A blocked arrangement gives thread t the items t*N .. t*N+N-1 of the tile; a striped one gives it
// items t, t+THREADS, ...; a warp-striped one stripes each warp's 32*N items over its lanes. Every
// BlockLoad algorithm but BLOCK_LOAD_STRIPED ends in the blocked arrangement (the transposing ones read
// the same items in another order on a GPU), so here they read the blocked items directly and their
// TempStorage is unused. A guarded load (valid_items) leaves the items past the end as they were, or
// sets them to oob_default.
#pragma once

#include "../kplay_cub_detail.cuh"

namespace cub {

enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
                          BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };

namespace kplay_detail {
// Item i of the calling thread in each arrangement, for a tile of `threads` threads.
enum class Arrangement { blocked, striped, warp_striped };
template <int N> inline int item_index(Arrangement arrangement, int linear_tid, int i, int threads) {
    if (arrangement == Arrangement::striped) return linear_tid + i * threads;
    if (arrangement == Arrangement::warp_striped) return (linear_tid / 32) * 32 * N + linear_tid % 32 + i * 32;
    return linear_tid * N + i;
}
template <class T, int N, class Input>
inline void load_items(Arrangement arrangement, int linear_tid, int threads, Input source, T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i) {
        const int index = item_index<N>(arrangement, linear_tid, i, threads);
        if (index < valid_items) items[i] = source[index];
    }
}
template <class T, int N> inline void fill_items(T (&items)[N], const T& value) {
    for (int i = 0; i < N; ++i) items[i] = value;
}
constexpr int kAll = 0x7fffffff;  // no guard
}  // namespace kplay_detail

template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
inline void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD]) {
    kplay_detail::load_items(kplay_detail::Arrangement::blocked, linear_tid, 0, block_src_it, dst_items, kplay_detail::kAll);
}
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
inline void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end) {
    kplay_detail::load_items(kplay_detail::Arrangement::blocked, linear_tid, 0, block_src_it, dst_items, block_items_end);
}
template <typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
inline void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                              DefaultT oob_default) {
    kplay_detail::fill_items(dst_items, T(oob_default));
    LoadDirectBlocked(linear_tid, block_src_it, dst_items, block_items_end);
}
template <typename T, int ITEMS_PER_THREAD>
inline void LoadDirectBlockedVectorized(int linear_tid, T* block_src_ptr, T (&dst_items)[ITEMS_PER_THREAD]) {
    LoadDirectBlocked(linear_tid, block_src_ptr, dst_items);
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
inline void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD]) {
    kplay_detail::load_items(kplay_detail::Arrangement::striped, linear_tid, BLOCK_THREADS, block_src_it, dst_items, kplay_detail::kAll);
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
inline void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end) {
    kplay_detail::load_items(kplay_detail::Arrangement::striped, linear_tid, BLOCK_THREADS, block_src_it, dst_items, block_items_end);
}
template <int BLOCK_THREADS, typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
inline void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                              DefaultT oob_default) {
    kplay_detail::fill_items(dst_items, T(oob_default));
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_src_it, dst_items, block_items_end);
}
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
inline void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD]) {
    kplay_detail::load_items(kplay_detail::Arrangement::warp_striped, linear_tid, 0, block_src_it, dst_items, kplay_detail::kAll);
}
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
inline void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end) {
    kplay_detail::load_items(kplay_detail::Arrangement::warp_striped, linear_tid, 0, block_src_it, dst_items, block_items_end);
}
template <typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
inline void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                  DefaultT oob_default) {
    kplay_detail::fill_items(dst_items, T(oob_default));
    LoadDirectWarpStriped(linear_tid, block_src_it, dst_items, block_items_end);
}

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockLoad {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr kplay_detail::Arrangement kArrangement =
        ALGORITHM == BLOCK_LOAD_STRIPED ? kplay_detail::Arrangement::striped : kplay_detail::Arrangement::blocked;

public:
    struct TempStorage {
        unsigned char unused;
    };
    BlockLoad() : linear_tid_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    BlockLoad(TempStorage&) : BlockLoad() {}

    template <typename RandomAccessIterator> void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD]) {
        kplay_detail::load_items(kArrangement, linear_tid_, kThreads, block_src_it, dst_items, kplay_detail::kAll);
    }
    template <typename RandomAccessIterator>
    void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end) {
        kplay_detail::load_items(kArrangement, linear_tid_, kThreads, block_src_it, dst_items, block_items_end);
    }
    template <typename RandomAccessIterator, typename DefaultT>
    void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end, DefaultT oob_default) {
        kplay_detail::fill_items(dst_items, T(oob_default));
        Load(block_src_it, dst_items, block_items_end);
    }

private:
    int linear_tid_;
};

}  // namespace cub
