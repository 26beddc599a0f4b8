// kplay_cub.cuh: CUB's block and warp primitives on the emulated device, written from CUB's documented
// API (CCCL 3): BlockReduce, BlockScan, BlockLoad, BlockStore, WarpReduce and WarpScan, each with its
// TempStorage, for one item or ITEMS_PER_THREAD per thread. The headers that name them
// (<cub/block/block_reduce.cuh>, ..., <cub/cub.cuh>) include this file. The device-wide algorithms
// (cub::DeviceReduce and kin) launch kernels from the host and are refused by name, as is every other
// CUB header (kplay's source scan, emu_source.cpp).
//
// A block collective writes each thread's value to its TempStorage, meets at __syncthreads, and one
// thread folds the values in thread order, so its result is the same in every thread order; as in CUB,
// a reduction's result is defined in thread 0 only, and a TempStorage reused needs a __syncthreads first.
// The warp collectives are cooperative-groups tiles of LOGICAL_WARP_THREADS lanes (shuffles).
#pragma once

#include "../cooperative_groups.h"

namespace cub {

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS,
                            BLOCK_REDUCE_WARP_REDUCTIONS_NONDETERMINISTIC };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
                          BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
                           BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };

namespace kplay_detail {
struct sum {
    template <class T> T operator()(const T& a, const T& b) const { return a + b; }
};
inline unsigned thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
// Room for n values of T without constructing them: a __shared__ TempStorage needs no constructor.
template <class T, int n> struct slots {
    alignas(T) unsigned char bytes[sizeof(T) * n];
    T get(int i) const {
        T value;
        __builtin_memcpy(&value, bytes + sizeof(T) * i, sizeof(T));
        return value;
    }
    void set(int i, const T& value) { __builtin_memcpy(bytes + sizeof(T) * i, &value, sizeof(T)); }
};
template <class T, int N, class Op> inline T fold(const T (&items)[N], Op op) {
    T total = items[0];
    for (int i = 1; i < N; ++i) total = op(total, items[i]);
    return total;
}
}  // namespace kplay_detail

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockReduce {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
    struct TempStorage {
        kplay_detail::slots<T, kThreads> values;
    };
    BlockReduce() : storage_(private_storage()) {}
    explicit BlockReduce(TempStorage& storage) : storage_(storage) {}

    template <class ReductionOp> T Reduce(T input, ReductionOp op) { return Reduce(input, op, kThreads); }
    // Over the first num_valid threads' inputs.
    template <class ReductionOp> T Reduce(T input, ReductionOp op, int num_valid) {
        const int rank = static_cast<int>(kplay_detail::thread_rank());
        storage_.values.set(rank, input);
        __syncthreads();
        if (rank != 0) return input;
        T total = storage_.values.get(0);
        for (int i = 1; i < num_valid && i < kThreads; ++i) total = op(total, storage_.values.get(i));
        return total;
    }
    template <int ITEMS_PER_THREAD, class ReductionOp> T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp op) {
        return Reduce(kplay_detail::fold(inputs, op), op);
    }
    T Sum(T input) { return Reduce(input, kplay_detail::sum()); }
    T Sum(T input, int num_valid) { return Reduce(input, kplay_detail::sum(), num_valid); }
    template <int ITEMS_PER_THREAD> T Sum(T (&inputs)[ITEMS_PER_THREAD]) { return Reduce(inputs, kplay_detail::sum()); }

