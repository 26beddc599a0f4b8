// cub/warp/warp_scan.cuh on the emulated device: cub::WarpScan, prefix scans over a logical warp of
// LOGICAL_WARP_THREADS lanes (1 to 32): inclusive and exclusive, sums and any associative operator, with
// an initial value or a warp aggregate, both at once (Scan), and Broadcast.
//
// As CUB documents: an exclusive scan without an initial value leaves lane 0's output undefined;
// ExclusiveSum starts from T{}; the warp aggregate leaves the initial value out. The lanes scan by
// shuffles in the shape of CUB's shuffle scan (at offsets 1, 2, 4, ... each lane takes the value
// `offset` lanes below it in front of its own), so integer results are CUB's exactly and float ones are
// combined in the same tree. The TempStorage is unused: shuffles need no memory.
#pragma once

#include "../kplay_cub_detail.cuh"

namespace cub {

template <typename T, int LOGICAL_WARP_THREADS = 32>
class WarpScan {
    using Warp = kplay_detail::LogicalWarp<LOGICAL_WARP_THREADS>;
    using Sum = kplay_detail::sum;

public:
    struct TempStorage {
        unsigned char unused;
    };
    WarpScan(TempStorage&) {}

    void InclusiveSum(T input, T& inclusive_output) { InclusiveScan(input, inclusive_output, Sum()); }
    void InclusiveSum(T input, T& inclusive_output, T& warp_aggregate) { InclusiveScan(input, inclusive_output, Sum(), warp_aggregate); }
    void ExclusiveSum(T input, T& exclusive_output) { ExclusiveScan(input, exclusive_output, T{}, Sum()); }
    void ExclusiveSum(T input, T& exclusive_output, T& warp_aggregate) { ExclusiveScan(input, exclusive_output, T{}, Sum(), warp_aggregate); }

    template <typename ScanOp> void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op) {
        inclusive_output = inclusive(Warp(), input, scan_op);
    }
    template <typename ScanOp> void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op, T& warp_aggregate) {
        const Warp warp;
        inclusive_output = inclusive(warp, input, scan_op);
        warp_aggregate = warp.from(inclusive_output, warp.size - 1);
    }
    template <typename ScanOp> void InclusiveScan(T input, T& inclusive_output, T initial_value, ScanOp scan_op) {
        inclusive_output = scan_op(initial_value, inclusive(Warp(), input, scan_op));
    }
    template <typename ScanOp> void InclusiveScan(T input, T& inclusive_output, T initial_value, ScanOp scan_op, T& warp_aggregate) {
        const Warp warp;
        const T scanned = inclusive(warp, input, scan_op);
        warp_aggregate = warp.from(scanned, warp.size - 1);
        inclusive_output = scan_op(initial_value, scanned);
    }
    // Lane 0's output is undefined (here: its input).
    template <typename ScanOp> void ExclusiveScan(T input, T& exclusive_output, ScanOp scan_op) {
        T inclusive_output;
        Scan(input, inclusive_output, exclusive_output, scan_op);
    }
    template <typename ScanOp> void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op) {
        T inclusive_output;
        Scan(input, inclusive_output, exclusive_output, initial_value, scan_op);
    }
    template <typename ScanOp> void ExclusiveScan(T input, T& exclusive_output, ScanOp scan_op, T& warp_aggregate) {
        const Warp warp;
        const T scanned = inclusive(warp, input, scan_op);
        warp_aggregate = warp.from(scanned, warp.size - 1);
        exclusive_output = warp.from(scanned, warp.lane - 1);
    }
    template <typename ScanOp> void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op, T& warp_aggregate) {
        const Warp warp;
        const T scanned = inclusive(warp, input, scan_op);
        warp_aggregate = warp.from(scanned, warp.size - 1);
        exclusive_output = after(warp, scan_op(initial_value, scanned), initial_value);
    }
    // Lane 0's exclusive output is undefined (here: its input).
    template <typename ScanOp> void Scan(T input, T& inclusive_output, T& exclusive_output, ScanOp scan_op) {
        const Warp warp;
        inclusive_output = inclusive(warp, input, scan_op);
        exclusive_output = warp.from(inclusive_output, warp.lane - 1);
    }
    template <typename ScanOp> void Scan(T input, T& inclusive_output, T& exclusive_output, T initial_value, ScanOp scan_op) {
        const Warp warp;
        inclusive_output = scan_op(initial_value, inclusive(warp, input, scan_op));
        exclusive_output = after(warp, inclusive_output, initial_value);
    }
    T Broadcast(T input, unsigned int src_lane) { return Warp().from(input, static_cast<int>(src_lane)); }

private:
    template <class Op> static T inclusive(const Warp& warp, T value, Op& op) {
        for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
            const T below = warp.from(value, warp.lane - offset);
            if (warp.lane >= offset) value = op(below, value);
        }
        return value;
    }
    // The lane below's inclusive prefix, or the initial value in lane 0.
    static T after(const Warp& warp, const T& seeded_inclusive, const T& initial_value) {
        const T below = warp.from(seeded_inclusive, warp.lane - 1);
        return warp.lane == 0 ? initial_value : below;
    }
};

}  // namespace cub
