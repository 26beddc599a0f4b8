// CUB on the emulated device. The walks (tests/data/cub/*_walk.cu) call every documented form of CUB's
// block and warp primitives; each is run at every thread order and each result is checked against
// values computed here, on the host, from what CUB documents: integers exactly, float sums within
// rounding (CUB adds floats in a tree). Every slot a walk should not write must still hold the poison.
// Also: a block scan task with a running prefix, custom operators, and the refusals by name (the
// device-wide algorithms' calls, and the CUB headers kplay does not run).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <type_traits>

#include "base/install_paths.hpp"
#include "compile/cub_stand_in.hpp"
#include "cub_walks.hpp"
#include "emu_harness.hpp"

namespace kplay {
namespace {

using test::EmuKernel;
using test::kEveryOrder;
using Ints = std::vector<int>;
using Op = std::function<int(int, int)>;

constexpr int kUndefined = -123456789;  // tests/data/cub/walk.cuh's walk::kUndefined

const Op kPlus = [](int a, int b) { return a + b; };
const Op kMax = [](int a, int b) { return std::max(a, b); };
const Op kLast = [](int a, int b) { return b != 0 ? b : a; };

Ints slice(const Ints& values, size_t from, size_t count) { return Ints(values.begin() + from, values.begin() + from + count); }

// Scans as CUB documents them: an exclusive scan's first output is the seed, or undefined without one.
Ints inclusive(const Ints& v, const Op& op, std::optional<int> seed = std::nullopt) {
    Ints out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = i == 0 ? (seed ? op(*seed, v[0]) : v[0]) : op(out[i - 1], v[i]);
    return out;
}
Ints exclusive(const Ints& v, const Op& op, std::optional<int> seed = std::nullopt) {
    Ints out(v.size());
    const Ints scanned = inclusive(v, op, seed);
    for (size_t i = 0; i < v.size(); ++i) out[i] = i > 0 ? scanned[i - 1] : seed ? *seed : kUndefined;
    return out;
}
int fold(const Ints& v, const Op& op) { return inclusive(v, op).back(); }
Ints same(size_t count, int value) { return Ints(count, value); }

// The walk's slots in the order it writes them; each expectation names what it checks.
class Slots {
public:
    Slots(const Ints& out, size_t size) : out_(out), size_(size) {}
    // The next slot's first expected.size() elements.
    void expect(const std::string& what, const Ints& expected) {
        ASSERT_LE((next_ + 1) * size_, out_.size()) << what;
        const int* slot = out_.data() + size_ * next_++;
        for (size_t i = 0; i < expected.size(); ++i)
            if (slot[i] != expected[i]) {
                ADD_FAILURE() << what << " (slot " << next_ - 1 << "), element " << i << ": " << slot[i] << ", expected " << expected[i];
                return;
            }
    }
    // Nothing after the slots read was written.
    void expect_rest_unwritten() const {
        for (size_t i = next_ * size_; i < out_.size(); ++i)
            if (out_[i] != test::kCubWalkPoison) {
                ADD_FAILURE() << "element " << i << " (after slot " << next_ << ") was written: " << out_[i];
                return;
            }
    }

private:
    const Ints& out_;
    size_t size_, next_ = 0;
};

void expect_near_floats(const std::string& what, const float* got, const std::vector<double>& expected) {
    for (size_t i = 0; i < expected.size(); ++i)
        if (!(std::fabs(got[i] - expected[i]) <= 1e-3 + 1e-5 * std::fabs(expected[i]))) {
            ADD_FAILURE() << what << ", element " << i << ": " << got[i] << ", expected " << expected[i];
            return;
        }
}

std::vector<double> float_inclusive_sums(const std::vector<float>& v, size_t from, size_t count, bool exclusive_sums = false) {
    std::vector<double> out(count);
    double running = 0;
    for (size_t i = 0; i < count; ++i) {
        if (exclusive_sums) out[i] = running;
        running += v[from + i];
        if (!exclusive_sums) out[i] = running;
    }
    return out;
}

// Runs a walk at every thread order; `check` is called with each run's outputs.
void walk_at_every_order(const std::string& name, const std::function<void(const test::CubWalkOutputs&)>& check) {
    const std::vector<ThreadOrder> orders(std::begin(kEveryOrder), std::end(kEveryOrder));
    const std::vector<test::CubWalkOutputs> runs = test::run_cub_walk_emulated(test::cub_walk(name), orders);
    ASSERT_EQ(runs.size(), orders.size()) << runs.front().error;
    for (size_t i = 0; i < runs.size(); ++i) {
        SCOPED_TRACE(thread_order_name(orders[i]));
        ASSERT_TRUE(runs[i].error.empty()) << runs[i].error;
        check(runs[i]);
    }
}

const Ints kIn = test::cub_walk_ints();
const std::vector<float> kFin = test::cub_walk_floats();

TEST(EmuCubWalk, BlockScanEveryFormAtEveryAlgorithm) {
    walk_at_every_order("block_scan_walk", [](const test::CubWalkOutputs& run) {
        const Ints x = slice(kIn, 0, 128), f = slice(kIn, 128, 512);
        const int sum = fold(x, kPlus), max = fold(x, kMax), items_sum = fold(f, kPlus);
        Slots s(run.ints, 512);
        for (const char* algorithm : {"raking", "raking_memoize", "warp_scans"}) {
            SCOPED_TRACE(algorithm);
            s.expect("InclusiveSum", inclusive(x, kPlus));
            s.expect("InclusiveSum, aggregate", inclusive(x, kPlus));
            s.expect("its aggregate", same(128, sum));
            s.expect("InclusiveSum, prefix", inclusive(x, kPlus, 1000));
            s.expect("InclusiveSum, prefix, second tile", inclusive(x, kPlus, 1000 + sum));
            Ints callbacks = same(128, 1000);
            std::fill(callbacks.begin(), callbacks.begin() + 32, 1000 + 2 * sum);  // the first warp's
            s.expect("the callbacks' running totals", callbacks);
            s.expect("ExclusiveSum (private storage)", exclusive(x, kPlus, 0));
            s.expect("ExclusiveSum, aggregate", exclusive(x, kPlus, 0));
            s.expect("its aggregate", same(128, sum));
            s.expect("ExclusiveSum, prefix", exclusive(x, kPlus, 1000));
            s.expect("InclusiveScan Last", inclusive(x, kLast));
            s.expect("InclusiveScan Max, aggregate", inclusive(x, kMax));
            s.expect("its aggregate", same(128, max));
            s.expect("InclusiveScan Max, prefix", inclusive(x, kMax, 50));
            s.expect("ExclusiveScan Max from -1000", exclusive(x, kMax, -1000));
            s.expect("ExclusiveScan Last from 7, aggregate", exclusive(x, kLast, 7));
            s.expect("its aggregate (without the initial value)", same(128, fold(x, kLast)));
            s.expect("ExclusiveScan Last", exclusive(x, kLast));
            s.expect("ExclusiveScan Max, aggregate", exclusive(x, kMax));
            s.expect("its aggregate", same(128, max));
            s.expect("ExclusiveScan Last, prefix", exclusive(x, kLast, 5));
            s.expect("InclusiveSum of items", inclusive(f, kPlus));
            s.expect("InclusiveSum of items, aggregate", inclusive(f, kPlus));
            s.expect("its aggregate", same(128, items_sum));
            s.expect("InclusiveSum of items, prefix", inclusive(f, kPlus, 1000));
            s.expect("ExclusiveSum of items", exclusive(f, kPlus, 0));
            s.expect("ExclusiveSum of items in place, aggregate", exclusive(f, kPlus, 0));
            s.expect("its aggregate", same(128, items_sum));
            s.expect("ExclusiveSum of items, prefix", exclusive(f, kPlus, 1000));
            s.expect("InclusiveScan of items Last", inclusive(f, kLast));
            s.expect("InclusiveScan of items Max, aggregate", inclusive(f, kMax));
            s.expect("its aggregate", same(128, fold(f, kMax)));
            s.expect("InclusiveScan of items Max from -1000", inclusive(f, kMax, -1000));
            s.expect("InclusiveScan of items Last from 7, aggregate", inclusive(f, kLast, 7));
            s.expect("its aggregate", same(128, fold(f, kLast)));
            s.expect("InclusiveScan of items Last, prefix", inclusive(f, kLast, 5));
            s.expect("ExclusiveScan of items Max from -1000", exclusive(f, kMax, -1000));
            s.expect("ExclusiveScan of items Last from 7, aggregate", exclusive(f, kLast, 7));
            s.expect("its aggregate", same(128, fold(f, kLast)));
            s.expect("ExclusiveScan of items Last", exclusive(f, kLast));
            s.expect("ExclusiveScan of items Max, aggregate", exclusive(f, kMax));
            s.expect("its aggregate", same(128, fold(f, kMax)));
            s.expect("ExclusiveScan of items Last, prefix", exclusive(f, kLast, 5));
        }
        s.expect_rest_unwritten();
        for (int algorithm = 0; algorithm < 3; ++algorithm) {
            expect_near_floats("float InclusiveSum", run.floats.data() + 1024 * algorithm, float_inclusive_sums(kFin, 0, 128));
            expect_near_floats("float ExclusiveSum of items", run.floats.data() + 1024 * algorithm + 512, float_inclusive_sums(kFin, 128, 512, true));
        }
    });
}

TEST(EmuCubWalk, BlockReduceEveryFormAtEveryAlgorithm) {
    walk_at_every_order("block_reduce_walk", [](const test::CubWalkOutputs& run) {
        const Ints x = slice(kIn, 0, 128), f = slice(kIn, 128, 512), first = slice(kIn, 0, 77);
        Slots s(run.ints, 1);
        for (const bool commutative_only : {true, false, false}) {
            s.expect("Sum", {fold(x, kPlus)});
            s.expect("Sum of items", {fold(f, kPlus)});
            s.expect("Sum of 77", {fold(first, kPlus)});
            s.expect("Sum (private storage)", {fold(x, kPlus)});
            s.expect("Max", {fold(x, kMax)});
            s.expect("Max of items", {fold(f, kMax)});
            s.expect("Max of 77", {fold(first, kMax)});
            s.expect("Last", {commutative_only ? kUndefined : fold(x, kLast)});
            s.expect("Last of items", {commutative_only ? kUndefined : fold(f, kLast)});
            s.expect("Last of 77", {commutative_only ? kUndefined : fold(first, kLast)});
        }
        s.expect_rest_unwritten();
        for (int algorithm = 0; algorithm < 3; ++algorithm) {
            const float* got = run.floats.data() + 4 * algorithm;
            expect_near_floats("float Sum", got, {float_inclusive_sums(kFin, 0, 128).back()});
            expect_near_floats("float Sum of items", got + 1, {float_inclusive_sums(kFin, 128, 512).back()});
            expect_near_floats("float Sum of 77", got + 2, {float_inclusive_sums(kFin, 0, 77).back()});
            EXPECT_EQ(got[3], *std::max_element(kFin.begin() + 128, kFin.begin() + 640)) << "float Max of items";
        }
    });
}

// Thread t's item i of a 64-thread tile of 4 items, for a rank function (thread, item) -> rank.
Ints registers(const std::function<int(int, int)>& value) {
    Ints out(256);
    for (int t = 0; t < 64; ++t)
        for (int i = 0; i < 4; ++i) out[t * 4 + i] = value(t, i);
    return out;
}
int blocked(int t, int i) { return t * 4 + i; }
int striped(int t, int i) { return i * 64 + t; }
int warp_striped(int t, int i) { return t / 32 * 128 + i * 32 + t % 32; }
// A tile written by places (thread, item) -> place from registers holding in[256 + blocked place].
Ints stored(const std::function<int(int, int)>& place, int valid = 256) {
    Ints out(256, -5);
    for (int t = 0; t < 64; ++t)
        for (int i = 0; i < 4; ++i)
            if (place(t, i) < valid) out[place(t, i)] = kIn[256 + t * 4 + i];
    return out;
}

TEST(EmuCubWalk, BlockLoadStoreAndExchangeEveryForm) {
    walk_at_every_order("block_io_walk", [](const test::CubWalkOutputs& run) {
        Slots s(run.ints, 256);
        const auto load = [](int (*rank)(int, int), int from, int valid, int past) {
            return registers([=](int t, int i) { return rank(t, i) < valid ? kIn[from + rank(t, i)] : past; });
        };
        const Ints second_tile = slice(kIn, 256, 256);
        Ints second_tile_until_150 = second_tile;
        std::fill(second_tile_until_150.begin() + 150, second_tile_until_150.end(), -5);
        for (const char* algorithm : {"direct", "striped", "vectorize", "transpose", "warp_transpose", "warp_transpose_timesliced"}) {
            SCOPED_TRACE(algorithm);
            const std::string name = algorithm;
            int (*rank)(int, int) = name == "striped" ? striped : blocked;
            const bool transposing = name.find("transpose") != std::string::npos;
            s.expect("Load", load(rank, 0, 256, 0));
            s.expect("Load of 200", load(rank, 0, 200, transposing ? kUndefined : -1));
            s.expect("Load of 200, default -7", load(rank, 0, 200, -7));
            s.expect("Load (private storage)", load(rank, 256, 256, 0));
            // A transposing store exchanges the caller's items in place, as CUB does: after it, blocked
            // place b holds what place arranged(b) held (striped or warp-striped), and the next store of
            // the same items writes that order.
            int (*arranged)(int, int) = name == "transpose" ? striped : warp_striped;
            const auto after_stores = [&](int stores, int until) {
                Ints tile(256);
                for (int p = 0; p < 256; ++p) {
                    int place = p;
                    for (int k = 0; k < stores && transposing; ++k) place = arranged(place / 4, place % 4);
                    tile[p] = p < until ? second_tile[place] : -5;
                }
                return tile;
            };
            s.expect("Store", after_stores(0, 256));
            s.expect("Store of 150", after_stores(1, 150));
            s.expect("Store (private storage)", after_stores(2, 256));
        }
        s.expect("LoadDirectBlocked", load(blocked, 0, 256, 0));
        s.expect("LoadDirectBlocked of 200", load(blocked, 0, 200, -1));
        s.expect("LoadDirectBlocked of 200, default -7", load(blocked, 0, 200, -7));
        s.expect("LoadDirectBlockedVectorized", load(blocked, 256, 256, 0));
        s.expect("LoadDirectStriped", load(striped, 0, 256, 0));
        s.expect("LoadDirectStriped of 200", load(striped, 0, 200, -1));
        s.expect("LoadDirectStriped of 200, default -7", load(striped, 0, 200, -7));
        s.expect("LoadDirectWarpStriped", load(warp_striped, 0, 256, 0));
        s.expect("LoadDirectWarpStriped of 200", load(warp_striped, 0, 200, -1));
        s.expect("LoadDirectWarpStriped of 200, default -7", load(warp_striped, 0, 200, -7));
        s.expect("StoreDirectBlocked", stored(blocked));
        s.expect("StoreDirectBlocked of 150", stored(blocked, 150));
        s.expect("StoreDirectBlockedVectorized", stored(blocked));
        s.expect("StoreDirectStriped", stored(striped));
        s.expect("StoreDirectStriped of 150", stored(striped, 150));
        s.expect("StoreDirectWarpStriped", stored(warp_striped));
        s.expect("StoreDirectWarpStriped of 150", stored(warp_striped, 150));
        // The exchanges: the item of rank r is in[r]; a scatter sends in[j] to rank 37 j mod 256.
        const auto scattered = [](int (*rank)(int, int), int leave_out_every) {
            return registers([=](int t, int i) {
                const int from = (rank(t, i) * 173) & 255;
                return leave_out_every && from % leave_out_every == 0 ? kUndefined : kIn[from];
            });
        };
        for (const bool time_slicing : {false, true}) {
            SCOPED_TRACE(time_slicing ? "with time-slicing" : "without time-slicing");
            s.expect("BlockedToStriped", load(striped, 0, 256, 0));
            s.expect("StripedToBlocked", load(blocked, 0, 256, 0));
            s.expect("BlockedToWarpStriped", load(warp_striped, 0, 256, 0));
            s.expect("WarpStripedToBlocked", load(blocked, 0, 256, 0));
            s.expect("ScatterToBlocked", scattered(blocked, 0));
            s.expect("ScatterToStriped", scattered(striped, 0));
            if (!time_slicing) {  // CUB has them only without time-slicing (the walk says why)
                s.expect("ScatterToStripedGuarded", scattered(striped, 5));
                s.expect("ScatterToStripedFlagged", scattered(striped, 3));
            }
            s.expect("BlockedToStriped in place", load(striped, 0, 256, 0));
            s.expect("StripedToBlocked in place", load(blocked, 0, 256, 0));
            s.expect("ScatterToBlocked in place", scattered(blocked, 0));
            s.expect("BlockedToWarpStriped (private storage)", load(warp_striped, 0, 256, 0));
        }
        s.expect_rest_unwritten();
    });
}

// A key's bits as CUB's radix sort orders them: signed integers with the sign bit flipped, floating-point
// numbers with it flipped when positive and all bits flipped when negative, -0.0 as +0.0.
template <class Key> uint64_t radix_bits(Key key) {
    uint64_t bits = 0;
    std::memcpy(&bits, &key, sizeof(Key));
    const uint64_t sign = uint64_t{1} << (sizeof(Key) * 8 - 1), all = sign | (sign - 1);
    if constexpr (std::is_floating_point_v<Key>) {
        if (bits == sign) bits = 0;
        return (bits & sign) ? ~bits & all : bits | sign;
    } else if constexpr (std::is_signed_v<Key>) {
        return (bits ^ sign) & all;
    } else {
        return bits;
    }
}

template <class Key> std::vector<Key> radix_keys() {
    std::vector<Key> keys(256);
    for (int j = 0; j < 256; ++j) {
        if constexpr (std::is_same_v<Key, unsigned>) keys[j] = static_cast<unsigned>(kIn[j]) * 2654435761u;
        else if constexpr (std::is_same_v<Key, short>) keys[j] = static_cast<short>(kIn[j] * 331);
        else if constexpr (std::is_same_v<Key, long long>) keys[j] = static_cast<long long>(kIn[j]) * 40000000011ll;
        else if constexpr (std::is_same_v<Key, float>) keys[j] = kFin[1024 + j];
        else if constexpr (std::is_same_v<Key, double>) keys[j] = static_cast<double>(kFin[1024 + j]) / 3.0;
        else keys[j] = static_cast<Key>(kIn[j]);
    }
    return keys;
}

// One sort's two slots: its keys' bytes (two ints each) and its values, by rank.
template <class Key>
void expect_sort(Slots& s, const std::string& what, const std::vector<Key>& keys, bool descending, int begin, int end, bool with_values,
                 bool striped_result) {
    const uint64_t mask = end - begin >= 64 ? ~uint64_t{0} : (uint64_t{1} << (end - begin)) - 1;
    std::vector<int> order(256);
    for (int j = 0; j < 256; ++j) order[j] = j;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const uint64_t x = (radix_bits(keys[a]) >> begin) & mask, y = (radix_bits(keys[b]) >> begin) & mask;
        return descending ? x > y : x < y;
    });
    Ints key_bytes(512), values(256);
    for (int rank = 0; rank < 256; ++rank) {
        uint64_t bits = 0;
        std::memcpy(&bits, &keys[order[rank]], sizeof(Key));
        key_bytes[2 * rank] = static_cast<int>(bits & 0xffffffffu);
        key_bytes[2 * rank + 1] = static_cast<int>(bits >> 32);
        // Keys alone leave the values where they were: thread t's item i, t*4+i, at its place.
        values[rank] = with_values ? order[rank] : striped_result ? (rank % 64) * 4 + rank / 64 : rank;
    }
    s.expect(what + ": keys", key_bytes);
    s.expect(what + ": values", values);
}

