// cub/warp/warp_reduce.cuh on the emulated device: cub::WarpReduce, a reduction over a logical warp of
// LOGICAL_WARP_THREADS lanes (1 to 32; each hardware warp is split by lane id): Sum and Reduce over all
// lanes or the first valid_items, and the segmented forms, whose segments start at lanes flagged as heads
// or end at lanes flagged as tails.
//
// As CUB documents, a reduction's result is defined in the logical warp's lane 0, and a segment's in the
// segment's first lane. The lanes fold by shuffles in the shape of CUB's shuffle reduction: at offsets 1,
// 2, 4, ... each lane adds the value `offset` lanes above it while that lane is in its segment, so lane
// 0's integer result is CUB's exactly and a float one is combined in the same tree. The TempStorage is
// unused: shuffles need no memory.
#pragma once

#include "../kplay_cub_detail.cuh"

namespace cub {

template <typename T, int LOGICAL_WARP_THREADS = 32>
class WarpReduce {
    using Warp = kplay_detail::LogicalWarp<LOGICAL_WARP_THREADS>;

public:
    struct TempStorage {
        unsigned char unused;
    };
    WarpReduce(TempStorage&) {}

    T Sum(T input) { return Reduce(input, kplay_detail::sum()); }
    T Sum(T input, int valid_items) { return Reduce(input, kplay_detail::sum(), valid_items); }
    template <typename ReductionOp> T Reduce(T input, ReductionOp reduction_op) {
        const Warp warp;
        return fold(warp, input, reduction_op, warp.size - 1);
    }
    template <typename ReductionOp> T Reduce(T input, ReductionOp reduction_op, int valid_items) {
        const Warp warp;
        return fold(warp, input, reduction_op, valid_items - 1);
    }
    template <typename FlagT> T HeadSegmentedSum(T input, FlagT head_flag) { return HeadSegmentedReduce(input, head_flag, kplay_detail::sum()); }
    template <typename FlagT> T TailSegmentedSum(T input, FlagT tail_flag) { return TailSegmentedReduce(input, tail_flag, kplay_detail::sum()); }
    // A segment runs from a head to the lane before the next head.
    template <typename ReductionOp, typename FlagT> T HeadSegmentedReduce(T input, FlagT head_flag, ReductionOp reduction_op) {
        const Warp warp;
        const unsigned later_heads = warp.ballot(static_cast<bool>(head_flag)) & ~((2u << warp.lane) - 1u);
        return fold(warp, input, reduction_op, later_heads ? __builtin_ctz(later_heads) - 1 : warp.size - 1);
    }
    // A segment runs from the lane after a tail to the next tail.
    template <typename ReductionOp, typename FlagT> T TailSegmentedReduce(T input, FlagT tail_flag, ReductionOp reduction_op) {
        const Warp warp;
        const unsigned tails_from_here = warp.ballot(static_cast<bool>(tail_flag)) & ~((1u << warp.lane) - 1u);
        return fold(warp, input, reduction_op, tails_from_here ? __builtin_ctz(tails_from_here) : warp.size - 1);
    }

private:
    // This lane's value folded with those of the lanes above it up to `last`, in the shuffle tree.
    template <class Op> static T fold(const Warp& warp, T value, Op& op, int last) {
        for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
            const T above = warp.from(value, warp.lane + offset);
            if (warp.lane + offset <= last) value = op(value, above);
        }
        return value;
    }
};

}  // namespace cub
