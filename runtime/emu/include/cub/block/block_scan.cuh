// cub/block/block_scan.cuh on the emulated device: cub::BlockScan, every documented form: inclusive and
// exclusive, sums and any associative operator, one item or ITEMS_PER_THREAD items (blocked) per thread,
// with a block aggregate, an initial value or a block prefix callback.
//
// What CUB documents is kept: an exclusive scan without an initial value leaves thread 0's output (its
// first item's) undefined; ExclusiveSum starts from T{}; the block aggregate leaves the initial value
// and the callback's prefix out; the callback is called by every thread of the first warp with the
// aggregate, and lane 0's answer prefixes the whole block. Thread 0 scans the threads' values in thread
// order between two barriers, each thread scanning its own items left to right around that, as CUB's
// threads do: integer results are CUB's exactly; CUB combines floats across threads in a tree, so a
// float scan may differ from a GPU's in its last bits.
#pragma once

#include "../kplay_cub_detail.cuh"

namespace cub {

enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockScan {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    using Sum = kplay_detail::sum;

public:
    struct TempStorage {
        kplay_detail::slots<T, kThreads> values;  // the inputs, then their inclusive prefixes
        kplay_detail::slots<T, 1> prefix;         // what a block prefix callback returned in lane 0
    };
    BlockScan() : storage_(private_storage()), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    BlockScan(TempStorage& storage) : storage_(storage), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    // ---- one item per thread --------------------------------------------------------------------------
    void ExclusiveSum(T input, T& output) { ExclusiveScan(input, output, T{}, Sum()); }
    void ExclusiveSum(T input, T& output, T& block_aggregate) { ExclusiveScan(input, output, T{}, Sum(), block_aggregate); }
    template <typename BlockPrefixCallbackOp> void ExclusiveSum(T input, T& output, BlockPrefixCallbackOp& block_prefix_callback_op) {
        ExclusiveScan(input, output, Sum(), block_prefix_callback_op);
    }
    template <typename ScanOp> void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op) {
        T block_aggregate;
        ExclusiveScan(input, output, initial_value, scan_op, block_aggregate);
    }
    template <typename ScanOp> void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op, T& block_aggregate) {
        T inclusive, exclusive;
        scan(input, scan_op, inclusive, exclusive, block_aggregate);
        output = rank_ == 0 ? initial_value : T(scan_op(initial_value, exclusive));
    }
    template <typename ScanOp, typename BlockPrefixCallbackOp>
    void ExclusiveScan(T input, T& output, ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op) {
        T inclusive, exclusive, aggregate;
        scan(input, scan_op, inclusive, exclusive, aggregate);
        const T prefix = block_prefix(aggregate, block_prefix_callback_op);
        output = rank_ == 0 ? prefix : T(scan_op(prefix, exclusive));
    }
    template <typename ScanOp> void ExclusiveScan(T input, T& output, ScanOp scan_op) {
        T block_aggregate;
        ExclusiveScan(input, output, scan_op, block_aggregate);
    }
    // Thread 0's output is undefined (here: its input).
    template <typename ScanOp> void ExclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate) {
        T inclusive;
        scan(input, scan_op, inclusive, output, block_aggregate);
    }
    void InclusiveSum(T input, T& output) { InclusiveScan(input, output, Sum()); }
    void InclusiveSum(T input, T& output, T& block_aggregate) { InclusiveScan(input, output, Sum(), block_aggregate); }
    template <typename BlockPrefixCallbackOp> void InclusiveSum(T input, T& output, BlockPrefixCallbackOp& block_prefix_callback_op) {
        InclusiveScan(input, output, Sum(), block_prefix_callback_op);
    }
    template <typename ScanOp> void InclusiveScan(T input, T& output, ScanOp scan_op) {
        T block_aggregate;
        InclusiveScan(input, output, scan_op, block_aggregate);
    }
    template <typename ScanOp> void InclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate) {
        T exclusive;
        scan(input, scan_op, output, exclusive, block_aggregate);
    }
    template <typename ScanOp, typename BlockPrefixCallbackOp>
    void InclusiveScan(T input, T& output, ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op) {
        T inclusive, exclusive, aggregate;
        scan(input, scan_op, inclusive, exclusive, aggregate);
        output = scan_op(block_prefix(aggregate, block_prefix_callback_op), inclusive);
    }

    // ---- ITEMS_PER_THREAD items per thread, blocked: the threads' totals scanned, then each thread's items
    template <int N> void ExclusiveSum(T (&input)[N], T (&output)[N]) { ExclusiveScan(input, output, T{}, Sum()); }
    template <int N> void ExclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate) {
        ExclusiveScan(input, output, T{}, Sum(), block_aggregate);
    }
    template <int N, typename BlockPrefixCallbackOp>
    void ExclusiveSum(T (&input)[N], T (&output)[N], BlockPrefixCallbackOp& block_prefix_callback_op) {
        ExclusiveScan(input, output, Sum(), block_prefix_callback_op);
    }
    template <int N, typename ScanOp> void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp scan_op) {
        T block_aggregate;
        ExclusiveScan(input, output, initial_value, scan_op, block_aggregate);
    }
    template <int N, typename ScanOp>
    void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp scan_op, T& block_aggregate) {
        T thread_prefix;
        ExclusiveScan(kplay_detail::fold(input, scan_op), thread_prefix, initial_value, scan_op, block_aggregate);
        kplay_detail::scan_exclusive(input, output, scan_op, thread_prefix, true);
    }
    template <int N, typename ScanOp, typename BlockPrefixCallbackOp>
    void ExclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op) {
        T thread_prefix;
        ExclusiveScan(kplay_detail::fold(input, scan_op), thread_prefix, scan_op, block_prefix_callback_op);
        kplay_detail::scan_exclusive(input, output, scan_op, thread_prefix, true);
    }
    template <int N, typename ScanOp> void ExclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op) {
        T block_aggregate;
        ExclusiveScan(input, output, scan_op, block_aggregate);
    }
    // Thread 0's output[0] is undefined.
    template <int N, typename ScanOp> void ExclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, T& block_aggregate) {
        T thread_prefix;
        ExclusiveScan(kplay_detail::fold(input, scan_op), thread_prefix, scan_op, block_aggregate);
        kplay_detail::scan_exclusive(input, output, scan_op, thread_prefix, rank_ != 0);
    }
    template <int N> void InclusiveSum(T (&input)[N], T (&output)[N]) { InclusiveScan(input, output, Sum()); }
    template <int N> void InclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate) {
        InclusiveScan(input, output, Sum(), block_aggregate);
    }
    template <int N, typename BlockPrefixCallbackOp>
    void InclusiveSum(T (&input)[N], T (&output)[N], BlockPrefixCallbackOp& block_prefix_callback_op) {
        InclusiveScan(input, output, Sum(), block_prefix_callback_op);
    }
    template <int N, typename ScanOp> void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op) {
        T block_aggregate;
        InclusiveScan(input, output, scan_op, block_aggregate);
    }
    template <int N, typename ScanOp> void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, T& block_aggregate) {
        T thread_prefix;
        ExclusiveScan(kplay_detail::fold(input, scan_op), thread_prefix, scan_op, block_aggregate);
        kplay_detail::scan_inclusive(input, output, scan_op, thread_prefix, rank_ != 0);
    }
    template <int N, typename ScanOp> void InclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp scan_op) {
        T block_aggregate;
        InclusiveScan(input, output, initial_value, scan_op, block_aggregate);
    }
    template <int N, typename ScanOp>
    void InclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp scan_op, T& block_aggregate) {
        T thread_prefix;
        ExclusiveScan(kplay_detail::fold(input, scan_op), thread_prefix, initial_value, scan_op, block_aggregate);
        kplay_detail::scan_inclusive(input, output, scan_op, thread_prefix, true);
    }
    template <int N, typename ScanOp, typename BlockPrefixCallbackOp>
    void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op) {
        T thread_prefix;
        ExclusiveScan(kplay_detail::fold(input, scan_op), thread_prefix, scan_op, block_prefix_callback_op);
        kplay_detail::scan_inclusive(input, output, scan_op, thread_prefix, true);
    }