template <class Key> void expect_sorts(Slots& s) {
    SCOPED_TRACE(sizeof(Key));
    const std::vector<Key> keys = radix_keys<Key>();
    const int bits = static_cast<int>(sizeof(Key) * 8);
    expect_sort(s, "Sort", keys, false, 0, bits, true, false);
    expect_sort(s, "Sort keys", keys, false, 0, bits, false, false);
    expect_sort(s, "SortDescending", keys, true, 0, bits, true, false);
    expect_sort(s, "SortDescending keys", keys, true, 0, bits, false, false);
    expect_sort(s, "SortBlockedToStriped", keys, false, 0, bits, true, true);
    expect_sort(s, "SortBlockedToStriped keys", keys, false, 0, bits, false, true);
    expect_sort(s, "SortDescendingBlockedToStriped", keys, true, 0, bits, true, true);
    expect_sort(s, "SortDescendingBlockedToStriped keys", keys, true, 0, bits, false, true);
    expect_sort(s, "Sort of bits 2..", keys, false, 2, bits - 3, true, false);
    expect_sort(s, "Sort keys of bits 1..", keys, false, 1, bits / 2, false, false);
    expect_sort(s, "SortDescending of bits 3..", keys, true, 3, bits - 1, true, false);
    expect_sort(s, "SortBlockedToStriped of the high bits", keys, false, bits / 2, bits, true, true);
    expect_sort(s, "SortDescendingBlockedToStriped of the low bits", keys, true, 0, bits / 2 + 1, true, true);
}

