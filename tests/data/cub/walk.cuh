// What the CUB walks share (the *_walk.cu files beside this one): each walk calls every form of some CUB
// primitives once and writes each result to a slot of its output, so that tests/emu_cub_test.cpp can
// check the emulated device against values computed on the host and tests/gpu_cub_test.cpp the GPU
// against the emulated device, element by element. Every walk kernel takes (const int* in, const float*
// fin, int* out, float* fout); tests/cub_walks.hpp says how they are filled and launched.
#pragma once

#include <cub/cub.cuh>

namespace walk {

// Written where CUB leaves an output undefined, so both devices write the same thing there.
constexpr int kUndefined = -123456789;

// Slot after slot of `size` elements: each result of a form goes to the next slot, each thread's
// elements at its own places in it.
template <class T> struct Slots {
    T* base;
    int size;
    int used = 0;
    __device__ T* next() { return base + size * used++; }
};

// Associative but not commutative: a scan or reduction that combines out of order gets another answer.
struct Last {
    __device__ int operator()(int a, int b) const { return b != 0 ? b : a; }
};
struct Max {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct FloatMax {
    __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};
// A running prefix over the tiles of a block, as CUB's examples keep one: each call returns the total
// so far and adds the tile's aggregate.
template <class Op> struct Prefix {
    int running;
    __device__ int operator()(int block_aggregate) {
        const int old = running;
        running = Op()(running, block_aggregate);
        return old;
    }
};
struct Plus {
    __device__ int operator()(int a, int b) const { return a + b; }
};
// A difference whose operands cannot be swapped unnoticed.
struct Difference {
    __device__ int operator()(int a, int b) const { return 3 * a - b; }
};
struct Unequal {
    __device__ bool operator()(int a, int b) const { return a != b; }
};
// With the index of b, as BlockDiscontinuity also accepts.
struct UnequalOrEvery17th {
    __device__ bool operator()(int a, int b, int b_index) const { return a != b || b_index % 17 == 0; }
};

}  // namespace walk
