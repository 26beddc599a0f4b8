// cooperative_groups.h on the emulated device: CUDA's cooperative groups, written from its documented
// API on the emulated device's barriers and warp collectives (and read by host references, where only
// the declarations matter: kernels' bodies are blanked there).
//
// A block (this_thread_block) syncs with __syncthreads. A tile (tiled_partition<N>, N a power of two up
// to 32) is N consecutive threads of one warp: its collectives are the warp's, with the tile's lanes as
// the mask and N as the width, so a tile's operation waits for that tile only. coalesced_threads() is the
// lanes that reached it together (__activemask), ranked in lane order. The grid (this_grid) syncs only in
// a cooperative launch, where every block is resident; elsewhere sync() fails with that reason. Calls
// that wait take the caller's file and line (__builtin_FILE/LINE), so a deadlock names the user's line.
// cg::reduce and the scans (<cooperative_groups/reduce.h>, <cooperative_groups/scan.h>) and
// memcpy_async (<cooperative_groups/memcpy_async.h>, done at once) are in the same namespace.
#pragma once

#include "kplay_cg_device.h"  // what it uses of the device, declared for a host reference

#define KPLAY_CG_SITE const char *file = __builtin_FILE(), int line = __builtin_LINE()

namespace cooperative_groups {

namespace details {
inline unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned lane() { return block_rank() % 32; }
inline unsigned lanes_below() { return (1u << lane()) - 1; }
// Bit `rank` of the result is the bit of the rank-th set lane of `mask`: a ballot in rank order.
inline unsigned compact(unsigned bits, unsigned mask) {
    unsigned result = 0, rank = 0;
    for (unsigned lane = 0; lane < 32; ++lane)
        if ((mask >> lane) & 1u) result |= ((bits >> lane) & 1u) << rank++;
    return result;
}
// The lane of the rank-th set bit of mask.
inline int lane_of_rank(unsigned mask, unsigned rank) { return static_cast<int>(__fns(mask, 0, static_cast<int>(rank) + 1)); }
// Any trivially copyable value through a shuffle, 8 bytes at a time.
template <class T, class Shuffle>
inline T shuffle_any(T value, Shuffle shuffle) {
    unsigned long long words[(sizeof(T) + 7) / 8] = {};
    __builtin_memcpy(words, &value, sizeof(T));
    for (unsigned long long& word : words) word = shuffle(word);
    T result;
    __builtin_memcpy(&result, words, sizeof(T));
    return result;
}
enum class group_kind : unsigned { block, tile, coalesced, grid, thread };
}  // namespace details

// What every group is, type-erased: thread_group g = tile; g.sync().
class thread_group {
protected:
    details::group_kind kind_ = details::group_kind::block;
    unsigned size_ = 0, rank_ = 0, mask_ = 0, meta_rank_ = 0, meta_size_ = 1;
    thread_group(details::group_kind kind, unsigned size, unsigned rank, unsigned mask, unsigned meta_rank, unsigned meta_size)
        : kind_(kind), size_(size), rank_(rank), mask_(mask), meta_rank_(meta_rank), meta_size_(meta_size) {}

public:
    void sync(KPLAY_CG_SITE) const {
        if (kind_ == details::group_kind::block) __syncthreads(file, line);
        else if (kind_ == details::group_kind::grid) kplay_emu::grid_sync(file, line);
        else if (kind_ != details::group_kind::thread) __syncwarp(mask_, file, line);
    }
    unsigned long long size() const { return size_; }
    unsigned long long num_threads() const { return size_; }
    unsigned long long thread_rank() const { return rank_; }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    bool is_valid() const { return kind_ != details::group_kind::grid || kplay_emu::grid_is_cooperative(); }
    unsigned get_type() const { return static_cast<unsigned>(kind_); }
};

class thread_block : public thread_group {
    friend thread_block this_thread_block();
    thread_block() : thread_group(details::group_kind::block, details::block_size(), details::block_rank(), 0, 0, 1) {}

public:
    static void sync(KPLAY_CG_SITE) { __syncthreads(file, line); }
    static unsigned int size() { return details::block_size(); }
    static unsigned int num_threads() { return details::block_size(); }
    static unsigned int thread_rank() { return details::block_rank(); }
    static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    static dim3 group_dim() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    static dim3 dim_threads() { return group_dim(); }
    struct arrival_token {};
    arrival_token barrier_arrive() const { return {}; }
    // The arrival is the wait: every thread arrives before it waits, so one barrier there orders the same.
    void barrier_wait(arrival_token&&, KPLAY_CG_SITE) const { __syncthreads(file, line); }
};
inline thread_block this_thread_block() { return thread_block(); }

class grid_group : public thread_group {
    friend grid_group this_grid();
    grid_group() : thread_group(details::group_kind::grid, 0, 0, 0, 0, 1) {}

public:
    bool is_valid() const { return kplay_emu::grid_is_cooperative(); }
    void sync(KPLAY_CG_SITE) const { kplay_emu::grid_sync(file, line); }
    static unsigned long long num_blocks() { return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z; }
    static unsigned long long block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z); }
    static unsigned long long size() { return num_blocks() * details::block_size(); }
    static unsigned long long num_threads() { return size(); }
    static unsigned long long thread_rank() { return block_rank() * details::block_size() + details::block_rank(); }
    static dim3 dim_blocks() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
    static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 dim_threads() { return dim3(blockDim.x * gridDim.x, blockDim.y * gridDim.y, blockDim.z * gridDim.z); }
    static dim3 group_dim() { return dim_threads(); }
    static dim3 thread_index() {
        return dim3(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y, blockIdx.z * blockDim.z + threadIdx.z);
    }
};
inline grid_group this_grid() { return grid_group(); }