TEST(EmuCubWalk, BlockRadixSortEveryFormForSevenKeyTypes) {
    walk_at_every_order("block_radix_sort_walk", [](const test::CubWalkOutputs& run) {
        Slots s(run.ints, 512);
        expect_sorts<int>(s);
        expect_sorts<unsigned>(s);
        expect_sorts<unsigned char>(s);
        expect_sorts<short>(s);
        expect_sorts<long long>(s);
        expect_sorts<float>(s);
        expect_sorts<double>(s);
        s.expect_rest_unwritten();
    });
}

TEST(EmuCubWalk, BlockHistogramEveryFormForBothAlgorithms) {
    walk_at_every_order("block_histogram_walk", [](const test::CubWalkOutputs& run) {
        Ints first(37, 0), second(37, 0);
        for (int j = 0; j < 256; ++j) {
            ++first[(kIn[j] + 100) % 37];
            ++second[(kIn[256 + j] + 100) % 37];
        }
        Ints both(37);
        for (int bin = 0; bin < 37; ++bin) both[bin] = first[bin] + second[bin];
        Slots s(run.ints, 37);
        for (const char* algorithm : {"sort", "atomic"}) {
            SCOPED_TRACE(algorithm);
            s.expect("Histogram", first);
            s.expect("InitHistogram, Composite twice", both);
            s.expect("Histogram (private storage, int counters)", second);
        }
        s.expect_rest_unwritten();
    });
}