private:
    static TempStorage& private_storage() {
        static thread_local TempStorage storage;  // the block's own, as __shared__ is here
        return storage;
    }
    // The scan itself: thread 0 turns the inputs into inclusive prefixes between two barriers. Thread
    // 0's exclusive prefix is undefined (here: its input).
    template <class ScanOp> void scan(T input, ScanOp scan_op, T& inclusive, T& exclusive, T& aggregate) {
        storage_.values.set(rank_, input);
        __syncthreads();
        if (rank_ == 0)
            for (int i = 1; i < kThreads; ++i) storage_.values.set(i, scan_op(storage_.values.get(i - 1), storage_.values.get(i)));
        __syncthreads();
        inclusive = storage_.values.get(rank_);
        exclusive = rank_ > 0 ? storage_.values.get(rank_ - 1) : input;
        aggregate = storage_.values.get(kThreads - 1);
    }
    // The first warp calls the callback with the block's aggregate; lane 0's answer is every thread's prefix.
    template <class Callback> T block_prefix(T aggregate, Callback& callback) {
        if (rank_ < 32) {
            const T prefix = callback(aggregate);
            if (rank_ == 0) storage_.prefix.set(0, prefix);
        }
        __syncthreads();
        return storage_.prefix.get(0);
    }
    TempStorage& storage_;
    int rank_;
};

}  // namespace cub
