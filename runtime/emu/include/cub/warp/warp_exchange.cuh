// cub/warp/warp_exchange.cuh on the emulated device: cub::WarpExchange, a logical warp's items rearranged
// between the blocked and striped arrangements (warp_load.cuh says which is which) or scattered to ranks
// in a striped one.
//
// WARP_EXCHANGE_SMEM goes through the TempStorage, as CUB's does: each lane writes its items to their
// places, the logical warp meets at __syncwarp, and each lane reads its new items, so each logical warp
// needs a TempStorage of its own. WARP_EXCHANGE_SHUFFLE (ITEMS_PER_THREAD == LOGICAL_WARP_THREADS, a
// power of two) moves the items by shuffles, one rotation per item, and needs no memory; it has no
// scatter, as in CUB. Input and output may be one array.
#pragma once

#include "../kplay_cub_detail.cuh"

namespace cub {

enum WarpExchangeAlgorithm { WARP_EXCHANGE_SMEM, WARP_EXCHANGE_SHUFFLE };

template <typename InputT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = 32, WarpExchangeAlgorithm WARP_EXCHANGE_ALGORITHM = WARP_EXCHANGE_SMEM>
class WarpExchange {
    static constexpr int L = LOGICAL_WARP_THREADS, N = ITEMS_PER_THREAD;
    static constexpr bool kShuffle = WARP_EXCHANGE_ALGORITHM == WARP_EXCHANGE_SHUFFLE;
    static_assert(!kShuffle || (N == L && (L & (L - 1)) == 0),
                  "WARP_EXCHANGE_SHUFFLE needs ITEMS_PER_THREAD == LOGICAL_WARP_THREADS, a power of two");
    using Warp = kplay_detail::LogicalWarp<L>;

public:
    struct TempStorage {
        kplay_detail::slots<InputT, kShuffle ? 1 : N * L> items;
    };
    explicit WarpExchange(TempStorage& storage) : storage_(storage) {}

    template <typename OutputT> void BlockedToStriped(const InputT (&input_items)[N], OutputT (&output_items)[N]) {
        const Warp warp;
        if constexpr (kShuffle) {
            transpose(warp, input_items, output_items);
        } else {
            for (int i = 0; i < N; ++i) storage_.items.set(warp.lane * N + i, input_items[i]);
            warp.sync();
            for (int i = 0; i < N; ++i) output_items[i] = storage_.items.get(i * L + warp.lane);
        }
    }
    template <typename OutputT> void StripedToBlocked(const InputT (&input_items)[N], OutputT (&output_items)[N]) {
        const Warp warp;
        if constexpr (kShuffle) {
            transpose(warp, input_items, output_items);  // with N == L both are the same transpose
        } else {
            for (int i = 0; i < N; ++i) storage_.items.set(i * L + warp.lane, input_items[i]);
            warp.sync();
            for (int i = 0; i < N; ++i) output_items[i] = storage_.items.get(warp.lane * N + i);
        }
    }
    template <typename OffsetT> void ScatterToStriped(InputT (&items)[N], OffsetT (&ranks)[N]) { ScatterToStriped(items, items, ranks); }
    template <typename OutputT, typename OffsetT>
    void ScatterToStriped(const InputT (&input_items)[N], OutputT (&output_items)[N], OffsetT (&ranks)[N]) {
        static_assert(!kShuffle, "WarpExchange with WARP_EXCHANGE_SHUFFLE has no ScatterToStriped; use WARP_EXCHANGE_SMEM");
        const Warp warp;
        for (int i = 0; i < N; ++i) storage_.items.set(static_cast<int>(ranks[i]), input_items[i]);
        warp.sync();
        for (int i = 0; i < N; ++i) output_items[i] = storage_.items.get(i * L + warp.lane);
    }

private:
    // Lane l's item i becomes lane i's item l: in round r each lane sends the item the lane r below it
    // wants and takes one from the lane r above.
    template <class OutputT> static void transpose(const Warp& warp, const InputT (&input)[N], OutputT (&output)[N]) {
        InputT moved[N];
        for (int r = 0; r < N; ++r) {
            const int source = (warp.lane + r) % L;
            moved[source] = warp.from(input[(warp.lane - r + L) % L], source);
        }
        for (int i = 0; i < N; ++i) output[i] = moved[i];
    }
    TempStorage& storage_;
};

}  // namespace cub