TEST(EmuCubWalk, BlockDiscontinuityAndAdjacentDifferenceEveryForm) {
    walk_at_every_order("block_discontinuity_walk", [](const test::CubWalkOutputs& run) {
        Ints r(256), d = slice(kIn, 256, 256);
        for (int j = 0; j < 256; ++j) r[j] = kIn[j] / 40;
        const auto flags = [](const std::function<int(int)>& flag) {
            Ints out(256);
            for (int j = 0; j < 256; ++j) out[j] = flag(j);
            return out;
        };
        const auto head = [&](int j, bool every_17th) { return r[j - 1] != r[j] || (every_17th && j % 17 == 0); };
        const auto tail = [&](int j, bool every_17th) { return r[j] != r[j + 1] || (every_17th && (j + 1) % 17 == 0); };
        Slots s(run.ints, 256);
        s.expect("FlagHeads", flags([&](int j) { return j == 0 || head(j, false); }));
        s.expect("FlagHeads with indices", flags([&](int j) { return j == 0 || head(j, true); }));
        s.expect("FlagHeads after the tile's own first item", flags([&](int j) { return j > 0 && head(j, false); }));
        s.expect("FlagTails", flags([&](int j) { return j == 255 || tail(j, false); }));
        s.expect("FlagTails with indices, before 99", flags([&](int j) { return j == 255 ? r[255] != 99 : tail(j, true); }));
        s.expect("FlagHeadsAndTails: heads", flags([&](int j) { return j == 0 || head(j, false); }));
        s.expect("FlagHeadsAndTails: tails", flags([&](int j) { return j == 255 || tail(j, false); }));
        s.expect("FlagHeadsAndTails before 99: heads", flags([&](int j) { return j == 0 || head(j, false); }));
        s.expect("FlagHeadsAndTails before 99: tails", flags([&](int j) { return j == 255 ? r[255] != 99 : tail(j, false); }));
        s.expect("FlagHeadsAndTails after 99, with indices: heads", flags([&](int j) { return j == 0 || head(j, true); }));
        s.expect("FlagHeadsAndTails after 99, with indices: tails", flags([&](int j) { return j == 255 || tail(j, true); }));
        s.expect("FlagHeadsAndTails between 99s: heads", flags([&](int j) { return j == 0 ? r[0] != 99 : head(j, false); }));
        s.expect("FlagHeadsAndTails between 99s: tails", flags([&](int j) { return j == 255 ? r[255] != 99 : tail(j, false); }));
        const auto left = [&](int valid, std::optional<int> predecessor) {
            return flags([&](int j) { return j >= valid ? d[j] : j > 0 ? 3 * d[j] - d[j - 1] : predecessor ? 3 * d[0] - *predecessor : d[0]; });
        };
        const auto right = [&](int valid, std::optional<int> successor) {
            return flags([&](int j) {
                if (valid < 256) return j < valid - 1 ? 3 * d[j] - d[j + 1] : d[j];
                return j < 255 ? 3 * d[j] - d[j + 1] : successor ? 3 * d[255] - *successor : d[255];
            });
        };
        s.expect("SubtractLeft", left(256, std::nullopt));
        s.expect("SubtractLeft after 1000", left(256, 1000));
        s.expect("SubtractLeftPartialTile of 150", left(150, std::nullopt));
        s.expect("SubtractLeftPartialTile of 150 after 1000", left(150, 1000));
        s.expect("SubtractLeftPartialTile of none", d);
        s.expect("SubtractRight", right(256, std::nullopt));
        s.expect("SubtractRight before 1000", right(256, 1000));
        s.expect("SubtractRightPartialTile of 150", right(150, std::nullopt));
        s.expect("SubtractLeft in place", left(256, std::nullopt));
        s.expect("SubtractRight in place (private storage)", right(256, std::nullopt));
        s.expect_rest_unwritten();
    });
}

