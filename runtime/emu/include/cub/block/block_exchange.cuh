// cub/block/block_exchange.cuh on the emulated device: cub::BlockExchange, which rearranges a tile's items
// between the blocked, striped and warp-striped arrangements (block_load.cuh says which is which) or
// scatters them to ranks. Each thread writes its items to their places in the TempStorage, the block
// meets at __syncthreads, and each thread reads its new items; input and output may be one array.
// WARP_TIME_SLICING only saves a GPU shared memory and changes no result, except where CUB's own
// scatters overrun its smaller storage (refused below).
#pragma once

#include "../kplay_cub_detail.cuh"

// Why a guarded or flagged scatter is refused with warp time-slicing (see the two functions).
#define KPLAY_CUB_TIME_SLICED_SCATTER                                                                                   \
    "cub::BlockExchange's ScatterToStripedGuarded and ScatterToStripedFlagged write the whole tile into the "          \
    "TempStorage, which WARP_TIME_SLICING=true sizes for one warp's slice: on a GPU an out-of-bounds shared-memory " \
    "write. Use BlockExchange without time-slicing (its default) for these scatters"

namespace cub {

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockExchange {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int kWarpThreads = kThreads < 32 ? kThreads : 32;  // a warp-striped stripe
    static constexpr int kWarps = (kThreads + 31) / 32;
    static constexpr int kItems = kThreads * ITEMS_PER_THREAD;
    static constexpr int kRoom = kItems > kWarps * 32 * ITEMS_PER_THREAD ? kItems : kWarps * 32 * ITEMS_PER_THREAD;

public:
    struct TempStorage {
        kplay_detail::slots<T, kRoom> items;
    };
    BlockExchange() : storage_(private_storage()), linear_tid_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    BlockExchange(TempStorage& storage) : storage_(storage), linear_tid_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    template <typename OutputT> void StripedToBlocked(const T (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD]) {
        exchange(input_items, output_items, &BlockExchange::striped, &BlockExchange::blocked, All());
    }
    template <typename OutputT> void BlockedToStriped(const T (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD]) {
        exchange(input_items, output_items, &BlockExchange::blocked, &BlockExchange::striped, All());
    }
    template <typename OutputT>
    void WarpStripedToBlocked(const T (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD]) {
        exchange(input_items, output_items, &BlockExchange::warp_striped, &BlockExchange::blocked, All());
    }
    template <typename OutputT>
    void BlockedToWarpStriped(const T (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD]) {
        exchange(input_items, output_items, &BlockExchange::blocked, &BlockExchange::warp_striped, All());
    }
    template <typename OutputT, typename OffsetT>
    void ScatterToBlocked(const T (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        scatter(input_items, output_items, ranks, &BlockExchange::blocked, All());
    }
    template <typename OutputT, typename OffsetT>
    void ScatterToStriped(const T (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        scatter(input_items, output_items, ranks, &BlockExchange::striped, All());
    }
    // Items whose rank is negative are left out (their places keep what was there). CUB writes these two
    // scatters' whole tile into a TempStorage that WARP_TIME_SLICING sizes for one slice, an
    // out-of-bounds shared write on a GPU, so they are refused with it.
    template <typename OutputT, typename OffsetT>
    void ScatterToStripedGuarded(const T (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD],
                                 OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        static_assert(!WARP_TIME_SLICING && sizeof(OffsetT) > 0, KPLAY_CUB_TIME_SLICED_SCATTER);
        scatter(input_items, output_items, ranks, &BlockExchange::striped, NonNegative<OffsetT>{ranks});
    }
    template <typename OutputT, typename OffsetT, typename ValidFlag>
    void ScatterToStripedFlagged(const T (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD],
                                 OffsetT (&ranks)[ITEMS_PER_THREAD], ValidFlag (&is_valid)[ITEMS_PER_THREAD]) {
        static_assert(!WARP_TIME_SLICING && sizeof(OffsetT) > 0, KPLAY_CUB_TIME_SLICED_SCATTER);
        scatter(input_items, output_items, ranks, &BlockExchange::striped, Flagged<ValidFlag>{is_valid});
    }

    // In place.
    void StripedToBlocked(T (&items)[ITEMS_PER_THREAD]) { StripedToBlocked(items, items); }
    void BlockedToStriped(T (&items)[ITEMS_PER_THREAD]) { BlockedToStriped(items, items); }
    void WarpStripedToBlocked(T (&items)[ITEMS_PER_THREAD]) { WarpStripedToBlocked(items, items); }
    void BlockedToWarpStriped(T (&items)[ITEMS_PER_THREAD]) { BlockedToWarpStriped(items, items); }
    template <typename OffsetT> void ScatterToBlocked(T (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        ScatterToBlocked(items, items, ranks);
    }
    template <typename OffsetT> void ScatterToStriped(T (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        ScatterToStriped(items, items, ranks);
    }
    template <typename OffsetT> void ScatterToStripedGuarded(T (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        ScatterToStripedGuarded(items, items, ranks);
    }
    template <typename OffsetT, typename ValidFlag>
    void ScatterToStripedFlagged(T (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD], ValidFlag (&is_valid)[ITEMS_PER_THREAD]) {
        ScatterToStripedFlagged(items, items, ranks, is_valid);
    }

private:
    struct All {
        bool operator()(int) const { return true; }
    };
    template <class OffsetT> struct NonNegative {
        OffsetT (&ranks)[ITEMS_PER_THREAD];
        bool operator()(int i) const { return ranks[i] >= 0; }
    };
    template <class ValidFlag> struct Flagged {
        ValidFlag (&is_valid)[ITEMS_PER_THREAD];
        bool operator()(int i) const { return static_cast<bool>(is_valid[i]); }
    };
    // Where the calling thread's item i sits in each arrangement of the tile.
    int blocked(int i) const { return linear_tid_ * ITEMS_PER_THREAD + i; }
    int striped(int i) const { return i * kThreads + linear_tid_; }
    int warp_striped(int i) const {
        return (linear_tid_ / 32) * kWarpThreads * ITEMS_PER_THREAD + i * kWarpThreads + linear_tid_ % 32;
    }
    template <class OutputT, class Keep>
    void exchange(const T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD], int (BlockExchange::*from)(int) const,
                  int (BlockExchange::*to)(int) const, Keep keep) {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
            if (keep(i)) storage_.items.set((this->*from)(i), input[i]);
        __syncthreads();
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) output[i] = storage_.items.get((this->*to)(i));
    }
    template <class OutputT, class OffsetT, class Keep>
    void scatter(const T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD],
                 int (BlockExchange::*to)(int) const, Keep keep) {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
            if (keep(i)) storage_.items.set(static_cast<int>(ranks[i]), input[i]);
        __syncthreads();
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) output[i] = storage_.items.get((this->*to)(i));
    }
    static TempStorage& private_storage() {
        static thread_local TempStorage storage;  // the block's own, as __shared__ is here
        return storage;
    }
    TempStorage& storage_;
    int linear_tid_;
};

}  // namespace cub
