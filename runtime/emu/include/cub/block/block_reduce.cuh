// cub/block/block_reduce.cuh on the emulated device: cub::BlockReduce, a reduction over the block of one
// value or ITEMS_PER_THREAD values per thread, over the first num_valid threads where given.
//
// Thread 0 folds the threads' values in thread order (each thread's own items first, left to right).
// For integers that is CUB's result exactly, whatever the algorithm; CUB combines floats in a tree
// (per warp, then across warps or rakes), so a float sum may differ from a GPU's in its last bits. As in
// CUB, the result is defined in thread 0 only.
#pragma once

#include "../kplay_cub_detail.cuh"

namespace cub {

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS,
                            BLOCK_REDUCE_WARP_REDUCTIONS_NONDETERMINISTIC };

template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockReduce {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
    struct TempStorage {
        kplay_detail::slots<T, kThreads> values;
    };
    BlockReduce() : storage_(private_storage()) {}
    BlockReduce(TempStorage& storage) : storage_(storage) {}

    template <typename ReductionOp> T Reduce(T input, ReductionOp reduction_op) { return Reduce(input, reduction_op, kThreads); }
    template <int ITEMS_PER_THREAD, typename ReductionOp> T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp reduction_op) {
        return Reduce(kplay_detail::fold(inputs, reduction_op), reduction_op, kThreads);
    }
    template <typename ReductionOp> T Reduce(T input, ReductionOp reduction_op, int num_valid) {
        const int rank = kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>();
        if (rank < num_valid) storage_.values.set(rank, input);
        __syncthreads();
        if (rank != 0) return input;
        T total = storage_.values.get(0);
        for (int i = 1; i < num_valid && i < kThreads; ++i) total = reduction_op(total, storage_.values.get(i));
        return total;
    }
    T Sum(T input) { return Reduce(input, kplay_detail::sum()); }
    template <int ITEMS_PER_THREAD> T Sum(T (&inputs)[ITEMS_PER_THREAD]) { return Reduce(inputs, kplay_detail::sum()); }
    T Sum(T input, int num_valid) { return Reduce(input, kplay_detail::sum(), num_valid); }

private:
    static TempStorage& private_storage() {
        static thread_local TempStorage storage;  // the block's own, as __shared__ is here
        return storage;
    }
    TempStorage& storage_;
};

}  // namespace cub