// Per logical warp of `lanes`: f(the warp's values, lane) for each of the 128 threads.
Ints per_warp(int lanes, const Ints& values, const std::function<int(const Ints&, int)>& f) {
    Ints out(128);
    for (int t = 0; t < 128; ++t) out[t] = f(slice(values, t - t % lanes, lanes), t % lanes);
    return out;
}
Ints scan_per_warp(int lanes, const Ints& x, bool is_inclusive, const Op& op, std::optional<int> seed = std::nullopt) {
    return per_warp(lanes, x, [&](const Ints& v, int lane) { return (is_inclusive ? inclusive(v, op, seed) : exclusive(v, op, seed))[lane]; });
}

void expect_warp_reductions(Slots& s, int lanes, const Ints& x, const test::CubWalkOutputs& run, size_t float_slot) {
    const Ints heads = per_warp(lanes, slice(kIn, 128, 128), [](const Ints& v, int lane) { return v[lane] % 3 == 0; });
    const Ints tails = per_warp(lanes, slice(kIn, 256, 128), [](const Ints& v, int lane) { return v[lane] % 3 == 0; });
    const auto in_lane_0 = [&](const std::function<int(const Ints&)>& f) {
        return per_warp(lanes, x, [&](const Ints& v, int lane) { return lane == 0 ? f(v) : kUndefined; });
    };
    // A segment's result in its first lane: head segments end before the next head, tail ones at a tail.
    const auto segmented = [&](bool by_heads, const Op& op) {
        Ints out(128, kUndefined);
        for (int t = 0; t < 128; ++t) {
            const int lane = t % lanes, first = t - lane;
            if (lane != 0 && (by_heads ? !heads[t] : !tails[t - 1])) continue;
            int total = x[t];
            for (int u = t + 1; u < first + lanes && (by_heads ? !heads[u] : !tails[u - 1]); ++u) total = op(total, x[u]);
            out[t] = total;
        }
        return out;
    };
    const int valid = lanes > 2 ? lanes - 2 : 1, half = lanes / 2 + 1;
    s.expect("Sum", in_lane_0([](const Ints& v) { return fold(v, kPlus); }));
    s.expect("Sum of valid items", in_lane_0([&](const Ints& v) { return fold(slice(v, 0, valid), kPlus); }));
    s.expect("Reduce Max", in_lane_0([](const Ints& v) { return fold(v, kMax); }));
    s.expect("Reduce Last", in_lane_0([](const Ints& v) { return fold(v, kLast); }));
    s.expect("Reduce Max of valid items", in_lane_0([&](const Ints& v) { return fold(slice(v, 0, half), kMax); }));
    s.expect("HeadSegmentedSum", segmented(true, kPlus));
    s.expect("HeadSegmentedReduce Last", segmented(true, kLast));
    s.expect("TailSegmentedSum", segmented(false, kPlus));
    s.expect("TailSegmentedReduce Max", segmented(false, kMax));
    std::vector<double> sums(128, 0.0);
    for (int t = 0; t < 128; t += lanes) sums[t] = float_inclusive_sums(kFin, t, lanes).back();
    expect_near_floats("float Sum", run.floats.data() + 128 * float_slot, sums);
}

