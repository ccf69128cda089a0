// Memory occupancy (sim/trace/occupancy.h): exact live bytes at exact cycles
// for hand-made runs, one rule of the definition per test; and random runs
// against a byte-by-byte, cycle-by-cycle reading of the definition.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "sim/arch/config.h"
#include "sim/trace/memory_access.h"
#include "sim/trace/occupancy.h"
#include "trace_test_util.h"

namespace {

using namespace tracetest;
using trace::StepSeries;

std::vector<trace::ClusterOccupancy> occupancy(const Timeline& run, const arch::Program& p = {}) {
    return trace::memory_occupancy(arch::default_config(), p, run.timed);
}

// A panel goes DDR -> L1 -> L0, the cube multiplies, the accumulator goes
// back to L1 as float16 and out to DDR.
TEST(Occupancy, DataIsLiveFromItsWriteToItsLastRead) {
    Timeline run;
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0x1000, Space::L1, 0x400, 1, 384))
        .at(60, 70, dma_engine(0), copy(Space::L1, 0x800, Space::DDR, 0x2000, 1, 256))
        .at(20, 30, cube_dma(0), copy(Space::L1, 0x400, Space::L0, 0, 1, 384))  // A (128 B) at 0, B (256 B) at 128
        .at(50, 60, cube_dma(0),
            [] {
                arch::Command c = copy(Space::L0, 512, Space::L1, 0x800, 8, 32, 64, 32);  // 8 float32 rows of 16
                c.dma.convert_f32_to_f16 = true;
                return c;
            }())
        .at(35, 45, cube(0), mm(8, 8, 16, 0, 128, 512, false));  // C: 8 x 16 float32 = 512 B
    auto o = occupancy(run);
    ASSERT_EQ(o.size(), 4u);
    // L1: the panel until the cube DMA has read it; the float16 result from
    // the write-back until the store has read it.
    EXPECT_EQ(o[0].l1, (StepSeries{{10, 384}, {30, 0}, {60, 256}, {70, 0}}));
    // L0: A and B until the MATMUL ends, then C (read as 8 rows of 64 B)
    // until the write-back ends.
    EXPECT_EQ(o[0].l0[0], (StepSeries{{30, 384}, {45, 512}, {60, 0}}));
    for (size_t k = 1; k < 4; ++k) EXPECT_TRUE(o[0].l0[k].empty());
    for (size_t cl = 1; cl < 4; ++cl) EXPECT_TRUE(o[cl].l1.empty());
}

// Two blocks resident on one cluster (MAX_PARALLEL above chip.clusters)
// write the same slot-relative address: each lands in its own slot's share
// (arch::relocate), so neither overwrites the other. L1 addresses above
// every slot (the on-chip tensors' region) are shared and not moved.
TEST(Occupancy, BlocksInOtherSlotsUseTheirOwnShare) {
    arch::Program p;
    p.slot_l1_bytes = 0x1000;
    p.slot_l0_bytes = 0x400;
    Timeline run;
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0x100, 1, 256), 0, 0, 0)
        .at(2, 12, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0x100, 1, 256), 0, 1, 1)
        .at(20, 30, cube_dma(0), copy(Space::L1, 0x100, Space::L0, 0, 1, 256), 0, 0, 0)
        .at(30, 40, cube_dma(0), copy(Space::L1, 0x100, Space::L0, 0, 1, 256), 0, 1, 1);
    auto o = occupancy(run, p);
    EXPECT_EQ(o[0].l1, (StepSeries{{10, 256}, {12, 512}, {30, 256}, {40, 0}}));
    // Without slots the second write overwrites the first before it is read.
    EXPECT_EQ(occupancy(run)[0].l1, (StepSeries{{12, 256}, {40, 0}}));
}

