// cub/block/block_store.cuh on the emulated device: cub::BlockStore and the Store* functions under it.
//
// The mirror of block_load.cuh: every algorithm but BLOCK_STORE_STRIPED takes a blocked arrangement and
// writes the tile in order. The transposing ones do it as CUB does, through a BlockExchange in their
// TempStorage and in place, so the caller's items are left striped (warp-striped for the WARP_TRANSPOSE
// ones), as on a GPU: a second Store of the same items writes another order. A guarded store writes
// the items before valid_items only.
#pragma once

#include "block_exchange.cuh"
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

namespace kplay_detail {
// A BlockStore's TempStorage: a BlockExchange's for the transposing algorithms, else nothing.
template <bool transposes, class Exchange> struct StoreStorage {
    unsigned char unused;
};
template <class Exchange> struct StoreStorage<true, Exchange> {
    typename Exchange::TempStorage exchange;
};
}  // namespace kplay_detail

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockStore {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr bool kTransposes =
        ALGORITHM == BLOCK_STORE_TRANSPOSE || ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE || ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED;
    static constexpr kplay_detail::Arrangement kArrangement =
        ALGORITHM == BLOCK_STORE_STRIPED || ALGORITHM == BLOCK_STORE_TRANSPOSE ? kplay_detail::Arrangement::striped
        : kTransposes                                                          ? kplay_detail::Arrangement::warp_striped
                                                                               : kplay_detail::Arrangement::blocked;
    using Exchange = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED, BLOCK_DIM_Y, BLOCK_DIM_Z>;

public:
    using TempStorage = kplay_detail::StoreStorage<kTransposes, Exchange>;
    BlockStore() : linear_tid_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    BlockStore(TempStorage& storage) : BlockStore() { storage_ = &storage; }

    template <typename OutputIteratorT> void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
        arrange(items);
        kplay_detail::store_items(kArrangement, linear_tid_, kThreads, block_itr, items, kplay_detail::kAll);
    }
    template <typename OutputIteratorT> void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
        arrange(items);
        kplay_detail::store_items(kArrangement, linear_tid_, kThreads, block_itr, items, valid_items);
    }

private:
    // The transposing algorithms' exchange, in the caller's items (the block meets inside it).
    void arrange(T (&items)[ITEMS_PER_THREAD]) {
        if constexpr (kTransposes) {
            if (storage_) exchange(Exchange(storage_->exchange), items);
            else exchange(Exchange(), items);
        }
    }
    static void exchange(Exchange&& by, T (&items)[ITEMS_PER_THREAD]) {
        if constexpr (ALGORITHM == BLOCK_STORE_TRANSPOSE) by.BlockedToStriped(items);
        else by.BlockedToWarpStriped(items);
    }
    int linear_tid_;
    TempStorage* storage_ = nullptr;
};

}  // namespace cub