void expect_warp_scans(Slots& s, int lanes, const Ints& x, const test::CubWalkOutputs& run, size_t float_slot) {
    const auto aggregate = [&](const Op& op) { return per_warp(lanes, x, [&](const Ints& v, int) { return fold(v, op); }); };
    s.expect("InclusiveSum", scan_per_warp(lanes, x, true, kPlus));
    s.expect("InclusiveSum, aggregate", scan_per_warp(lanes, x, true, kPlus));
    s.expect("its aggregate", aggregate(kPlus));
    s.expect("ExclusiveSum", scan_per_warp(lanes, x, false, kPlus, 0));
    s.expect("ExclusiveSum, aggregate", scan_per_warp(lanes, x, false, kPlus, 0));
    s.expect("its aggregate", aggregate(kPlus));
    s.expect("InclusiveScan Last", scan_per_warp(lanes, x, true, kLast));
    s.expect("InclusiveScan Max, aggregate", scan_per_warp(lanes, x, true, kMax));
    s.expect("its aggregate", aggregate(kMax));
    s.expect("InclusiveScan Max from -1000", scan_per_warp(lanes, x, true, kMax, -1000));
    s.expect("InclusiveScan Last from 7, aggregate", scan_per_warp(lanes, x, true, kLast, 7));
    s.expect("its aggregate (without the initial value)", aggregate(kLast));
    s.expect("ExclusiveScan Last", scan_per_warp(lanes, x, false, kLast));
    s.expect("ExclusiveScan Max from -1000", scan_per_warp(lanes, x, false, kMax, -1000));
    s.expect("ExclusiveScan Max, aggregate", scan_per_warp(lanes, x, false, kMax));
    s.expect("its aggregate", aggregate(kMax));
    s.expect("ExclusiveScan Last from 7, aggregate", scan_per_warp(lanes, x, false, kLast, 7));
    s.expect("its aggregate", aggregate(kLast));
    s.expect("Scan Max: inclusive", scan_per_warp(lanes, x, true, kMax));
    s.expect("Scan Max: exclusive", scan_per_warp(lanes, x, false, kMax));
    s.expect("Scan Last from 7: inclusive", scan_per_warp(lanes, x, true, kLast, 7));
    s.expect("Scan Last from 7: exclusive", scan_per_warp(lanes, x, false, kLast, 7));
    s.expect("Broadcast from lane 3", per_warp(lanes, x, [&](const Ints& v, int) { return v[3 % lanes]; }));
    std::vector<double> sums(128);
    for (int t = 0; t < 128; ++t) sums[t] = float_inclusive_sums(kFin, t - t % lanes, t % lanes + 1).back();
    expect_near_floats("float InclusiveSum", run.floats.data() + 128 * float_slot, sums);
}

void expect_warp_io(Slots& s, int lanes, const std::string& algorithm) {
    const int tile = lanes * 4, valid = tile - 5;
    // Thread t's item i: the item of place (lane, i) in its warp's tile starting at in[from].
    const auto items = [&](int from, const std::function<int(int, int)>& place, const std::function<int(int)>& past) {
        Ints out(512);
        for (int t = 0; t < 128; ++t)
            for (int i = 0; i < 4; ++i) {
                const int at = place(t % lanes, i), base = from + t / lanes * tile;
                out[t * 4 + i] = at < valid ? kIn[base + at] : past(base + at);
            }
        return out;
    };
    const auto blocked_place = [](int lane, int i) { return lane * 4 + i; };
    const auto striped_place = [&](int lane, int i) { return i * lanes + lane; };
    const std::function<int(int, int)> place = algorithm == "striped" ? std::function<int(int, int)>(striped_place) : blocked_place;
    const auto whole = [](int index) { return kIn[index]; };
    s.expect("Load", items(0, place, whole));
    s.expect("Load of valid items", items(0, place, [&](int) { return algorithm == "transpose" ? kUndefined : -1; }));
    s.expect("Load of valid items, default -7", items(0, place, [](int) { return -7; }));
    s.expect("Load, second tile", items(512, place, whole));
    s.expect("Store", slice(kIn, 512, 512));
    // WARP_STORE_TRANSPOSE leaves the caller's items striped (CUB exchanges them in place): the second
    // store writes place p of a warp's tile from its striped place.
    Ints until_valid(512);
    for (int j = 0; j < 512; ++j) {
        const int at = j % tile, from = algorithm == "transpose" ? striped_place(at / 4, at % 4) : at;
        until_valid[j] = at < valid ? kIn[512 + j - at + from] : -5;
    }
    s.expect("Store of valid items", until_valid);
    s.expect("BlockedToStriped", items(0, striped_place, whole));
    s.expect("StripedToBlocked", items(0, blocked_place, whole));
    int inverse = 1;
    while (inverse * 5 % tile != 1) ++inverse;
    const auto scattered = [&](int lane, int i) { return striped_place(lane, i) * inverse % tile; };
    s.expect("ScatterToStriped", items(0, scattered, whole));
    s.expect("ScatterToStriped in place", items(0, scattered, whole));
    if (lanes == 4) {
        s.expect("BlockedToStriped by shuffles", items(0, striped_place, whole));
        s.expect("StripedToBlocked by shuffles", items(0, blocked_place, whole));
    }
}