TEST(Occupancy, UnreadWritesAreDeadAndUnwrittenReadsLiveWhileRead) {
    Timeline run;
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0, 1, 256))      // never read
        .at(20, 25, cube_dma(0), copy(Space::L1, 0x1000, Space::L0, 0, 1, 64));  // reads bytes nobody wrote
    auto o = occupancy(run);
    EXPECT_EQ(o[0].l1, (StepSeries{{20, 64}, {25, 0}}));
    EXPECT_TRUE(o[0].l0[0].empty());  // the L0 copy is never read either
}

// Rows count row by row, not the span their stride covers.
TEST(Occupancy, StridedRowsCountRowByRow) {
    Timeline run;
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0, 4, 64))           // 4 x 64 B, contiguous
        .at(10, 20, cube_dma(0), copy(Space::L1, 0, Space::L0, 0, 4, 32, 64, 32))    // the left halves
        .at(15, 40, cube_dma(1), copy(Space::L1, 32, Space::L0, 0, 4, 32, 64, 32));  // the right halves
    // A strided destination: 3 rows of 16 B, 64 apart (48 bytes), read back the same way.
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0x400, 3, 16, 16, 64), 1, 1)
        .at(10, 20, dma_engine(0), copy(Space::L1, 0x400, Space::DDR, 0, 3, 16, 64, 16), 1, 1);
    auto o = occupancy(run);
    EXPECT_EQ(o[0].l1, (StepSeries{{10, 256}, {20, 128}, {40, 0}}));
    EXPECT_EQ(o[1].l1, (StepSeries{{10, 48}, {20, 0}}));
}

TEST(Occupancy, ARewriteStartsANewValue) {
    Timeline run;
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0, 1, 128))
        .at(20, 30, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0, 1, 128))
        .at(12, 20, cube_dma(0), copy(Space::L1, 0, Space::L0, 0, 1, 128))
        .at(32, 40, cube_dma(0), copy(Space::L1, 0, Space::L0, 0, 1, 128));
    // A race: the rewrite ends (30) while a read of the old value runs
    // until 50; nothing reads the new value. Live throughout.
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0, 1, 128), 1, 1)
        .at(20, 30, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0, 1, 128), 1, 1)
        .at(12, 50, cube_dma(0), copy(Space::L1, 0, Space::L0, 0, 1, 128), 1, 1);
    auto o = occupancy(run);
    EXPECT_EQ(o[0].l1, (StepSeries{{10, 128}, {20, 0}, {30, 128}, {40, 0}}));
    EXPECT_EQ(o[1].l1, (StepSeries{{10, 128}, {50, 0}}));
}

TEST(Occupancy, VectorSourcesAndDestinationInPlace) {
    Timeline run;
    arch::Command add = vec(arch::VectorOp::Add, 8, 16);  // 256 B per operand
    add.vec.src0 = 0, add.vec.src1 = 256, add.vec.dst = 0;
    arch::Command relu = vec(arch::VectorOp::Relu, 8, 16);
    relu.vec.src0 = 0, relu.vec.dst = 0;
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0, 1, 256))
        .at(10, 20, dma_engine(0), copy(Space::DDR, 0, Space::L1, 256, 1, 256))
        .at(50, 60, dma_engine(0), copy(Space::L1, 0, Space::DDR, 0, 1, 256))
        .at(25, 35, vector_unit(0), add)
        .at(40, 45, vector_unit(0), relu);
    // x from 10, y from 20 until the add ends; x and then the results stay
    // live without a gap until the store has read them.
    EXPECT_EQ(occupancy(run)[0].l1, (StepSeries{{10, 256}, {20, 512}, {35, 256}, {60, 0}}));
}