// A group of lanes of one warp with the collectives of a warp; `width` is the shuffles' segment (the tile's size).
class warp_group : public thread_group {
protected:
    using thread_group::thread_group;
    int width() const { return kind_ == details::group_kind::tile ? static_cast<int>(size_) : 32; }
    unsigned base() const { return kind_ == details::group_kind::tile ? details::lane() & ~(size_ - 1) : 0u; }
    unsigned relative(unsigned lanes) const { return kind_ == details::group_kind::tile ? lanes >> base() : details::compact(lanes, mask_); }
    // The lane holding rank r of this group.
    int lane_of(unsigned r) const { return kind_ == details::group_kind::tile ? static_cast<int>(r % size_) : details::lane_of_rank(mask_, r); }

public:
    void sync(KPLAY_CG_SITE) const { __syncwarp(mask_, file, line); }
    template <class T> T shfl(T var, unsigned src_rank, KPLAY_CG_SITE) const {
        const int source = lane_of(src_rank), w = width();
        return details::shuffle_any(var, [&](unsigned long long v) { return __shfl_sync(mask_, v, source, w, file, line); });
    }
    template <class T> T shfl_down(T var, unsigned delta, KPLAY_CG_SITE) const {
        if (kind_ == details::group_kind::tile)
            return details::shuffle_any(var, [&](unsigned long long v) { return __shfl_down_sync(mask_, v, delta, width(), file, line); });
        const int source = rank_ + delta < size_ ? lane_of(rank_ + delta) : static_cast<int>(details::lane());
        return details::shuffle_any(var, [&](unsigned long long v) { return __shfl_sync(mask_, v, source, 32, file, line); });
    }
    template <class T> T shfl_up(T var, unsigned delta, KPLAY_CG_SITE) const {
        if (kind_ == details::group_kind::tile)
            return details::shuffle_any(var, [&](unsigned long long v) { return __shfl_up_sync(mask_, v, delta, width(), file, line); });
        const int source = rank_ >= delta ? lane_of(rank_ - delta) : static_cast<int>(details::lane());
        return details::shuffle_any(var, [&](unsigned long long v) { return __shfl_sync(mask_, v, source, 32, file, line); });
    }
    template <class T> T shfl_xor(T var, unsigned lane_mask, KPLAY_CG_SITE) const {
        return details::shuffle_any(var, [&](unsigned long long v) { return __shfl_xor_sync(mask_, v, static_cast<int>(lane_mask), width(), file, line); });
    }
    int any(int predicate, KPLAY_CG_SITE) const { return __any_sync(mask_, predicate, file, line); }
    int all(int predicate, KPLAY_CG_SITE) const { return __all_sync(mask_, predicate, file, line); }
    unsigned ballot(int predicate, KPLAY_CG_SITE) const { return relative(__ballot_sync(mask_, predicate, file, line)); }
    template <class T> unsigned match_any(T value, KPLAY_CG_SITE) const { return relative(__match_any_sync(mask_, value, file, line)); }
    template <class T> unsigned match_all(T value, int& predicate, KPLAY_CG_SITE) const {
        return relative(__match_all_sync(mask_, value, &predicate, file, line));
    }
    unsigned lanes() const { return mask_; }  // the warp's lanes this group is (not CUDA's: for kplay's own partitions)
};

