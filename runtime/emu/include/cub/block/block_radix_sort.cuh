// cub/block/block_radix_sort.cuh on the emulated device: cub::BlockRadixSort, a stable sort of a tile of
// keys (and values with them), ascending or descending, by the bits [begin_bit, end_bit) of each key,
// from a blocked arrangement to a blocked or a striped one.
//
// What CUB documents decides the order: keys are compared as CUB's radix sort sees them, unsigned
// integers as they are, signed ones with the sign bit flipped, floating-point ones with the sign bit
// flipped when positive and every bit flipped when negative, -0.0 counted as +0.0, NaNs by those bits;
// the bit range applies to that form. Equal keys (in the bits compared) keep their input order, in both
// directions. Here thread 0 merge-sorts the tile's positions by those bits between two barriers, so the
// result is CUB's exactly; RADIX_BITS and the other tuning parameters change only a GPU's speed.
// Keys of a user-defined type (a decomposer) need <cuda/std/tuple>, which the emulated device lacks.
#pragma once

#include "block_scan.cuh"

#ifndef KPLAY_CUDA_SHARED_MEM_CONFIG
#define KPLAY_CUDA_SHARED_MEM_CONFIG
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1, cudaSharedMemBankSizeEightByte = 2 };
#endif

namespace cub {

namespace kplay_detail {
// A key's bits in the order the radix sort compares them.
template <class Key> struct RadixKey;  // not defined: a key type CUB's radix sort cannot sort
template <class Key, class Bits> struct RadixUnsigned {
    static unsigned long long ordered(const Key& key) {
        Bits bits;
        __builtin_memcpy(&bits, &key, sizeof(Bits));
        return bits;
    }
};
template <class Key, class Bits> struct RadixSigned {
    static unsigned long long ordered(const Key& key) {
        Bits bits;
        __builtin_memcpy(&bits, &key, sizeof(Bits));
        return static_cast<Bits>(bits ^ (Bits(1) << (sizeof(Bits) * 8 - 1)));
    }
};
template <class Key, class Bits> struct RadixFloat {
    static unsigned long long ordered(const Key& key) {
        constexpr Bits sign = Bits(1) << (sizeof(Bits) * 8 - 1);
        Bits bits;
        __builtin_memcpy(&bits, static_cast<const void*>(&key), sizeof(Bits));
        if (bits == sign) bits = 0;  // -0.0 sorts as +0.0
        return static_cast<Bits>((bits & sign) ? ~bits : (bits ^ sign));
    }
};
template <> struct RadixKey<bool> : RadixUnsigned<bool, unsigned char> {};
template <> struct RadixKey<unsigned char> : RadixUnsigned<unsigned char, unsigned char> {};
template <> struct RadixKey<unsigned short> : RadixUnsigned<unsigned short, unsigned short> {};
template <> struct RadixKey<unsigned int> : RadixUnsigned<unsigned int, unsigned int> {};
template <> struct RadixKey<unsigned long> : RadixUnsigned<unsigned long, unsigned long> {};
template <> struct RadixKey<unsigned long long> : RadixUnsigned<unsigned long long, unsigned long long> {};
template <> struct RadixKey<signed char> : RadixSigned<signed char, unsigned char> {};
template <> struct RadixKey<short> : RadixSigned<short, unsigned short> {};
template <> struct RadixKey<int> : RadixSigned<int, unsigned int> {};
template <> struct RadixKey<long> : RadixSigned<long, unsigned long> {};
template <> struct RadixKey<long long> : RadixSigned<long long, unsigned long long> {};
template <>
struct RadixKey<char> : RadixSigned<char, unsigned char> {
    static unsigned long long ordered(const char& key) {
        return char(-1) < char(0) ? RadixSigned<char, unsigned char>::ordered(key) : RadixUnsigned<char, unsigned char>::ordered(key);
    }
};
template <> struct RadixKey<float> : RadixFloat<float, unsigned int> {};
template <> struct RadixKey<double> : RadixFloat<double, unsigned long long> {};
template <> struct RadixKey<__half> : RadixFloat<__half, unsigned short> {};
template <> struct RadixKey<__nv_bfloat16> : RadixFloat<__nv_bfloat16, unsigned short> {};

// Positions 0..n-1 of `fields`, stably merge-sorted by field (descending when asked); `order` and
// `spare` hold n each, and the result is in the one returned.
inline int* stable_order(const unsigned long long* fields, int n, bool descending, int* order, int* spare) {
    for (int i = 0; i < n; ++i) order[i] = i;
    for (int width = 1; width < n; width *= 2) {
        for (int low = 0; low < n; low += 2 * width) {
            const int middle = low + width < n ? low + width : n, high = low + 2 * width < n ? low + 2 * width : n;
            int left = low, right = middle, out = low;
            while (left < middle && right < high) {
                const unsigned long long a = fields[order[left]], b = fields[order[right]];
                const bool right_first = descending ? b > a : b < a;
                spare[out++] = right_first ? order[right++] : order[left++];
            }
            while (left < middle) spare[out++] = order[left++];
            while (right < high) spare[out++] = order[right++];
        }
        int* swap = order;
        order = spare;
        spare = swap;
    }
    return order;
}
}  // namespace kplay_detail

template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRadixSort {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int kItems = kThreads * ITEMS_PER_THREAD;
    static constexpr int kKeyBits = static_cast<int>(sizeof(KeyT) * 8);

public:
    struct TempStorage {
        kplay_detail::slots<KeyT, kItems> keys;
        kplay_detail::slots<ValueT, kItems> values;
        unsigned long long fields[kItems];
        int order[2][kItems];
    };
    BlockRadixSort() : storage_(private_storage()), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    BlockRadixSort(TempStorage& storage) : storage_(storage), rank_(kplay_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = kKeyBits) {
        sort(keys, nullptr, begin_bit, end_bit, false, false);
    }
    void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = kKeyBits) {
        sort(keys, &values, begin_bit, end_bit, false, false);
    }
    void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = kKeyBits) {
        sort(keys, nullptr, begin_bit, end_bit, true, false);
    }
    void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = kKeyBits) {
        sort(keys, &values, begin_bit, end_bit, true, false);
    }
    void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = kKeyBits) {
        sort(keys, nullptr, begin_bit, end_bit, false, true);
    }
    void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                              int end_bit = kKeyBits) {
        sort(keys, &values, begin_bit, end_bit, false, true);
    }
    void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = kKeyBits) {
        sort(keys, nullptr, begin_bit, end_bit, true, true);
    }
    void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                        int end_bit = kKeyBits) {
        sort(keys, &values, begin_bit, end_bit, true, true);
    }