private:
    static TempStorage& private_storage() {
        static thread_local TempStorage storage;  // the block's own, as CUB's default constructor gives one
        return storage;
    }
    TempStorage& storage_;
};

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockScan {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
    struct TempStorage {
        kplay_detail::slots<T, kThreads> values;  // the inputs, then their inclusive prefixes
        kplay_detail::slots<T, 1> prefix;         // what a block prefix callback returned
    };
    BlockScan() : storage_(private_storage()) {}
    explicit BlockScan(TempStorage& storage) : storage_(storage) {}

    void InclusiveSum(T input, T& output) { InclusiveScan(input, output, kplay_detail::sum()); }
    void InclusiveSum(T input, T& output, T& block_aggregate) { InclusiveScan(input, output, kplay_detail::sum(), block_aggregate); }
    template <class Callback> void InclusiveSum(T input, T& output, Callback& prefix_op) {
        InclusiveScan(input, output, kplay_detail::sum(), prefix_op);
    }
    void ExclusiveSum(T input, T& output) { ExclusiveScan(input, output, T(), kplay_detail::sum()); }
    void ExclusiveSum(T input, T& output, T& block_aggregate) { ExclusiveScan(input, output, T(), kplay_detail::sum(), block_aggregate); }
    template <class Callback> void ExclusiveSum(T input, T& output, Callback& prefix_op) {
        ExclusiveScan(input, output, kplay_detail::sum(), prefix_op);
    }

    template <class ScanOp> void InclusiveScan(T input, T& output, ScanOp op) {
        T aggregate;
        InclusiveScan(input, output, op, aggregate);
    }
    template <class ScanOp> void InclusiveScan(T input, T& output, ScanOp op, T& block_aggregate) {
        T exclusive;
        scan(input, op, output, exclusive, block_aggregate);
    }
    template <class ScanOp, class Callback, class = decltype(static_cast<Callback*>(nullptr)->operator()(T()))>
    void InclusiveScan(T input, T& output, ScanOp op, Callback& prefix_op) {
        T exclusive, aggregate;
        scan(input, op, output, exclusive, aggregate);
        const T prefix = block_prefix(aggregate, prefix_op);
        output = op(prefix, output);
    }
    // Without an initial value, thread 0's output is undefined (here: its input).
    template <class ScanOp> void ExclusiveScan(T input, T& output, ScanOp op) {
        T aggregate;
        ExclusiveScan(input, output, op, aggregate);
    }
    template <class ScanOp, class = decltype(static_cast<ScanOp*>(nullptr)->operator()(T(), T()))>
    void ExclusiveScan(T input, T& output, ScanOp op, T& block_aggregate) {
        T inclusive;
        scan(input, op, inclusive, output, block_aggregate);
        if (kplay_detail::thread_rank() == 0) output = input;
    }
    template <class ScanOp> void ExclusiveScan(T input, T& output, T initial_value, ScanOp op) {
        T aggregate;
        ExclusiveScan(input, output, initial_value, op, aggregate);
    }
    template <class ScanOp> void ExclusiveScan(T input, T& output, T initial_value, ScanOp op, T& block_aggregate) {
        T inclusive, exclusive;
        scan(input, op, inclusive, exclusive, block_aggregate);
        output = kplay_detail::thread_rank() == 0 ? initial_value : op(initial_value, exclusive);
    }
    template <class ScanOp, class Callback, class = decltype(static_cast<Callback*>(nullptr)->operator()(T()))>
    void ExclusiveScan(T input, T& output, ScanOp op, Callback& prefix_op) {
        T inclusive, exclusive, aggregate;
        scan(input, op, inclusive, exclusive, aggregate);
        const T prefix = block_prefix(aggregate, prefix_op);
        output = kplay_detail::thread_rank() == 0 ? prefix : op(prefix, exclusive);
    }

    // ITEMS_PER_THREAD consecutive items per thread (blocked arrangement).
    template <int N> void InclusiveSum(T (&input)[N], T (&output)[N]) { InclusiveScan(input, output, kplay_detail::sum()); }
    template <int N> void ExclusiveSum(T (&input)[N], T (&output)[N]) { ExclusiveScan(input, output, T(), kplay_detail::sum()); }
    template <int N, class ScanOp> void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp op) {
        T thread_prefix;
        ExclusiveScan(kplay_detail::fold(input, op), thread_prefix, op);
        const bool first = kplay_detail::thread_rank() == 0;
        for (int i = 0; i < N; ++i) output[i] = i == 0 ? (first ? input[0] : op(thread_prefix, input[0])) : op(output[i - 1], input[i]);
    }
    template <int N, class ScanOp> void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp op) {
        T running;
        ExclusiveScan(kplay_detail::fold(input, op), running, initial_value, op);
        for (int i = 0; i < N; ++i) {
            const T item = input[i];
            output[i] = running;
            running = op(running, item);
        }
    }

private:
    static TempStorage& private_storage() {
        static thread_local TempStorage storage;
        return storage;
    }
    // The scan itself: thread 0 turns the inputs into inclusive prefixes between two barriers.
    template <class ScanOp> void scan(T input, ScanOp op, T& inclusive, T& exclusive, T& aggregate) {
        const int rank = static_cast<int>(kplay_detail::thread_rank());
        storage_.values.set(rank, input);
        __syncthreads();
        if (rank == 0)
            for (int i = 1; i < kThreads; ++i) storage_.values.set(i, op(storage_.values.get(i - 1), storage_.values.get(i)));
        __syncthreads();
        inclusive = storage_.values.get(rank);
        exclusive = rank > 0 ? storage_.values.get(rank - 1) : input;
        aggregate = storage_.values.get(kThreads - 1);
    }
    // The first warp calls the callback with the block's aggregate; lane 0's answer is every thread's prefix.
    template <class Callback> T block_prefix(T aggregate, Callback& prefix_op) {
        const unsigned rank = kplay_detail::thread_rank();
        __syncthreads();  // every thread has read the prefixes before the slot is written
        if (rank < 32) {
            const T prefix = prefix_op(aggregate);
            if (rank == 0) storage_.prefix.set(0, prefix);
        }
        __syncthreads();
        return storage_.prefix.get(0);
    }
    TempStorage& storage_;
};

