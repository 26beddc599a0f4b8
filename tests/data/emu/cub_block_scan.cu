// A block-wide exclusive prefix sum with CUB, four items per thread: BlockLoad (striped, with a
// default past the end), BlockScan::ExclusiveSum over the block, a running prefix carried from tile to
// tile by a callback, and BlockStore; BlockReduce totals each tile for thread 0.
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

struct RunningPrefix {
    int total;
    __device__ int operator()(int tile_total) {
        const int before = total;
        total += tile_total;
        return before;
    }
};

__global__ void k(const int* in, int* out, int* tile_totals, int n) {
    typedef cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_TRANSPOSE> Load;
    typedef cub::BlockScan<int, 128> Scan;
    typedef cub::BlockReduce<int, 128> Reduce;
    typedef cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_TRANSPOSE> Store;
    __shared__ typename Load::TempStorage load_storage;
    __shared__ typename Scan::TempStorage scan_storage;
    __shared__ typename Reduce::TempStorage reduce_storage;
    __shared__ typename Store::TempStorage store_storage;
    RunningPrefix prefix{0};
    int tile = 0;
    for (int start = 0; start < n; start += 512, ++tile) {
        int items[4];
        Load(load_storage).Load(in + start, items, n - start, 0);
        __syncthreads();
        const int thread_total = Reduce(reduce_storage).Sum(items);
        if (threadIdx.x == 0) tile_totals[tile] = thread_total;
        int scanned[4];
        int block_items = items[0] + items[1] + items[2] + items[3], thread_prefix;
        Scan(scan_storage).ExclusiveSum(block_items, thread_prefix, prefix);
        for (int i = 0; i < 4; ++i) {
            scanned[i] = thread_prefix;
            thread_prefix += items[i];
        }
        __syncthreads();
        Store(store_storage).Store(out + start, scanned, n - start);
        __syncthreads();
    }
}