// C in L0 is live from the first MATMUL's end through the accumulating ones
// until the write-back; each step's A and B until the MATMUL that reads them ends.
TEST(Occupancy, AccumulatorStaysLiveAcrossTheKLoop) {
    Timeline run;
    arch::Command back = copy(Space::L0, 1024, Space::L1, 0x2000, 8, 32, 64, 32);
    back.dma.convert_f32_to_f16 = true;
    run.at(0, 10, cube_dma(0), copy(Space::L1, 0, Space::L0, 0, 1, 384))
        .at(12, 22, cube_dma(0), copy(Space::L1, 0, Space::L0, 384, 1, 384))
        .at(40, 50, cube_dma(0), back)
        .at(10, 20, cube(0), mm(8, 8, 16, 0, 128, 1024, false))
        .at(22, 32, cube(0), mm(8, 8, 16, 384, 512, 1024, true));
    auto o = occupancy(run);
    EXPECT_EQ(o[0].l0[0], (StepSeries{{10, 384}, {20, 512}, {22, 896}, {32, 512}, {50, 0}}));
    // In L1: source bytes no command wrote are live from their first read's
    // start to their last read's end; the result is never read.
    EXPECT_EQ(o[0].l1, (StepSeries{{0, 384}, {22, 0}}));
}

TEST(Occupancy, EachClusterAndCubeHasItsOwnMemory) {
    Timeline run;
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0, Space::L1, 0, 1, 1024), 2)
        .at(10, 20, cube_dma(3), copy(Space::L1, 0, Space::L0, 0, 1, 1024), 2)
        .at(20, 30, cube(3), mm(16, 32, 1, 0, 0, 2048, false), 2);
    auto o = occupancy(run);
    for (size_t cl = 0; cl < 4; ++cl) {
        EXPECT_EQ(o[cl].l1.empty(), cl != 2) << cl;
        for (size_t k = 0; k < 4; ++k) EXPECT_EQ(o[cl].l0[k].empty(), cl != 2 || k != 3) << cl << "/" << k;
    }
    EXPECT_EQ(o[2].l1, (StepSeries{{10, 1024}, {20, 0}}));
    // A is 16 x 32 float16 = 1024 B, all of the load; B (32 x 1) overlaps its start.
    EXPECT_EQ(o[2].l0[3], (StepSeries{{20, 1024}, {30, 0}}));
}

// Addresses and lengths with no common factor: one-byte units.
TEST(Occupancy, OddAddressesAreExact) {
    Timeline run;
    run.at(0, 10, dma_engine(0), copy(Space::DDR, 0, Space::L1, 3, 1, 5))  // bytes 3..7
        .at(10, 20, cube_dma(0), copy(Space::L1, 4, Space::L0, 7, 1, 2))   // reads 4, 5
        .at(10, 25, cube_dma(1), copy(Space::L1, 7, Space::L0, 0, 1, 3));  // reads 7 (written), 8, 9 (not)
    EXPECT_EQ(occupancy(run)[0].l1, (StepSeries{{10, 5}, {20, 3}, {25, 0}}));
}

}  // namespace

