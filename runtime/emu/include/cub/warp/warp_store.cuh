// cub/warp/warp_store.cuh on the emulated device: cub::WarpStore, the mirror of warp_load.cuh: a logical
// warp's blocked items (striped for WARP_STORE_STRIPED) written to its tile in order, the items before
// valid_items only where given. WARP_STORE_TRANSPOSE does it as CUB does, through a WarpExchange in its
// TempStorage and in place, so the caller's items are left striped, as on a GPU.
#pragma once

#include "../block/block_store.cuh"
#include "warp_exchange.cuh"

namespace cub {

enum WarpStoreAlgorithm { WARP_STORE_DIRECT, WARP_STORE_STRIPED, WARP_STORE_VECTORIZE, WARP_STORE_TRANSPOSE };

template <typename T, int ITEMS_PER_THREAD, WarpStoreAlgorithm ALGORITHM = WARP_STORE_DIRECT, int LOGICAL_WARP_THREADS = 32>
class WarpStore {
    static constexpr bool kTransposes = ALGORITHM == WARP_STORE_TRANSPOSE;
    static constexpr kplay_detail::Arrangement kArrangement =
        ALGORITHM == WARP_STORE_STRIPED || kTransposes ? kplay_detail::Arrangement::striped : kplay_detail::Arrangement::blocked;
    using Exchange = WarpExchange<T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>;

public:
    using TempStorage = kplay_detail::StoreStorage<kTransposes, Exchange>;
    WarpStore() : lane_(kplay_detail::hardware_lane() % LOGICAL_WARP_THREADS) {}
    WarpStore(TempStorage& storage) : WarpStore() { storage_ = &storage; }

    template <typename OutputIteratorT> void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
        arrange(items);
        kplay_detail::store_items(kArrangement, lane_, LOGICAL_WARP_THREADS, block_itr, items, kplay_detail::kAll);
    }
    template <typename OutputIteratorT> void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
        arrange(items);
        kplay_detail::store_items(kArrangement, lane_, LOGICAL_WARP_THREADS, block_itr, items, valid_items);
    }

private:
    void arrange(T (&items)[ITEMS_PER_THREAD]) {
        if constexpr (kTransposes) Exchange((storage_ ? *storage_ : private_storage()).exchange).BlockedToStriped(items, items);
    }
    static TempStorage& private_storage() {  // the block's one, shared by its warps as CUB's is
        static thread_local TempStorage storage;
        return storage;
    }
    int lane_;
    TempStorage* storage_ = nullptr;
};

}  // namespace cub
