// cub/block/block_discontinuity.cuh on the emulated device: cub::BlockDiscontinuity, which flags the items
// of a blocked tile that start (heads) or end (tails) a run, by a flag operator on each item and its
// neighbour: flag_op(a, b) or flag_op(a, b, b_index), true where they differ.
//
// As CUB documents: the tile's first item is a head and its last a tail unless a tile predecessor or
// successor item is given to compare with (thread 0's and the last thread's only). Each thread leaves
// its first and last items in the TempStorage, the block meets at __syncthreads, and each thread
// compares its edges with its neighbours'.
#pragma once

#include "../kplay_cub_detail.cuh"

namespace cub {

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockDiscontinuity {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
    struct TempStorage {
        kplay_detail::slots<T, kThreads> first_items, last_items;
    };
    BlockDiscontinuity() : storage_(private_storage()), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    BlockDiscontinuity(TempStorage& storage) : storage_(storage), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    template <int N, typename FlagT, typename FlagOp> void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], FlagOp flag_op) {
        T preds[N];
        FlagHeads(head_flags, input, preds, flag_op);
    }
    template <int N, typename FlagT, typename FlagOp>
    void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], FlagOp flag_op, T tile_predecessor_item) {
        T preds[N];
        FlagHeads(head_flags, input, preds, flag_op, tile_predecessor_item);
    }
    // With each item's predecessor handed back (thread 0's first one only where a tile predecessor is given).
    template <int N, typename FlagT, typename FlagOp>
    void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], T (&preds)[N], FlagOp flag_op) {
        share(input, false, true);
        heads(head_flags, input, preds, flag_op, nullptr);
    }
    template <int N, typename FlagT, typename FlagOp>
    void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], T (&preds)[N], FlagOp flag_op, T tile_predecessor_item) {
        share(input, false, true);
        heads(head_flags, input, preds, flag_op, &tile_predecessor_item);
    }
    template <int N, typename FlagT, typename FlagOp> void FlagTails(FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op) {
        share(input, true, false);
        tails(tail_flags, input, flag_op, nullptr);
    }
    template <int N, typename FlagT, typename FlagOp>
    void FlagTails(FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op, T tile_successor_item) {
        share(input, true, false);
        tails(tail_flags, input, flag_op, &tile_successor_item);
    }
    template <int N, typename FlagT, typename FlagOp>
    void FlagHeadsAndTails(FlagT (&head_flags)[N], FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op) {
        both(head_flags, nullptr, tail_flags, nullptr, input, flag_op);
    }
    template <int N, typename FlagT, typename FlagOp>
    void FlagHeadsAndTails(FlagT (&head_flags)[N], FlagT (&tail_flags)[N], T tile_successor_item, T (&input)[N], FlagOp flag_op) {
        both(head_flags, nullptr, tail_flags, &tile_successor_item, input, flag_op);
    }
    template <int N, typename FlagT, typename FlagOp>
    void FlagHeadsAndTails(FlagT (&head_flags)[N], T tile_predecessor_item, FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op) {
        both(head_flags, &tile_predecessor_item, tail_flags, nullptr, input, flag_op);
    }
    template <int N, typename FlagT, typename FlagOp>
    void FlagHeadsAndTails(FlagT (&head_flags)[N], T tile_predecessor_item, FlagT (&tail_flags)[N], T tile_successor_item, T (&input)[N],
                           FlagOp flag_op) {
        both(head_flags, &tile_predecessor_item, tail_flags, &tile_successor_item, input, flag_op);
    }

private:
    static TempStorage& private_storage() {
        static thread_local TempStorage storage;  // the block's own, as __shared__ is here
        return storage;
    }
    template <int N> void share(T (&input)[N], bool first, bool last) {
        if (first) storage_.first_items.set(rank_, input[0]);
        if (last) storage_.last_items.set(rank_, input[N - 1]);
        __syncthreads();
    }
    template <int N, class FlagT, class FlagOp>
    void heads(FlagT (&flags)[N], T (&input)[N], T (&preds)[N], FlagOp& flag_op, const T* tile_predecessor) {
        if (rank_ == 0 && !tile_predecessor) {
            flags[0] = 1;
        } else {
            preds[0] = rank_ == 0 ? *tile_predecessor : storage_.last_items.get(rank_ - 1);
            flags[0] = kplay_detail::flag_call(flag_op, preds[0], input[0], rank_ * N, 0);
        }
        for (int i = 1; i < N; ++i) {
            preds[i] = input[i - 1];
            flags[i] = kplay_detail::flag_call(flag_op, preds[i], input[i], rank_ * N + i, 0);
        }
    }
    template <int N, class FlagT, class FlagOp> void tails(FlagT (&flags)[N], T (&input)[N], FlagOp& flag_op, const T* tile_successor) {
        if (rank_ == kThreads - 1 && !tile_successor) {
            flags[N - 1] = 1;
        } else {
            const T next = rank_ == kThreads - 1 ? *tile_successor : storage_.first_items.get(rank_ + 1);
            flags[N - 1] = kplay_detail::flag_call(flag_op, input[N - 1], next, rank_ * N + N, 0);
        }
        for (int i = 0; i + 1 < N; ++i) flags[i] = kplay_detail::flag_call(flag_op, input[i], input[i + 1], rank_ * N + i + 1, 0);
    }
    template <int N, class FlagT, class FlagOp>
    void both(FlagT (&head_flags)[N], const T* tile_predecessor, FlagT (&tail_flags)[N], const T* tile_successor, T (&input)[N],
              FlagOp& flag_op) {
        share(input, true, true);
        T preds[N];
        heads(head_flags, input, preds, flag_op, tile_predecessor);
        tails(tail_flags, input, flag_op, tile_successor);
    }
    TempStorage& storage_;
    int rank_;
};

}  // namespace cub
