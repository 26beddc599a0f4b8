// Every documented form of cub::BlockHistogram (Histogram, InitHistogram, Composite) for both algorithms,
// in a 32x2 block (BLOCK_DIM_Y = 2) with 4 items each, into 37 bins (more than the threads' stride, and
// not a multiple of it), with unsigned and int counters. Thread 0 copies each histogram, after the block
// meets, to the next 37 ints of `out`.
#include "walk.cuh"

namespace {

constexpr int kThreads = 64, kItems = 4, kBins = 37;

template <class Counter> __device__ void copy_out(const Counter* histogram, walk::Slots<int>& s) {
    __syncthreads();
    int* slot = s.next();
    if (threadIdx.x + 32 * threadIdx.y == 0)
        for (int bin = 0; bin < kBins; ++bin) slot[bin] = static_cast<int>(histogram[bin]);
    __syncthreads();
}

template <cub::BlockHistogramAlgorithm ALGORITHM> __device__ void histogram_forms(const int* in, walk::Slots<int>& s) {
    using Histogram = cub::BlockHistogram<unsigned char, 32, kItems, kBins, ALGORITHM, 2>;
    __shared__ typename Histogram::TempStorage storage;
    __shared__ unsigned counts[kBins];
    __shared__ int int_counts[kBins];
    const int t = threadIdx.x + 32 * threadIdx.y;
    unsigned char items[kItems], more[kItems];
    for (int i = 0; i < kItems; ++i) {
        items[i] = static_cast<unsigned char>((in[t * kItems + i] + 100) % kBins);
        more[i] = static_cast<unsigned char>((in[kThreads * kItems + t * kItems + i] + 100) % kBins);
    }
    Histogram(storage).Histogram(items, counts);
    copy_out(counts, s);
    Histogram(storage).InitHistogram(counts);
    __syncthreads();
    Histogram(storage).Composite(items, counts);
    __syncthreads();
    Histogram(storage).Composite(more, counts);  // a second tile added to the first
    copy_out(counts, s);
    Histogram().Histogram(more, int_counts);  // the block's private storage, int counters
    copy_out(int_counts, s);
}

}  // namespace

__global__ void block_histogram_walk(const int* in, const float* fin, int* out, float* fout) {
    walk::Slots<int> s{out, kBins};
    histogram_forms<cub::BLOCK_HISTO_SORT>(in, s);
    histogram_forms<cub::BLOCK_HISTO_ATOMIC>(in, s);
}
