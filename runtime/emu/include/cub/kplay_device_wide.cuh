// cub/kplay_device_wide.cuh on the emulated device: CUB's device-wide classes (cub::DeviceReduce and kin),
// each member a template whose call fails a static_assert that names it and says what to use instead.
// Those algorithms launch kernels from the host, which a kernel cannot do on either device. Below this
// comment the text is what NVRTC's <cub/cub.cuh> stand-in declares (runtime/compile/cub_stand_in.cpp
// builds it; a test holds the two equal).
#pragma once

namespace cub {
namespace kplay_refused {
template <class... Args> struct never {
    static constexpr bool value = false;
};
struct AnyResult {  // what the caller assigns the result to, so the refusal is the only error
    template <class T> __host__ __device__ operator T() const { return T(); }
};
}  // namespace kplay_refused
#define KPLAY_CUB_REFUSED(owner, name)                                                                       \
    template <class... Args> __host__ __device__ static ::cub::kplay_refused::AnyResult name(Args&&...) {   \
        static_assert(::cub::kplay_refused::never<Args...>::value, "cub::" #owner "::" #name KPLAY_CUB_REFUSAL); \
        return {};                                                                                          \
    }
#define KPLAY_CUB_REFUSAL " is CUB's device-wide layer: it launches kernels from the host through the CUDA runtime, which a kernel cannot do. Use CUB's block and warp primitives inside the kernel (cub::BlockReduce, cub::BlockScan, cub::BlockRadixSort, cub::WarpReduce, ...), and for a whole-array result a task of several launches (one // kplay-launch: line for each pass; README, \"A task of several launches\")."
struct DeviceAdjacentDifference {
    KPLAY_CUB_REFUSED(DeviceAdjacentDifference, SubtractLeft)
    KPLAY_CUB_REFUSED(DeviceAdjacentDifference, SubtractLeftCopy)
    KPLAY_CUB_REFUSED(DeviceAdjacentDifference, SubtractRight)
    KPLAY_CUB_REFUSED(DeviceAdjacentDifference, SubtractRightCopy)
};
struct DeviceCopy {
    KPLAY_CUB_REFUSED(DeviceCopy, Batched)
};
struct DeviceFind {
    KPLAY_CUB_REFUSED(DeviceFind, FindIf)
    KPLAY_CUB_REFUSED(DeviceFind, LowerBound)
    KPLAY_CUB_REFUSED(DeviceFind, UpperBound)
};
struct DeviceFor {
    KPLAY_CUB_REFUSED(DeviceFor, Bulk)
    KPLAY_CUB_REFUSED(DeviceFor, ForEach)
    KPLAY_CUB_REFUSED(DeviceFor, ForEachCopy)
    KPLAY_CUB_REFUSED(DeviceFor, ForEachCopyN)
    KPLAY_CUB_REFUSED(DeviceFor, ForEachInExtents)
    KPLAY_CUB_REFUSED(DeviceFor, ForEachN)
};
struct DeviceHistogram {
    KPLAY_CUB_REFUSED(DeviceHistogram, HistogramEven)
    KPLAY_CUB_REFUSED(DeviceHistogram, HistogramRange)
    KPLAY_CUB_REFUSED(DeviceHistogram, MultiHistogramEven)
    KPLAY_CUB_REFUSED(DeviceHistogram, MultiHistogramRange)
};
struct DeviceMemcpy {
    KPLAY_CUB_REFUSED(DeviceMemcpy, Batched)
};
struct DeviceMerge {
    KPLAY_CUB_REFUSED(DeviceMerge, MergeKeys)
    KPLAY_CUB_REFUSED(DeviceMerge, MergePairs)
};
struct DeviceMergeSort {
    KPLAY_CUB_REFUSED(DeviceMergeSort, SortKeys)
    KPLAY_CUB_REFUSED(DeviceMergeSort, SortKeysCopy)
    KPLAY_CUB_REFUSED(DeviceMergeSort, SortPairs)
    KPLAY_CUB_REFUSED(DeviceMergeSort, SortPairsCopy)
    KPLAY_CUB_REFUSED(DeviceMergeSort, StableSortKeys)
    KPLAY_CUB_REFUSED(DeviceMergeSort, StableSortKeysCopy)
    KPLAY_CUB_REFUSED(DeviceMergeSort, StableSortPairs)
};
struct DevicePartition {
    KPLAY_CUB_REFUSED(DevicePartition, Flagged)
    KPLAY_CUB_REFUSED(DevicePartition, If)
};
struct DeviceRadixSort {
    KPLAY_CUB_REFUSED(DeviceRadixSort, SortKeys)
    KPLAY_CUB_REFUSED(DeviceRadixSort, SortKeysDescending)
    KPLAY_CUB_REFUSED(DeviceRadixSort, SortPairs)
    KPLAY_CUB_REFUSED(DeviceRadixSort, SortPairsDescending)
};
struct DeviceReduce {
    KPLAY_CUB_REFUSED(DeviceReduce, ArgMax)
    KPLAY_CUB_REFUSED(DeviceReduce, ArgMin)
    KPLAY_CUB_REFUSED(DeviceReduce, Max)
    KPLAY_CUB_REFUSED(DeviceReduce, Min)
    KPLAY_CUB_REFUSED(DeviceReduce, Reduce)
    KPLAY_CUB_REFUSED(DeviceReduce, ReduceByKey)
    KPLAY_CUB_REFUSED(DeviceReduce, Sum)
    KPLAY_CUB_REFUSED(DeviceReduce, TransformReduce)
};
struct DeviceRunLengthEncode {
    KPLAY_CUB_REFUSED(DeviceRunLengthEncode, Encode)
    KPLAY_CUB_REFUSED(DeviceRunLengthEncode, NonTrivialRuns)
};
struct DeviceScan {
    KPLAY_CUB_REFUSED(DeviceScan, ExclusiveScan)
    KPLAY_CUB_REFUSED(DeviceScan, ExclusiveScanByKey)
    KPLAY_CUB_REFUSED(DeviceScan, ExclusiveSum)
    KPLAY_CUB_REFUSED(DeviceScan, ExclusiveSumByKey)
    KPLAY_CUB_REFUSED(DeviceScan, InclusiveScan)
    KPLAY_CUB_REFUSED(DeviceScan, InclusiveScanByKey)
    KPLAY_CUB_REFUSED(DeviceScan, InclusiveScanInit)
    KPLAY_CUB_REFUSED(DeviceScan, InclusiveSum)
    KPLAY_CUB_REFUSED(DeviceScan, InclusiveSumByKey)
};
struct DeviceSegmentedRadixSort {
    KPLAY_CUB_REFUSED(DeviceSegmentedRadixSort, SortKeys)
    KPLAY_CUB_REFUSED(DeviceSegmentedRadixSort, SortKeysDescending)
    KPLAY_CUB_REFUSED(DeviceSegmentedRadixSort, SortPairs)
    KPLAY_CUB_REFUSED(DeviceSegmentedRadixSort, SortPairsDescending)
};
struct DeviceSegmentedReduce {
    KPLAY_CUB_REFUSED(DeviceSegmentedReduce, ArgMax)
    KPLAY_CUB_REFUSED(DeviceSegmentedReduce, ArgMin)
    KPLAY_CUB_REFUSED(DeviceSegmentedReduce, Max)
    KPLAY_CUB_REFUSED(DeviceSegmentedReduce, Min)
    KPLAY_CUB_REFUSED(DeviceSegmentedReduce, Reduce)
    KPLAY_CUB_REFUSED(DeviceSegmentedReduce, Sum)
};
struct DeviceSegmentedSort {
    KPLAY_CUB_REFUSED(DeviceSegmentedSort, SortKeys)
    KPLAY_CUB_REFUSED(DeviceSegmentedSort, SortKeysDescending)
    KPLAY_CUB_REFUSED(DeviceSegmentedSort, SortPairs)
    KPLAY_CUB_REFUSED(DeviceSegmentedSort, SortPairsDescending)
    KPLAY_CUB_REFUSED(DeviceSegmentedSort, StableSortKeys)
    KPLAY_CUB_REFUSED(DeviceSegmentedSort, StableSortKeysDescending)
    KPLAY_CUB_REFUSED(DeviceSegmentedSort, StableSortPairs)
    KPLAY_CUB_REFUSED(DeviceSegmentedSort, StableSortPairsDescending)
};
struct DeviceSelect {
    KPLAY_CUB_REFUSED(DeviceSelect, Flagged)
    KPLAY_CUB_REFUSED(DeviceSelect, FlaggedIf)
    KPLAY_CUB_REFUSED(DeviceSelect, If)
    KPLAY_CUB_REFUSED(DeviceSelect, Unique)
    KPLAY_CUB_REFUSED(DeviceSelect, UniqueByKey)
};
struct DeviceSpmv {
    KPLAY_CUB_REFUSED(DeviceSpmv, CsrMV)
};
struct DeviceTransform {
    KPLAY_CUB_REFUSED(DeviceTransform, Fill)
    KPLAY_CUB_REFUSED(DeviceTransform, Generate)
    KPLAY_CUB_REFUSED(DeviceTransform, Transform)
    KPLAY_CUB_REFUSED(DeviceTransform, TransformIf)
    KPLAY_CUB_REFUSED(DeviceTransform, TransformStableArgumentAddresses)
};
#undef KPLAY_CUB_REFUSAL
#undef KPLAY_CUB_REFUSED
}  // namespace cub