TEST(EmuCubWalk, WarpPrimitivesEveryFormAtFourWidths) {
    walk_at_every_order("warp_walk", [](const test::CubWalkOutputs& run) {
        const Ints x = slice(kIn, 0, 128);
        Slots s(run.ints, 512);
        size_t float_slot = 0;
        for (const auto& [lanes, algorithm] : std::vector<std::pair<int, std::string>>{{32, "direct"}, {16, "striped"}, {8, "vectorize"}, {4, "transpose"}}) {
            SCOPED_TRACE(std::to_string(lanes) + " lanes, " + algorithm);
            expect_warp_reductions(s, lanes, x, run, float_slot++);
            expect_warp_scans(s, lanes, x, run, float_slot++);
            expect_warp_io(s, lanes, algorithm);
        }
        s.expect_rest_unwritten();
    });
}

// kplay's CUB keeps CUDA's memory model: with the barriers CUB asks for between uses of a TempStorage (and
// none inside a collective), the emulated device's race check finds nothing in any walk.
TEST(EmuCubWalk, EveryWalkIsRaceFreeWhenTracked) {
    for (const test::CubWalk& walk : test::cub_walks()) {
        SCOPED_TRACE(walk.name);
        const std::vector<test::CubWalkOutputs> runs = test::run_cub_walk_emulated(walk, {ThreadOrder::random}, true);
        ASSERT_EQ(runs.size(), 1u);
        ASSERT_TRUE(runs.front().error.empty()) << runs.front().error;
        EXPECT_TRUE(runs.front().races.empty()) << runs.front().races.front();
    }
}