private:
    static TempStorage& private_storage() {
        static thread_local TempStorage storage;  // the block's own, as __shared__ is here
        return storage;
    }
    // Every thread hands in its blocked items; thread 0 orders the tile; each takes its sorted items back,
    // blocked (rank t*N+i) or striped (rank i*THREADS+t).
    void sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (*values)[ITEMS_PER_THREAD], int begin_bit, int end_bit, bool descending,
              bool to_striped) {
        const int width = end_bit - begin_bit;
        const unsigned long long mask = width >= 64 ? ~0ull : width <= 0 ? 0ull : (1ull << width) - 1;
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const int at = rank_ * ITEMS_PER_THREAD + i;
            storage_.keys.set(at, keys[i]);
            if (values) storage_.values.set(at, (*values)[i]);
            const unsigned long long ordered = kplay_detail::RadixKey<KeyT>::ordered(keys[i]);
            storage_.fields[at] = (begin_bit < 64 ? ordered >> begin_bit : 0ull) & mask;
        }
        __syncthreads();
        if (rank_ == 0) {
            const int* order = kplay_detail::stable_order(storage_.fields, kItems, descending, storage_.order[0], storage_.order[1]);
            if (order != storage_.order[0])
                for (int i = 0; i < kItems; ++i) storage_.order[0][i] = order[i];
        }
        __syncthreads();
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const int from = storage_.order[0][to_striped ? i * kThreads + rank_ : rank_ * ITEMS_PER_THREAD + i];
            keys[i] = storage_.keys.get(from);
            if (values) (*values)[i] = storage_.values.get(from);
        }
    }
    TempStorage& storage_;
    int rank_;
};

}  // namespace cub
