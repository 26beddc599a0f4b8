// Grouping a warp's waiting lanes by their masks, and each collective's results.
#include "emu/warp_collective.hpp"

#include "emu/include/kplay_emu_abi.h"

namespace kplay {

namespace {

unsigned bit(int lane) { return 1u << lane; }

// The lane whose value `lane` reads in a shuffle, or `lane` itself when there is none in its segment.
int shuffle_source(const LaneRequest& r, int lane) {
    const int width = r.width >= 1 && r.width <= 32 ? r.width : 32;
    const int group = lane & ~(width - 1);
    switch (r.op) {
        case KPLAY_WARP_SHFL: return group + (r.operand % width + width) % width;
        case KPLAY_WARP_SHFL_UP: return r.operand >= 0 && lane - group >= r.operand ? lane - r.operand : lane;
        case KPLAY_WARP_SHFL_DOWN: return r.operand >= 0 && lane - group + r.operand < width ? lane + r.operand : lane;
        case KPLAY_WARP_SHFL_XOR: {
            const int other = lane ^ (r.operand & 31);
            return (other & ~(width - 1)) == group ? other : lane;
        }
        default: return lane;
    }
}

unsigned long long reduce(int op, unsigned group, const WarpLanes& lanes) {
    bool first = true;
    unsigned long long total = 0;
    for (int lane = 0; lane < 32; ++lane) {
        if (!(group & bit(lane))) continue;
        const unsigned v = static_cast<unsigned>(lanes.request[lane].value);
        const unsigned t = static_cast<unsigned>(total);
        if (first) {
            total = v;
            first = false;
            continue;
        }
        switch (op) {
            case KPLAY_WARP_REDUCE_ADD: total = t + v; break;
            case KPLAY_WARP_REDUCE_MIN: total = static_cast<int>(v) < static_cast<int>(t) ? v : t; break;
            case KPLAY_WARP_REDUCE_MAX: total = static_cast<int>(v) > static_cast<int>(t) ? v : t; break;
            case KPLAY_WARP_REDUCE_UMIN: total = v < t ? v : t; break;
            case KPLAY_WARP_REDUCE_UMAX: total = v > t ? v : t; break;
            case KPLAY_WARP_REDUCE_AND: total = t & v; break;
            case KPLAY_WARP_REDUCE_OR: total = t | v; break;
            case KPLAY_WARP_REDUCE_XOR: total = t ^ v; break;
            default: break;
        }
    }
    return total & 0xffffffffu;
}

// The results of one collective whose participants are `group`.
void complete(unsigned group, const WarpLanes& lanes, unsigned long long (&result)[32]) {
    unsigned ballot = 0;
    for (int lane = 0; lane < 32; ++lane)
        if ((group & bit(lane)) && lanes.request[lane].value) ballot |= bit(lane);
    for (int lane = 0; lane < 32; ++lane) {
        if (!(group & bit(lane))) continue;
        const LaneRequest& r = lanes.request[lane];
        switch (r.op) {
            case KPLAY_WARP_SYNC: result[lane] = 0; break;
            case KPLAY_WARP_BALLOT: result[lane] = ballot & r.mask; break;
            case KPLAY_WARP_ANY: result[lane] = ballot != 0; break;
            case KPLAY_WARP_ALL: result[lane] = ballot == group; break;
            case KPLAY_WARP_ACTIVE: result[lane] = group; break;
            case KPLAY_WARP_MATCH_ANY: {
                unsigned same = 0;
                for (int other = 0; other < 32; ++other)
                    if ((group & bit(other)) && lanes.request[other].value == r.value) same |= bit(other);
                result[lane] = same;
                break;
            }
            case KPLAY_WARP_MATCH_ALL: {
                bool all = true;
                for (int other = 0; other < 32; ++other)
                    if ((group & bit(other)) && lanes.request[other].value != r.value) all = false;
                result[lane] = all ? group : 0;
                break;
            }
            case KPLAY_WARP_SHFL:
            case KPLAY_WARP_SHFL_UP:
            case KPLAY_WARP_SHFL_DOWN:
            case KPLAY_WARP_SHFL_XOR: {
                const int source = shuffle_source(r, lane);
                result[lane] = source >= 0 && source < 32 && (group & bit(source)) ? lanes.request[source].value : r.value;
                break;
            }
            default: result[lane] = reduce(r.op, group, lanes); break;
        }
    }
}

}  // namespace

unsigned release_warp_collectives(const WarpLanes& lanes, unsigned long long (&result)[32]) {
    unsigned waiting = 0, live = 0;
    for (int lane = 0; lane < 32; ++lane) {
        if (lanes.state[lane] == LaneState::at_warp_op) waiting |= bit(lane);
        if (lanes.state[lane] != LaneState::gone) live |= bit(lane);
    }
    unsigned released = 0;
    // __activemask and coalesced_threads(): one group per call site.
    for (int lane = 0; lane < 32; ++lane) {
        const LaneRequest& r = lanes.request[lane];
        if (!(waiting & bit(lane)) || (released & bit(lane)) || r.op != KPLAY_WARP_ACTIVE) continue;
        unsigned group = 0;
        for (int other = lane; other < 32; ++other) {
            const LaneRequest& o = lanes.request[other];
            if ((waiting & bit(other)) && o.op == KPLAY_WARP_ACTIVE && o.line == r.line && o.file == r.file) group |= bit(other);
        }
        complete(group, lanes, result);
        released |= group;
    }
    // Masked collectives: a lane's mask names the live lanes it meets; they must all wait at the same
    // operation (CUDA: "execute the same intrinsic"). The masks are closed over, so lanes that pass
    // different masks to one operation still meet.
    unsigned considered = released;
    for (int lane = 0; lane < 32; ++lane) {
        if (!(waiting & bit(lane)) || (considered & bit(lane))) continue;
        const int op = lanes.request[lane].op;
        unsigned group = bit(lane), grown = 0;
        bool ready = true;
        while (group != grown && ready) {
            grown = group;
            for (int member = 0; member < 32 && ready; ++member) {
                if (!(grown & bit(member))) continue;
                if (!(waiting & bit(member)) || (released & bit(member)) || lanes.request[member].op != op) ready = false;
                else group |= lanes.request[member].mask & live;
            }
        }
        considered |= bit(lane);
        if (!ready) continue;
        complete(group, lanes, result);
        released |= group;
        considered |= group;
    }
    return released;
}

}  // namespace kplay
