// cub/block/block_store.cuh on the emulated device: cub::BlockStore and the Store* functions under it.
//
// The mirror of block_load.cuh: every algorithm but BLOCK_STORE_STRIPED takes a blocked arrangement and
// writes the tile in order (the transposing ones only change the order of a GPU's writes), so here they
// write the blocked items directly and their TempStorage is unused. A guarded store writes the items
// before valid_items only.
#pragma once

#include "block_load.cuh"

namespace cub {

enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
                           BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };

namespace kplay_detail {
template <class T, int N, class Output>
inline void store_items(Arrangement arrangement, int linear_tid, int threads, Output destination, const T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i) {
        const int index = item_index<N>(arrangement, linear_tid, i, threads);
        if (index < valid_items) destination[index] = items[i];
    }
}
}  // namespace kplay_detail

template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
inline void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
    kplay_detail::store_items(kplay_detail::Arrangement::blocked, linear_tid, 0, block_itr, items, kplay_detail::kAll);
}
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
inline void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    kplay_detail::store_items(kplay_detail::Arrangement::blocked, linear_tid, 0, block_itr, items, valid_items);
}
template <typename T, int ITEMS_PER_THREAD>
inline void StoreDirectBlockedVectorized(int linear_tid, T* block_ptr, T (&items)[ITEMS_PER_THREAD]) {
    StoreDirectBlocked(linear_tid, block_ptr, items);
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
inline void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
    kplay_detail::store_items(kplay_detail::Arrangement::striped, linear_tid, BLOCK_THREADS, block_itr, items, kplay_detail::kAll);
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
inline void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    kplay_detail::store_items(kplay_detail::Arrangement::striped, linear_tid, BLOCK_THREADS, block_itr, items, valid_items);
}
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
inline void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
    kplay_detail::store_items(kplay_detail::Arrangement::warp_striped, linear_tid, 0, block_itr, items, kplay_detail::kAll);
}
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
inline void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    kplay_detail::store_items(kplay_detail::Arrangement::warp_striped, linear_tid, 0, block_itr, items, valid_items);
}

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockStore {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr kplay_detail::Arrangement kArrangement =
        ALGORITHM == BLOCK_STORE_STRIPED ? kplay_detail::Arrangement::striped : kplay_detail::Arrangement::blocked;

public:
    struct TempStorage {
        unsigned char unused;
    };
    BlockStore() : linear_tid_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    BlockStore(TempStorage&) : BlockStore() {}

    template <typename OutputIteratorT> void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
        kplay_detail::store_items(kArrangement, linear_tid_, kThreads, block_itr, items, kplay_detail::kAll);
    }
    template <typename OutputIteratorT> void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
        kplay_detail::store_items(kArrangement, linear_tid_, kThreads, block_itr, items, valid_items);
    }

private:
    int linear_tid_;
};

}  // namespace cub
