// kplay_cub_detail.cuh: what kplay's CUB primitives on the emulated device share: CUB's thread and lane
// numbering, room in a TempStorage for values without constructing them, the per-thread folds and
// scans CUB's collectives build on, and a logical warp's shuffles for values of any size.
//
// Written from CUB's documented API (CCCL 3), not from its code. A block collective here stores each
// thread's values in its TempStorage, meets at __syncthreads, and lets one thread combine them in thread
// order, so a result never depends on the order the emulator runs threads in. As in CUB, a TempStorage
// used again needs a __syncthreads (a __syncwarp for a warp's) first; the emulated device's race check
// reports a kernel that leaves it out. Warp collectives move values by shuffles, as CUB's do, and need
// no memory. This file and the primitives' headers also parse in a host reference's build, where kernels'
// bodies are blanked (kplay_cg_device.h declares what they call).
#pragma once

#include "../kplay_cg_device.h"

struct __half;  // kplay_half.h's, for the radix sort's key traits
struct __nv_bfloat16;

namespace cub {

// CUB's "no type": the value type of a keys-only BlockRadixSort.
struct NullType {};

namespace kplay_detail {

struct sum {
    template <class A, class B> auto operator()(const A& a, const B& b) const { return a + b; }
};

// CUB's linear thread id in a block of X x Y x Z threads (row-major, as RowMajorTid).
template <int X, int Y, int Z> inline int linear_tid() {
    return static_cast<int>(threadIdx.x + (Y > 1 ? threadIdx.y * X : 0) + (Z > 1 ? threadIdx.z * X * Y : 0));
}
// The hardware lane: warps are consecutive threads of the block in its own row-major order.
inline int hardware_lane() { return static_cast<int>((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32); }

// Room for n values of T without constructing them: a __shared__ TempStorage needs no constructor.
template <class T, int n> struct slots {
    alignas(T) unsigned char bytes[sizeof(T) * (n > 0 ? n : 1)];
    T get(int i) const {
        T value;
        __builtin_memcpy(static_cast<void*>(&value), bytes + sizeof(T) * i, sizeof(T));
        return value;
    }
    void set(int i, const T& value) { __builtin_memcpy(bytes + sizeof(T) * i, static_cast<const void*>(&value), sizeof(T)); }
};

// A thread's items folded left to right.
template <class T, int N, class Op> inline T fold(const T (&items)[N], Op op) {
    T total = items[0];
    for (int i = 1; i < N; ++i) total = op(total, items[i]);
    return total;
}
// A thread's items scanned left to right after `prefix` (when `apply`; else the first item starts the
// scan and an exclusive output[0] is `prefix`, undefined as in CUB). Input and output may be one array.
template <class T, int N, class Op> inline void scan_inclusive(const T (&input)[N], T (&output)[N], Op op, T prefix, bool apply) {
    T running = apply ? T(op(prefix, input[0])) : input[0];
    output[0] = running;
    for (int i = 1; i < N; ++i) output[i] = running = op(running, input[i]);
}
template <class T, int N, class Op> inline void scan_exclusive(const T (&input)[N], T (&output)[N], Op op, T prefix, bool apply) {
    T running = apply ? T(op(prefix, input[0])) : input[0];
    output[0] = prefix;
    for (int i = 1; i < N; ++i) {
        const T item = input[i];
        output[i] = running;
        running = op(running, item);
    }
}

// A value of any size through __shfl_sync, 8 bytes at a time, from hardware lane `source`.
template <class T> inline T shuffle(unsigned mask, const T& value, int source) {
    constexpr int words = static_cast<int>((sizeof(T) + 7) / 8);
    unsigned long long in[words] = {}, out[words];
    __builtin_memcpy(static_cast<void*>(in), static_cast<const void*>(&value), sizeof(T));
    for (int w = 0; w < words; ++w) out[w] = __shfl_sync(mask, in[w], source, 32);
    T result;
    __builtin_memcpy(static_cast<void*>(&result), static_cast<const void*>(out), sizeof(T));
    return result;
}

// CUB's logical warp of L lanes: each hardware warp split by lane id into L-lane warps (the last one
// shorter when L does not divide 32). Its collectives wait for its own lanes only.
template <int L> struct LogicalWarp {
    static_assert(L >= 1 && L <= 32, "LOGICAL_WARP_THREADS must be between 1 and 32");
    int lane, first, size;
    unsigned mask;
    LogicalWarp() {
        const int hardware = hardware_lane();
        lane = hardware % L;
        first = hardware - lane;
        size = first + L <= 32 ? L : 32 - first;
        mask = (size == 32 ? 0xffffffffu : ((1u << size) - 1u)) << first;
    }
    // `value` as logical lane `source` holds it (clamped into this warp).
    template <class T> T from(const T& value, int source) const {
        return shuffle(mask, value, first + (source < 0 ? 0 : source >= size ? size - 1 : source));
    }
    // Bit i: logical lane i's predicate.
    unsigned ballot(bool predicate) const { return __ballot_sync(mask, predicate) >> first; }
    void sync() const { __syncwarp(mask); }
};

// A flag operator's call with the index of its second item, or without where it takes none (as CUB's
// BlockDiscontinuity allows both).
template <class Op, class T> inline auto flag_call(Op& op, const T& a, const T& b, int index, int) -> decltype(op(a, b, index)) {
    return op(a, b, index);
}
template <class Op, class T> inline auto flag_call(Op& op, const T& a, const T& b, int, long) -> decltype(op(a, b)) { return op(a, b); }

}  // namespace kplay_detail
}  // namespace cub
