// cub/warp/warp_store.cuh on the emulated device: cub::WarpStore, the mirror of warp_load.cuh: a logical
// warp's blocked items (striped for WARP_STORE_STRIPED) written to its tile in order, the items before
// valid_items only where given. The TempStorage is unused.
#pragma once

#include "../block/block_store.cuh"

namespace cub {

enum WarpStoreAlgorithm { WARP_STORE_DIRECT, WARP_STORE_STRIPED, WARP_STORE_VECTORIZE, WARP_STORE_TRANSPOSE };

template <typename T, int ITEMS_PER_THREAD, WarpStoreAlgorithm ALGORITHM = WARP_STORE_DIRECT, int LOGICAL_WARP_THREADS = 32>
class WarpStore {
    static constexpr kplay_detail::Arrangement kArrangement =
        ALGORITHM == WARP_STORE_STRIPED ? kplay_detail::Arrangement::striped : kplay_detail::Arrangement::blocked;

public:
    struct TempStorage {
        unsigned char unused;
    };
    WarpStore() : lane_(kplay_detail::hardware_lane() % LOGICAL_WARP_THREADS) {}
    WarpStore(TempStorage&) : WarpStore() {}

    template <typename OutputIteratorT> void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
        kplay_detail::store_items(kArrangement, lane_, LOGICAL_WARP_THREADS, block_itr, items, kplay_detail::kAll);
    }
    template <typename OutputIteratorT> void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
        kplay_detail::store_items(kArrangement, lane_, LOGICAL_WARP_THREADS, block_itr, items, valid_items);
    }

private:
    int lane_;
};

}  // namespace cub