// ---- warps ------------------------------------------------------------------------------------------------
template <class T, int LOGICAL_WARP_THREADS = 32>
class WarpReduce {
    typedef cooperative_groups::thread_block_tile<LOGICAL_WARP_THREADS> Tile;

public:
    struct TempStorage {
        unsigned char unused;  // the shuffles need no memory
    };
    explicit WarpReduce(TempStorage&) {}

    // Over the first valid_items lanes of the logical warp; defined in its lane 0.
    template <class ReductionOp> T Reduce(T input, ReductionOp op, int valid_items = LOGICAL_WARP_THREADS) {
        const Tile tile = cooperative_groups::tiled_partition<LOGICAL_WARP_THREADS>(cooperative_groups::this_thread_block());
        const unsigned lane = static_cast<unsigned>(tile.thread_rank());
        for (unsigned offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
            const T other = tile.shfl_down(input, offset);
            if (lane % (2 * offset) == 0 && lane + offset < static_cast<unsigned>(valid_items)) input = op(input, other);
        }
        return input;
    }
    T Sum(T input) { return Reduce(input, kplay_detail::sum()); }
    T Sum(T input, int valid_items) { return Reduce(input, kplay_detail::sum(), valid_items); }
};

template <class T, int LOGICAL_WARP_THREADS = 32>
class WarpScan {
    typedef cooperative_groups::thread_block_tile<LOGICAL_WARP_THREADS> Tile;

public:
    struct TempStorage {
        unsigned char unused;
    };
    explicit WarpScan(TempStorage&) {}

    template <class ScanOp> void InclusiveScan(T input, T& inclusive_output, ScanOp op) {
        const Tile tile = tile_of_this_lane();
        const unsigned lane = static_cast<unsigned>(tile.thread_rank());
        for (unsigned offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
            const T other = tile.shfl_up(input, offset);
            if (lane >= offset) input = op(other, input);
        }
        inclusive_output = input;
    }
    template <class ScanOp> void InclusiveScan(T input, T& inclusive_output, ScanOp op, T& warp_aggregate) {
        InclusiveScan(input, inclusive_output, op);
        warp_aggregate = tile_of_this_lane().shfl(inclusive_output, LOGICAL_WARP_THREADS - 1);
    }
    template <class ScanOp> void InclusiveScan(T input, T& inclusive_output, T initial_value, ScanOp op) {
        InclusiveScan(input, inclusive_output, op);
        inclusive_output = op(initial_value, inclusive_output);
    }
    void InclusiveSum(T input, T& inclusive_output) { InclusiveScan(input, inclusive_output, kplay_detail::sum()); }
    void InclusiveSum(T input, T& inclusive_output, T& warp_aggregate) {
        InclusiveScan(input, inclusive_output, kplay_detail::sum(), warp_aggregate);
    }
    // Without an initial value, lane 0's output is undefined (here: its input).
    template <class ScanOp> void ExclusiveScan(T input, T& exclusive_output, ScanOp op) {
        T aggregate;
        ExclusiveScan(input, exclusive_output, op, aggregate);
    }
    template <class ScanOp, class = decltype(static_cast<ScanOp*>(nullptr)->operator()(T(), T()))>
    void ExclusiveScan(T input, T& exclusive_output, ScanOp op, T& warp_aggregate) {
        T inclusive;
        InclusiveScan(input, inclusive, op, warp_aggregate);
        const T before = tile_of_this_lane().shfl_up(inclusive, 1);
        exclusive_output = tile_of_this_lane().thread_rank() == 0 ? input : before;
    }
    template <class ScanOp> void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp op) {
        T aggregate;
        ExclusiveScan(input, exclusive_output, op, aggregate);
        exclusive_output = tile_of_this_lane().thread_rank() == 0 ? initial_value : op(initial_value, exclusive_output);
    }
    void ExclusiveSum(T input, T& exclusive_output) { ExclusiveScan(input, exclusive_output, T(), kplay_detail::sum()); }
    void ExclusiveSum(T input, T& exclusive_output, T& warp_aggregate) {
        ExclusiveScan(input, exclusive_output, kplay_detail::sum(), warp_aggregate);
        if (tile_of_this_lane().thread_rank() == 0) exclusive_output = T();
    }
    T Broadcast(T input, unsigned int src_lane) { return tile_of_this_lane().shfl(input, src_lane); }