// tiled_partition<Size>(parent): Size consecutive threads; `Parent` is what it was cut from (void: any).
template <unsigned Size, class Parent = void>
class thread_block_tile : public warp_group {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "thread_block_tile<Size>: the emulated device runs tiles of 1, 2, 4, 8, 16 or 32 threads");
    template <unsigned, class> friend class thread_block_tile;

public:
    thread_block_tile(unsigned meta_rank, unsigned meta_size)
        : warp_group(details::group_kind::tile, Size, details::block_rank() % Size,
                     Size == 32 ? 0xffffffffu : ((1u << (Size & 31)) - 1) << (details::lane() & ~(Size - 1)), meta_rank, meta_size) {}
    template <class Other> thread_block_tile(const thread_block_tile<Size, Other>& other) : warp_group(other) {}
    static constexpr unsigned long long size() { return Size; }
    static constexpr unsigned long long num_threads() { return Size; }
    unsigned long long thread_rank() const { return rank_; }
    static dim3 dim_threads() { return dim3(Size, 1, 1); }
};

template <unsigned Size>
inline thread_block_tile<Size, thread_block> tiled_partition(const thread_block&) {
    return thread_block_tile<Size, thread_block>(details::block_rank() / Size, (details::block_size() + Size - 1) / Size);
}
template <unsigned Size, unsigned ParentSize, class P>
inline thread_block_tile<Size, thread_block_tile<ParentSize, P>> tiled_partition(const thread_block_tile<ParentSize, P>& parent) {
    static_assert(Size <= ParentSize, "a tile is cut into smaller tiles");
    return thread_block_tile<Size, thread_block_tile<ParentSize, P>>(static_cast<unsigned>(parent.thread_rank()) / Size, ParentSize / Size);
}
inline thread_block_tile<1, void> this_thread() { return thread_block_tile<1, void>(details::block_rank(), details::block_size()); }

// The lanes that reached a call together, or a subset of them.
class coalesced_group : public warp_group {
public:
    explicit coalesced_group(unsigned mask)
        : warp_group(details::group_kind::coalesced, static_cast<unsigned>(__popc(mask)), static_cast<unsigned>(__popc(mask & details::lanes_below())),
                     mask, 0, 1) {}
};
inline coalesced_group coalesced_threads(KPLAY_CG_SITE) { return coalesced_group(__activemask(file, line)); }
// The lanes of `group` whose predicate (or label) equals this lane's.
template <class G>
inline coalesced_group binary_partition(const G& group, bool predicate, KPLAY_CG_SITE) {
    const unsigned votes = __ballot_sync(group.lanes(), predicate, file, line);
    return coalesced_group(predicate ? votes : group.lanes() & ~votes);
}
template <class G, class L>
inline coalesced_group labeled_partition(const G& group, L label, KPLAY_CG_SITE) {
    return coalesced_group(__match_any_sync(group.lanes(), label, file, line));
}

// tiled_partition(parent, n): the same cut, chosen at run time, as a thread_group.
namespace details {
class dynamic_tile : public warp_group {
public:
    dynamic_tile(unsigned size, unsigned rank, unsigned meta_rank, unsigned meta_size)
        : warp_group(group_kind::tile, size, rank, size >= 32 ? 0xffffffffu : ((1u << size) - 1) << (lane() & ~(size - 1)), meta_rank, meta_size) {}
};
inline void check_tile_size(unsigned size, const char* file, int line) {
    if (size == 0 || size > 32 || (size & (size - 1)) != 0)
        kplay_emu::fail_unsupported("tiled_partition(parent, n) is supported on the emulated CPU device for n = 1, 2, 4, 8, 16 or 32 only", file, line);
}
}  // namespace details
inline thread_group tiled_partition(const thread_block&, unsigned size, KPLAY_CG_SITE) {
    details::check_tile_size(size, file, line);
    return details::dynamic_tile(size, details::block_rank() % size, details::block_rank() / size, (details::block_size() + size - 1) / size);
}
inline thread_group tiled_partition(const thread_group& parent, unsigned size, KPLAY_CG_SITE) {
    details::check_tile_size(size, file, line);
    const unsigned rank = static_cast<unsigned>(parent.thread_rank());
    return details::dynamic_tile(size, rank % size, rank / size, static_cast<unsigned>((parent.size() + size - 1) / size));
}

