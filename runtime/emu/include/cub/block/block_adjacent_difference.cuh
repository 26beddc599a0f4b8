// cub/block/block_adjacent_difference.cuh on the emulated device: cub::BlockAdjacentDifference, each item
// of a blocked tile combined with its left (SubtractLeft: op(item, left)) or right neighbour
// (SubtractRight: op(item, right)).
//
// As CUB documents: the tile's first item (SubtractLeft) or last item (SubtractRight) is copied unless
// a tile predecessor or successor item is given; in a partial tile, items at valid_items and after are
// copied, and SubtractRight's last valid item too. Input and output may be one array. Each thread
// leaves its edge item in the TempStorage and the block meets at __syncthreads before neighbours read it.
#pragma once

#include "../kplay_cub_detail.cuh"

namespace cub {

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockAdjacentDifference {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int kAll = 0x7fffffff;

public:
    struct TempStorage {
        kplay_detail::slots<T, kThreads> first_items, last_items;
    };
    BlockAdjacentDifference() : storage_(private_storage()), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    BlockAdjacentDifference(TempStorage& storage)
        : storage_(storage), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    template <int N, typename OutputType, typename DifferenceOpT>
    void SubtractLeft(T (&input)[N], OutputType (&output)[N], DifferenceOpT difference_op) {
        left(input, output, difference_op, kAll, nullptr);
    }
    template <int N, typename OutputT, typename DifferenceOpT>
    void SubtractLeft(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op, T tile_predecessor_item) {
        left(input, output, difference_op, kAll, &tile_predecessor_item);
    }
    template <int N, typename OutputType, typename DifferenceOpT>
    void SubtractLeftPartialTile(T (&input)[N], OutputType (&output)[N], DifferenceOpT difference_op, int valid_items) {
        left(input, output, difference_op, valid_items, nullptr);
    }
    template <int N, typename OutputType, typename DifferenceOpT>
    void SubtractLeftPartialTile(T (&input)[N], OutputType (&output)[N], DifferenceOpT difference_op, int valid_items,
                                 T tile_predecessor_item) {
        left(input, output, difference_op, valid_items, &tile_predecessor_item);
    }
    template <int N, typename OutputT, typename DifferenceOpT>
    void SubtractRight(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op) {
        right(input, output, difference_op, kAll, nullptr);
    }
    template <int N, typename OutputT, typename DifferenceOpT>
    void SubtractRight(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op, T tile_successor_item) {
        right(input, output, difference_op, kAll, &tile_successor_item);
    }
    template <int N, typename OutputT, typename DifferenceOpT>
    void SubtractRightPartialTile(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op, int valid_items) {
        right(input, output, difference_op, valid_items, nullptr);
    }

private:
    static TempStorage& private_storage() {
        static thread_local TempStorage storage;  // the block's own, as __shared__ is here
        return storage;
    }
    // Right to left, so that an output aliasing the input still reads each left neighbour unchanged.
    template <int N, class OutputT, class Op> void left(T (&input)[N], OutputT (&output)[N], Op& op, int valid_items, const T* tile_predecessor) {
        storage_.last_items.set(rank_, input[N - 1]);
        __syncthreads();
        for (int i = N - 1; i > 0; --i) {
            if (rank_ * N + i < valid_items) output[i] = op(input[i], input[i - 1]);
            else output[i] = input[i];
        }
        if (valid_items <= rank_ * N) output[0] = input[0];
        else if (rank_ > 0) output[0] = op(input[0], storage_.last_items.get(rank_ - 1));
        else output[0] = tile_predecessor ? op(input[0], *tile_predecessor) : input[0];
    }
    // Left to right, for the same reason.
    template <int N, class OutputT, class Op> void right(T (&input)[N], OutputT (&output)[N], Op& op, int valid_items, const T* tile_successor) {
        storage_.first_items.set(rank_, input[0]);
        __syncthreads();
        if (valid_items == kAll || (rank_ + 1) * N < valid_items) {
            for (int i = 0; i + 1 < N; ++i) output[i] = op(input[i], input[i + 1]);
            if (rank_ < kThreads - 1) output[N - 1] = op(input[N - 1], storage_.first_items.get(rank_ + 1));
            else output[N - 1] = tile_successor ? op(input[N - 1], *tile_successor) : input[N - 1];
            return;
        }
        for (int i = 0; i < N; ++i) {
            if (rank_ * N + i < valid_items - 1) output[i] = op(input[i], input[i + 1]);
            else output[i] = input[i];
        }
    }
    TempStorage& storage_;
    int rank_;
};

}  // namespace cub
