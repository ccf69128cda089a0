#include "sim/trace/occupancy.h"

#include <cstdint>

#include <algorithm>
#include <tuple>

#include "sim/trace/memory_access.h"

namespace trace {

namespace {

constexpr uint64_t kNone = ~uint64_t{0};

// One region of one command, as the memory sees it.
struct Access {
    uint64_t time;  // a write takes effect at the command's end, a read at its start
    uint64_t end;   // the reading command's end (reads only)
    uint32_t seq;   // order of appearance: ties stay deterministic
    bool read;
    Region region;
};

// Live intervals [from, until) of `bytes` bytes each, merged while they are
// found: a write retires the values it overwrites together, and they share
// few distinct (from, until) pairs, so a short look-back finds most.
class LiveList {
public:
    void add(uint64_t from, uint64_t until, uint64_t bytes) {
        if (until <= from) return;
        for (size_t k = list_.size(), stop = k > 16 ? k - 16 : 0; k > stop;) {
            Live& l = list_[--k];
            if (l.from == from && l.until == until) {
                l.bytes += bytes;
                return;
            }
        }
        list_.push_back({from, until, bytes});
    }
    StepSeries steps() const {
        std::vector<std::pair<uint64_t, int64_t>> deltas;
        deltas.reserve(2 * list_.size());
        for (const Live& l : list_) {
            deltas.push_back({l.from, int64_t(l.bytes)});
            deltas.push_back({l.until, -int64_t(l.bytes)});
        }
        return steps_from_deltas(std::move(deltas));
    }

private:
    struct Live {
        uint64_t from, until, bytes;
    };
    std::vector<Live> list_;
};

// The live bytes of one memory, from its accesses (any order).
StepSeries live_bytes(std::vector<Access>& accesses, uint64_t seen_from) {
    if (accesses.empty()) return {};
    // Segments: the address range cut at every row's start and end, so each
    // row covers whole segments and all bytes of a segment share their
    // history. boundary[x] is 1 + the index of the segment starting at x.
    uint64_t top = 0;
    for (const Access& a : accesses)
        top = std::max(top, a.region.addr + (a.region.rows - 1) * a.region.stride + a.region.row_bytes);
    std::vector<uint32_t> boundary(top + 1, 0);
    for (const Access& a : accesses)
        for (uint64_t row = 0, x = a.region.addr; row < a.region.rows; ++row, x += a.region.stride)
            boundary[x] = boundary[x + a.region.row_bytes] = 1;
    std::vector<uint64_t> length;
    for (uint64_t x = 0, start = 0; x <= top; ++x) {
        if (!boundary[x]) continue;
        if (!length.empty()) length.back() = x - start;
        length.push_back(0);
        start = x;
        boundary[x] = uint32_t(length.size());
    }
    std::sort(accesses.begin(), accesses.end(), [](const Access& a, const Access& b) {
        return std::tie(a.time, a.read, a.seq) < std::tie(b.time, b.read, b.seq);
    });
    // Per segment, its current value: live from `from` (kNone: never
    // written nor read) until the end of its last read so far.
    std::vector<uint64_t> from(length.size(), kNone), until(length.size(), 0);
    LiveList live;
    for (const Access& a : accesses) {
        const Region& r = a.region;
        for (uint64_t row = 0, x = r.addr; row < r.rows; ++row, x += r.stride) {
            const uint32_t s0 = boundary[x] - 1, s1 = boundary[x + r.row_bytes] - 1;
            if (a.read) {
                for (uint32_t s = s0; s < s1; ++s) {
                    if (from[s] == kNone) from[s] = seen_from ? std::min(a.time, seen_from) : a.time, until[s] = a.end;
                    else until[s] = std::max(until[s], a.end);
                }
                continue;
            }
            const uint64_t t = a.time;
            for (uint32_t s = s0; s < s1; ++s) {
                if (from[s] != kNone) {
                    if (until[s] > t) {
                        live.add(from[s], t, length[s]);  // still being read: the new value continues it
                    } else {
                        live.add(from[s], until[s], length[s]);
                        until[s] = t;
                    }
                } else {
                    until[s] = t;
                }
                from[s] = t;
            }
        }
    }
    for (size_t s = 0; s < from.size(); ++s)
        if (from[s] != kNone) live.add(from[s], until[s], length[s]);
    return live.steps();
}

}  // namespace

std::vector<ClusterOccupancy> memory_occupancy(const arch::Config& c, const arch::Program& p,
                                               const std::vector<TimedCommand>& cmds, uint64_t seen_from) {
    const size_t clusters = size_t(std::max<int64_t>(0, c.clusters)),
                 cubes = size_t(std::max<int64_t>(0, c.cubes_per_cluster)),
                 ubs = c.vector_buffer() ? size_t(c.vector_units) : 0;
    // Memories: each cluster's L1, then its cubes' L0s, then its vector units' UBs.
    const size_t per_cluster = 1 + cubes + ubs;
    std::vector<std::vector<Access>> memories(clusters * per_cluster);
    std::vector<Region> regions;
    uint32_t seq = 0;
    for (const TimedCommand& t : cmds) {
        if (!t.cmd || t.rec.cluster >= clusters) continue;
        regions.clear();
        command_regions(*t.cmd, regions, arch::vector_space(c));
        const arch::EngineKind kind = t.rec.engine.kind;
        const bool on_cube = kind == arch::EngineKind::CubeDma || kind == arch::EngineKind::Cube;
        const bool on_vector = arch::is_vector_dma(kind) || kind == arch::EngineKind::Vector;
        const size_t unit = t.rec.engine.index < 0 ? SIZE_MAX : size_t(t.rec.engine.index);
        for (Region& r : regions) {
            r.addr = arch::relocate(p, r.space, r.addr, t.rec.slot);
            size_t m = t.rec.cluster * per_cluster;
            if (r.space == arch::Space::L0) {
                if (!on_cube || unit >= cubes) continue;
                m += 1 + unit;
            } else if (r.space == arch::Space::UB) {
                if (!on_vector || unit >= ubs) continue;
                m += 1 + cubes + unit;
            }
            memories[m].push_back({r.write ? t.rec.end : t.rec.start, t.rec.end, seq++, !r.write, r});
        }
    }
    std::vector<ClusterOccupancy> out(clusters);
    for (size_t cl = 0; cl < clusters; ++cl) {
        out[cl].l1 = live_bytes(memories[cl * per_cluster], seen_from);
        for (size_t k = 0; k < cubes; ++k)
            out[cl].l0.push_back(live_bytes(memories[cl * per_cluster + 1 + k], seen_from));
        for (size_t k = 0; k < ubs; ++k)
            out[cl].ub.push_back(live_bytes(memories[cl * per_cluster + 1 + cubes + k], seen_from));
    }
    return out;
}

}  // namespace trace