private:
    static Tile tile_of_this_lane() { return cooperative_groups::tiled_partition<LOGICAL_WARP_THREADS>(cooperative_groups::this_thread_block()); }
};

// ---- loads and stores: a blocked arrangement (thread t holds items t*N .. t*N+N-1), or striped --------------------
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockLoad {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
    struct TempStorage {
        unsigned char unused;  // every arrangement reads its items straight from memory here
    };
    BlockLoad() {}
    explicit BlockLoad(TempStorage&) {}

    template <class Input> void Load(Input source, T (&items)[ITEMS_PER_THREAD]) { load(source, items, kThreads * ITEMS_PER_THREAD, nullptr); }
    template <class Input> void Load(Input source, T (&items)[ITEMS_PER_THREAD], int valid_items) { load(source, items, valid_items, nullptr); }
    template <class Input, class Default> void Load(Input source, T (&items)[ITEMS_PER_THREAD], int valid_items, Default oob_default) {
        const T fill = static_cast<T>(oob_default);
        load(source, items, valid_items, &fill);
    }

private:
    template <class Input> void load(Input source, T (&items)[ITEMS_PER_THREAD], int valid_items, const T* fill) {
        const int rank = static_cast<int>(kplay_detail::thread_rank());
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const int index = ALGORITHM == BLOCK_LOAD_STRIPED ? i * kThreads + rank : rank * ITEMS_PER_THREAD + i;
            if (index < valid_items) items[i] = source[index];
            else if (fill) items[i] = *fill;
        }
    }
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockStore {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
    struct TempStorage {
        unsigned char unused;
    };
    BlockStore() {}
    explicit BlockStore(TempStorage&) {}

    template <class Output> void Store(Output destination, T (&items)[ITEMS_PER_THREAD], int valid_items = kThreads * ITEMS_PER_THREAD) {
        const int rank = static_cast<int>(kplay_detail::thread_rank());
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const int index = ALGORITHM == BLOCK_STORE_STRIPED ? i * kThreads + rank : rank * ITEMS_PER_THREAD + i;
            if (index < valid_items) destination[index] = items[i];
        }
    }
};

// The device-wide algorithms launch kernels from the host: refused by name wherever they are mentioned.
#define KPLAY_CUB_DEVICE_WIDE(name) name##_is_not_supported_on_the_emulated_CPU_device__device_wide_algorithms_launch_kernels_from_the_host
#define DeviceReduce KPLAY_CUB_DEVICE_WIDE(DeviceReduce)
#define DeviceScan KPLAY_CUB_DEVICE_WIDE(DeviceScan)
#define DeviceRadixSort KPLAY_CUB_DEVICE_WIDE(DeviceRadixSort)
#define DeviceSegmentedReduce KPLAY_CUB_DEVICE_WIDE(DeviceSegmentedReduce)
#define DeviceSegmentedRadixSort KPLAY_CUB_DEVICE_WIDE(DeviceSegmentedRadixSort)
#define DeviceSegmentedSort KPLAY_CUB_DEVICE_WIDE(DeviceSegmentedSort)
#define DeviceHistogram KPLAY_CUB_DEVICE_WIDE(DeviceHistogram)
#define DeviceSelect KPLAY_CUB_DEVICE_WIDE(DeviceSelect)
#define DevicePartition KPLAY_CUB_DEVICE_WIDE(DevicePartition)
#define DeviceRunLengthEncode KPLAY_CUB_DEVICE_WIDE(DeviceRunLengthEncode)
#define DeviceMergeSort KPLAY_CUB_DEVICE_WIDE(DeviceMergeSort)
#define DeviceAdjacentDifference KPLAY_CUB_DEVICE_WIDE(DeviceAdjacentDifference)
#define DeviceCopy KPLAY_CUB_DEVICE_WIDE(DeviceCopy)
#define DeviceMemcpy KPLAY_CUB_DEVICE_WIDE(DeviceMemcpy)
#define DeviceFor KPLAY_CUB_DEVICE_WIDE(DeviceFor)
#define DeviceTransform KPLAY_CUB_DEVICE_WIDE(DeviceTransform)
#define DeviceSpmv KPLAY_CUB_DEVICE_WIDE(DeviceSpmv)

}  // namespace cub