TEST(EmuCub, ABlockScanWithLoadStoreAndARunningPrefixMatchesTheSerialSum) {
    EmuKernel kernel(test::emu_kernel("cub_block_scan.cu"));
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    const int n = 1500, tiles = 3;  // the last tile is partial
    int* in = kernel.buffer<int>("in", n, 0);
    for (int i = 0; i < n; ++i) in[i] = (i * 37) % 11 - 3;
    int* out = kernel.buffer<int>("out", n, -1);
    int* totals = kernel.buffer<int>("tile_totals", tiles, -1);
    int count = n;
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        EmuKernel::Launch launch;
        launch.block = {128, 1, 1};
        launch.order = order;
        const auto result = kernel.launch({&in, &out, &totals, &count}, launch);
        ASSERT_TRUE(result.ok) << result.error;
        int running = 0;
        for (int i = 0; i < n; ++i) {
            ASSERT_EQ(out[i], running) << "element " << i;
            running += in[i];
        }
        for (int t = 0; t < tiles; ++t) {
            int total = 0;
            for (int i = t * 512; i < n && i < (t + 1) * 512; ++i) total += in[i];
            EXPECT_EQ(totals[t], total) << "tile " << t;
        }
    }
}
TEST(EmuCub, WarpPrimitivesAndBlockReduceTakeCustomOperators) {
    EmuKernel kernel(R"(
#include <cub/cub.cuh>
#include <cuda/functional>
struct Larger { __device__ float operator()(float a, float b) const { return a < b ? b : a; } };
__global__ void k(const float* in, float* out) {
    typedef cub::WarpReduce<float> WarpSum;
    typedef cub::WarpScan<int, 16> HalfWarpScan;
    typedef cub::BlockReduce<float, 64> Block;
    __shared__ typename WarpSum::TempStorage warp_storage[2];
    __shared__ typename HalfWarpScan::TempStorage scan_storage[4];
    __shared__ typename Block::TempStorage block_storage;
    const int t = threadIdx.x;
    const float v = in[t];
    const float warp_total = WarpSum(warp_storage[t / 32]).Sum(v);
    const float warp_max = WarpSum(warp_storage[t / 32]).Reduce(v, cuda::maximum<>{});
    int inclusive, exclusive, aggregate;
    HalfWarpScan(scan_storage[t / 16]).InclusiveScan(t % 5, inclusive, cuda::std::plus<>{}, aggregate);
    HalfWarpScan(scan_storage[t / 16]).ExclusiveSum(1, exclusive);
    const int from_lane_3 = HalfWarpScan(scan_storage[t / 16]).Broadcast(t, 3);
    const float block_max = Block(block_storage).Reduce(v, Larger());
    __syncthreads();
    const float valid_sum = Block(block_storage).Sum(v, 10);
    out[t * 8 + 0] = warp_total;
    out[t * 8 + 1] = warp_max;
    out[t * 8 + 2] = inclusive;
    out[t * 8 + 3] = exclusive;
    out[t * 8 + 4] = aggregate;
    out[t * 8 + 5] = from_lane_3;
    out[t * 8 + 6] = block_max;
    out[t * 8 + 7] = valid_sum;
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    float* in = kernel.buffer<float>("in", 64, 0.0f);
    for (int t = 0; t < 64; ++t) in[t] = static_cast<float>((t * 13) % 17);
    float* out = kernel.buffer<float>("out", 64 * 8, -1.0f);
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        EmuKernel::Launch launch;
        launch.block = {64, 1, 1};
        launch.order = order;
        const auto result = kernel.launch({&in, &out}, launch);
        ASSERT_TRUE(result.ok) << result.error;
        float sums[2] = {0, 0}, maxima[2] = {0, 0}, block_max = 0, first_ten = 0;
        for (int t = 0; t < 64; ++t) {
            sums[t / 32] += in[t];
            maxima[t / 32] = std::max(maxima[t / 32], in[t]);
            block_max = std::max(block_max, in[t]);
            if (t < 10) first_ten += in[t];
        }
        for (int t = 0; t < 64; ++t) {
            SCOPED_TRACE("thread " + std::to_string(t));
            const float* o = out + t * 8;
            if (t % 32 == 0) {  // a warp reduction's result is its lane 0's, as in CUB
                EXPECT_EQ(o[0], sums[t / 32]);
                EXPECT_EQ(o[1], maxima[t / 32]);
            }
            int running = 0, total = 0;
            for (int other = t / 16 * 16; other < t / 16 * 16 + 16; ++other) {
                if (other <= t) running += other % 5;
                total += other % 5;
            }
            EXPECT_EQ(o[2], running);
            EXPECT_EQ(o[3], t % 16);
            EXPECT_EQ(o[4], total);
            EXPECT_EQ(o[5], t / 16 * 16 + 3);
            if (t == 0) {  // a block reduction's result is thread 0's
                EXPECT_EQ(o[6], block_max);
                EXPECT_EQ(o[7], first_ten);
            }
        }
    }
}

TEST(EmuCub, DeviceWideCallsAndOtherHeadersAreRefusedByName) {
    const EmuKernel device_header("#include <cub/device/device_reduce.cuh>\n__global__ void k(int* x) { x[0] = 1; }\n");
    EXPECT_FALSE(device_header.built());
    EXPECT_EQ(device_header.diagnostics(),
              "emu/test.cu:1: <cub/device/device_reduce.cuh> (CUB's device-wide algorithms, cub::Device*, launch kernels from the "
              "host) is not supported on the emulated CPU device, which runs CUB's block and warp primitives (cub::BlockLoad, "
              "BlockStore, BlockExchange, BlockReduce, BlockScan, BlockRadixSort, BlockHistogram, BlockDiscontinuity, "
              "BlockAdjacentDifference, WarpReduce, WarpScan, WarpLoad, WarpStore and WarpExchange, from <cub/cub.cuh> or their own "
              "headers); run this kernel on a GPU.");
    const EmuKernel merge_sort("// sorting\n#include <cub/block/block_merge_sort.cuh>\n__global__ void k(int* x) { x[0] = 1; }\n");
    EXPECT_NE(merge_sort.diagnostics().find("emu/test.cu:2: <cub/block/block_merge_sort.cuh> is not supported on the emulated CPU device"),
              std::string::npos)
        << merge_sort.diagnostics();
    const EmuKernel thrust("#include <thrust/sort.h>\n__global__ void k(int* x) { x[0] = 1; }\n");
    EXPECT_NE(thrust.diagnostics().find("<thrust/sort.h> (Thrust) is not supported on the emulated CPU device"), std::string::npos)
        << thrust.diagnostics();
    // A call after <cub/cub.cuh> fails to compile with the sentence NVRTC's stand-in gives on a GPU; the
    // names alone are fine.
    const EmuKernel device_call(
        "#include <cub/cub.cuh>\n__global__ void k(int* x) { size_t bytes = 0; cub::DeviceReduce::Sum(nullptr, bytes, x, x, 1); }\n");
    EXPECT_FALSE(device_call.built());
    EXPECT_NE(device_call.diagnostics().find("cub::DeviceReduce::Sum is CUB's device-wide layer: it launches kernels from the host"),
              std::string::npos)
        << device_call.diagnostics();
    EXPECT_NE(device_call.diagnostics().find(cub_device_wide_advice()), std::string::npos) << device_call.diagnostics();
    const EmuKernel named("#include <cub/cub.cuh>\n__global__ void k(int* x) { x[0] = sizeof(cub::DeviceRadixSort); }\n");
    EXPECT_TRUE(named.built()) << named.diagnostics();
}

// What faults on a GPU in CUB itself is refused with the reason: a guarded scatter of a time-sliced
// BlockExchange overruns its TempStorage (compute-sanitizer on an H100: an invalid __shared__ write in
// ScatterToStripedGuarded). The same scatter without time-slicing builds.
TEST(EmuCub, ATimeSlicedGuardedScatterIsRefusedWithWhyItFaultsOnAGpu) {
    const auto kernel = [](const char* slicing) {
        return std::string("#include <cub/cub.cuh>\n__global__ void k(int* x) {\n") + "    using E = cub::BlockExchange<int, 64, 4, " + slicing +
               ">;\n    __shared__ typename E::TempStorage s;\n    int a[4] = {0, 1, 2, 3}, r[4] = {0, -1, 2, 3};\n"
               "    E(s).ScatterToStripedGuarded(a, a, r);\n    x[threadIdx.x] = a[0];\n}\n";
    };
    const EmuKernel sliced(kernel("true"));
    EXPECT_FALSE(sliced.built());
    EXPECT_NE(sliced.diagnostics().find("which WARP_TIME_SLICING=true sizes for one warp's slice: on a GPU an out-of-bounds shared-memory write"),
              std::string::npos)
        << sliced.diagnostics();
    const EmuKernel plain(kernel("false"));
    EXPECT_TRUE(plain.built()) << plain.diagnostics();
}

// The emulated device's <cub/cub.cuh> declares the device-wide classes with the text NVRTC's stand-in has.
TEST(EmuCub, TheDeviceWideDeclarationsAreTheStandInsOwn) {
    const std::string header = test::read_file(emulated_include_dir() / "cub" / "kplay_device_wide.cuh");
    const std::string declarations = cub_device_wide_declarations();
    ASSERT_GE(header.size(), declarations.size());
    EXPECT_EQ(header.substr(header.size() - declarations.size()), declarations)
        << "regenerate runtime/emu/include/cub/kplay_device_wide.cuh below its comment from cub_device_wide_declarations()";
}

}  // namespace
}  // namespace kplay
