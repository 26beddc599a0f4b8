// cub/warp/warp_load.cuh on the emulated device: cub::WarpLoad, a logical warp's tile of
// LOGICAL_WARP_THREADS * ITEMS_PER_THREAD items read into a blocked arrangement (lane l holds items
// l*N .. l*N+N-1), or a striped one for WARP_LOAD_STRIPED (lane l holds items l, l+L, ...). As with
// BlockLoad, the transposing algorithm ends where the direct one does, so it reads the blocked items
// directly and the TempStorage is unused; a guarded load leaves items past valid_items as they were, or
// sets them to oob_default.
#pragma once

#include "../block/block_load.cuh"

namespace cub {

enum WarpLoadAlgorithm { WARP_LOAD_DIRECT, WARP_LOAD_STRIPED, WARP_LOAD_VECTORIZE, WARP_LOAD_TRANSPOSE };

template <typename InputT, int ITEMS_PER_THREAD, WarpLoadAlgorithm ALGORITHM = WARP_LOAD_DIRECT, int LOGICAL_WARP_THREADS = 32>
class WarpLoad {
    static constexpr kplay_detail::Arrangement kArrangement =
        ALGORITHM == WARP_LOAD_STRIPED ? kplay_detail::Arrangement::striped : kplay_detail::Arrangement::blocked;

public:
    struct TempStorage {
        unsigned char unused;
    };
    WarpLoad() : lane_(kplay_detail::hardware_lane() % LOGICAL_WARP_THREADS) {}
    WarpLoad(TempStorage&) : WarpLoad() {}

    template <typename InputIteratorT> void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD]) {
        kplay_detail::load_items(kArrangement, lane_, LOGICAL_WARP_THREADS, block_itr, items, kplay_detail::kAll);
    }
    template <typename InputIteratorT> void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items) {
        kplay_detail::load_items(kArrangement, lane_, LOGICAL_WARP_THREADS, block_itr, items, valid_items);
    }
    template <typename InputIteratorT, typename DefaultT>
    void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items, DefaultT oob_default) {
        kplay_detail::fill_items(items, InputT(oob_default));
        Load(block_itr, items, valid_items);
    }

private:
    int lane_;
};

}  // namespace cub