// Free-function spellings.
template <class G> inline void sync(const G& group, KPLAY_CG_SITE) { group.sync(file, line); }
template <class G> inline unsigned long long thread_rank(const G& group) { return group.thread_rank(); }
template <class G> inline unsigned long long group_size(const G& group) { return group.size(); }
template <class G> inline unsigned long long num_threads(const G& group) { return group.num_threads(); }
// fn called by the group's first thread; _broadcast hands its result to every thread of the group.
template <class G, class Fn, class... Args> inline void invoke_one(const G& group, Fn&& fn, Args&&... args) {
    if (group.thread_rank() == 0) fn(static_cast<Args&&>(args)...);
}
template <class G, class Fn, class... Args> inline auto invoke_one_broadcast(const G& group, Fn&& fn, Args&&... args) {
    decltype(fn(static_cast<Args&&>(args)...)) result{};
    if (group.thread_rank() == 0) result = fn(static_cast<Args&&>(args)...);
    return group.shfl(result, 0);
}

// The operators cg::reduce and the scans take (CCCL's): plus sums, less keeps the smaller, greater the larger.
template <class T = void> struct plus { T operator()(const T& a, const T& b) const { return a + b; } };
template <class T = void> struct less { T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <class T = void> struct greater { T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T = void> struct bit_and { T operator()(const T& a, const T& b) const { return a & b; } };
template <class T = void> struct bit_or { T operator()(const T& a, const T& b) const { return a | b; } };
template <class T = void> struct bit_xor { T operator()(const T& a, const T& b) const { return a ^ b; } };
template <> struct plus<void> { template <class T> T operator()(const T& a, const T& b) const { return a + b; } };
template <> struct less<void> { template <class T> T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <> struct greater<void> { template <class T> T operator()(const T& a, const T& b) const { return a < b ? b : a; } };

// Every thread of a tile or coalesced group gets op over the group's values (a tree over the ranks).
template <class G, class T, class Op>
inline T reduce(const G& group, T value, Op op) {
    const unsigned size = static_cast<unsigned>(group.size()), rank = static_cast<unsigned>(group.thread_rank());
    for (unsigned offset = 1; offset < size; offset *= 2) {
        const T other = group.shfl_down(value, offset);
        if (rank % (2 * offset) == 0 && rank + offset < size) value = op(value, other);
    }
    return group.shfl(value, 0);
}
template <class G, class T, class Op>
inline void reduce_store_async(const G& group, T* destination, T value, Op op) {
    const T total = reduce(group, value, op);
    if (group.thread_rank() == 0) *destination = total;
}
// Rank r gets op over ranks 0..r (inclusive) or 0..r-1 (exclusive; rank 0 gets T()).
template <class G, class T, class Op = plus<T>>
inline T inclusive_scan(const G& group, T value, Op op = Op()) {
    const unsigned size = static_cast<unsigned>(group.size()), rank = static_cast<unsigned>(group.thread_rank());
    for (unsigned offset = 1; offset < size; offset *= 2) {
        const T other = group.shfl_up(value, offset);
        if (rank >= offset) value = op(other, value);
    }
    return value;
}
template <class G, class T, class Op = plus<T>>
inline T exclusive_scan(const G& group, T value, Op op = Op()) {
    const T inclusive = inclusive_scan(group, value, op);
    const T before = group.shfl_up(inclusive, 1);
    return group.thread_rank() == 0 ? T() : before;
}

// memcpy_async: the group's copy is done when the call returns (its first thread copies), which every
// wait then allows.
template <class G>
inline void memcpy_async(const G& group, void* destination, const void* source, unsigned long long bytes, KPLAY_CG_SITE) {
    group.sync(file, line);
    if (group.thread_rank() == 0) __builtin_memcpy(destination, source, bytes);
}
template <class G> inline void wait(const G& group, KPLAY_CG_SITE) { group.sync(file, line); }
template <unsigned Count, class G> inline void wait_prior(const G& group, KPLAY_CG_SITE) { group.sync(file, line); }

// Thread block clusters (sm_90) are not emulated.
template <class T = void> inline T this_cluster() {
    static_assert(kplay_emu::always_false<T>, "cooperative_groups::this_cluster is not supported on the emulated CPU device: thread block clusters are not emulated; run this kernel on a GPU");
}

}  // namespace cooperative_groups

namespace cg = cooperative_groups;

#undef KPLAY_CG_SITE