namespace {

// The definition, byte by byte and cycle by cycle: each read belongs to the
// last write of the byte that ended at or before the read's start (or to
// the unwritten value, live from its first read); each value is live from
// its write's end (or first read's start) to its last read's end; a byte
// is live when any of its values is.
std::vector<int64_t> reference(const std::vector<trace::TimedCommand>& cmds, bool l1, int cube, uint64_t cycles) {
    struct Use {
        uint64_t time, end;
        bool read;
    };
    std::map<uint64_t, std::vector<Use>> bytes;
    for (const trace::TimedCommand& t : cmds) {
        std::vector<trace::Region> regions;
        trace::command_regions(*t.cmd, regions);
        for (const trace::Region& r : regions) {
            if ((r.space == Space::L1) != l1) continue;
            if (!l1 && t.rec.engine.index != cube) continue;
            for (uint64_t row = 0; row < r.rows; ++row)
                for (uint64_t b = 0; b < r.row_bytes; ++b)
                    bytes[r.addr + row * r.stride + b].push_back(
                        {r.write ? t.rec.end : t.rec.start, t.rec.end, !r.write});
        }
    }
    std::vector<int64_t> live(cycles, 0);
    for (auto& [addr, uses] : bytes) {
        std::vector<bool> on(cycles, false);
        std::vector<uint64_t> writes;
        for (const Use& u : uses)
            if (!u.read) writes.push_back(u.time);
        std::sort(writes.begin(), writes.end());
        std::map<int64_t, std::pair<uint64_t, uint64_t>> values;  // write index (-1: unwritten) -> [from, until)
        for (const Use& u : uses) {
            if (!u.read) continue;
            int64_t w = int64_t(std::upper_bound(writes.begin(), writes.end(), u.time) - writes.begin()) - 1;
            auto it = values.find(w);
            if (it == values.end()) values[w] = {w >= 0 ? writes[size_t(w)] : u.time, u.end};
            else
                it->second.first = std::min(it->second.first, w >= 0 ? writes[size_t(w)] : u.time),
                it->second.second = std::max(it->second.second, u.end);
        }
        for (const auto& [w, v] : values)
            for (uint64_t t = v.first; t < v.second; ++t) on[t] = true;
        for (uint64_t t = 0; t < cycles; ++t) live[t] += on[t];
    }
    return live;
}

std::vector<int64_t> sampled(const StepSeries& s, uint64_t cycles) {
    std::vector<int64_t> v(cycles, 0);
    for (size_t i = 0; i < s.size(); ++i)
        for (uint64_t t = s[i].cycle; t < (i + 1 < s.size() ? s[i + 1].cycle : cycles); ++t) v[t] = s[i].value;
    return v;
}

// Random commands on one cluster, overlapping freely (races included).
TEST(Occupancy, MatchesTheBytewiseDefinitionOnRandomRuns) {
    uint64_t state = 12345;
    auto next = [&](uint64_t n) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (state >> 33) % n;
    };
    const uint64_t cycles = 400;
    for (int trial = 0; trial < 40; ++trial) {
        const uint64_t grain = std::vector<uint64_t>{1, 2, 8, 32}[next(4)];
        auto addr = [&] { return grain * next(1024 / grain); };
        auto rows = [&] { return uint32_t(1 + next(4)); };
        auto width = [&] { return uint32_t(grain * (1 + next(64 / grain + 1))); };
        Timeline run;
        for (int i = 0; i < 30; ++i) {
            uint64_t start = next(300), end = start + 1 + next(40);
            uint32_t r = rows(), w = width();
            uint64_t gap = grain * next(3);
            switch (next(5)) {
            case 0: run.at(start, end, dma_engine(0), copy(Space::DDR, 0, Space::L1, addr(), r, w, w, w + gap)); break;
            case 1: run.at(start, end, dma_engine(0), copy(Space::L1, addr(), Space::DDR, 0, r, w, w + gap, w)); break;
            case 2: {
                int c = int(next(2));
                bool up = next(2);
                run.at(start, end, cube_dma(c),
                       up ? copy(Space::L1, addr(), Space::L0, addr(), r, w, w + gap, w)
                          : copy(Space::L0, addr(), Space::L1, addr(), r, w, w, w + gap));
                break;
            }
            case 3: {
                uint32_t m = uint32_t(1 + next(4)), k = uint32_t(1 + next(4)), n = uint32_t(1 + next(4));
                run.at(start, end, cube(int(next(2))), mm(m, k, n, addr(), addr(), addr(), next(2)));
                break;
            }
            default: {
                arch::Command v = vec(next(2) ? arch::VectorOp::Add : arch::VectorOp::Exp, uint32_t(1 + next(4)),
                                      uint32_t(grain * (1 + next(8))));
                v.vec.src0 = addr(), v.vec.dst = addr();
                if (v.vec.src1 != arch::kNoAddress) v.vec.src1 = addr();
                run.at(start, end, vector_unit(0), v);
            }
            }
        }
        auto o = occupancy(run);
        ASSERT_EQ(sampled(o[0].l1, cycles), reference(run.timed, true, 0, cycles)) << "trial " << trial;
        for (int c = 0; c < 2; ++c)
            ASSERT_EQ(sampled(o[0].l0[size_t(c)], cycles), reference(run.timed, false, c, cycles))
                << "trial " << trial << " cube " << c;
    }
}

}  // namespace
