// cub/block/block_histogram.cuh on the emulated device: cub::BlockHistogram, the counts of a tile's items
// (each item is its bin's index) added to a histogram of BINS counters the caller keeps, usually in
// shared memory.
//
// InitHistogram zeroes the bins (the threads striding over them); Composite adds the tile's counts;
// Histogram is the two with a __syncthreads between, as in CUB. BLOCK_HISTO_ATOMIC adds each item with
// atomicAdd, so blocks may share a histogram in global memory; BLOCK_HISTO_SORT has each thread count
// the bins it owns (bin % THREADS) over the tile after a barrier and add each count once, as CUB's
// sorted runs do. Counts are integers: the result is CUB's exactly.
#pragma once

#include "../kplay_cub_detail.cuh"

namespace cub {

enum BlockHistogramAlgorithm { BLOCK_HISTO_SORT, BLOCK_HISTO_ATOMIC };

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS, BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockHistogram {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int kItems = kThreads * ITEMS_PER_THREAD;

public:
    struct TempStorage {
        kplay_detail::slots<T, kItems> items;
    };
    BlockHistogram() : storage_(private_storage()), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    BlockHistogram(TempStorage& storage) : storage_(storage), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    template <typename CounterT> void InitHistogram(CounterT histogram[BINS]) {
        for (int bin = rank_; bin < BINS; bin += kThreads) histogram[bin] = 0;
    }
    template <typename CounterT> void Histogram(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS]) {
        InitHistogram(histogram);
        __syncthreads();
        Composite(items, histogram);
    }
    template <typename CounterT> void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS]) {
        if constexpr (ALGORITHM == BLOCK_HISTO_ATOMIC) {
            for (int i = 0; i < ITEMS_PER_THREAD; ++i) atomicAdd(histogram + static_cast<int>(items[i]), CounterT(1));
            return;
        }
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) storage_.items.set(rank_ * ITEMS_PER_THREAD + i, items[i]);
        __syncthreads();
        for (int bin = rank_; bin < BINS; bin += kThreads) {
            int count = 0;
            for (int j = 0; j < kItems; ++j) count += static_cast<int>(storage_.items.get(j)) == bin;
            if (count) histogram[bin] += count;
        }
    }

private:
    static TempStorage& private_storage() {
        static thread_local TempStorage storage;  // the block's own, as __shared__ is here
        return storage;
    }
    TempStorage& storage_;
    int rank_;
};

}  // namespace cub
