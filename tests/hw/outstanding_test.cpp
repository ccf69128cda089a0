// Byte-slot links and DMA engines with several requests in flight
// (docs/timing-model.md §5, §6), on the SystemC model; the same cases are
// worked out for the oracle in tests/oracle/oracle_hand_test.cpp.
// Default DDR: W = 32 B/cycle, S = 64 B; blocks start at cycle 1.
#include <array>

#include "hw_test_util.h"

using namespace hwtest;
using arch::EngineKind;
using arch::Space;

namespace {

const arch::EngineId kDma{EngineKind::ClusterDma, 0};

arch::Config with(int64_t outstanding, int64_t latency, int64_t width = 32, int64_t burst = 64) {
    arch::Config c = arch::default_config();
    c.dma_max_outstanding = outstanding;
    c.ddr_latency_cycles = latency;
    c.ddr_bytes_per_cycle = width;
    c.ddr_burst_bytes = burst;
    return c;
}

arch::Program loads(uint32_t count, uint32_t bytes) {
    std::vector<arch::Command> cmds;
    for (uint32_t i = 0; i < count; ++i) cmds.push_back(dma(Space::DDR, Space::L1, bytes));
    arch::Program p;
    p.blocks.push_back(block({stream(kDma, cmds)}));
    return p;
}

// K = 2, Lat = 100, three 64 B loads. Load 0: [1, 104) (granted at 2,
// slots [64, 128), data after cycle 3, + 100). Load 1 starts at 2, when
// load 0's only burst is granted; eligible at 3, granted at slot 128
// (cycle 4): [2, 106). Load 2 waits for load 0 to end (two in flight):
// starts 104, granted at 105: ends 207.
TEST(Outstanding, TwoInFlightOverlapTheLatency) {
    SimRun r = simulate(with(2, 100), loads(3, 64));
    EXPECT_EQ(r.at(0, kDma, 0).start, 1u);
    EXPECT_EQ(r.at(0, kDma, 0).end, 104u);
    EXPECT_EQ(r.at(0, kDma, 1).start, 2u);
    EXPECT_EQ(r.at(0, kDma, 1).end, 106u);
    EXPECT_EQ(r.at(0, kDma, 2).start, 104u);
    EXPECT_EQ(r.at(0, kDma, 2).end, 207u);
    // Busy: cycles with a load in flight, [1, 106) and [104, 207): 206.
    EXPECT_EQ(r.stats.units[0].busy_cycles, 206u);
}

// Eight 64 B loads, Lat = 10. K = 8: load i starts at 2i (i >= 1), holds
// the link over [2 + 2i, 4 + 2i) and ends at 14 + 2i: the link never
// idles, the last ends at 28. K = 1: one load every 2 + 10 + 1 cycles,
// the first ending at 14, the last at 14 + 7 * 13 = 105.
TEST(Outstanding, EnoughInFlightReachTheLinkBandwidth) {
    SimRun many = simulate(with(8, 10), loads(8, 64));
    EXPECT_EQ(many.at(0, kDma, 7).start, 14u);
    EXPECT_EQ(many.at(0, kDma, 7).end, 28u);
    EXPECT_EQ(many.stats.total_cycles, 28u);
}

TEST(Outstanding, OneInFlightPaysEveryLatency) {
    SimRun one = simulate(with(1, 10), loads(8, 64));
    EXPECT_EQ(one.at(0, kDma, 0).end, 14u);
    EXPECT_EQ(one.stats.total_cycles, 105u);
}

// Two clusters' loads of two bursts each, eligible at 2, Lat = 0, at the
// burst sizes around W = 32: the link takes the slots from 64 on, r0, r1,
// r0, r1, and a load leaves the link the cycle after its last byte.
// S = 31, N = 62: r0 ends at slot 157 (cycle 4): 5; r1 at 188: 6.
// S = 32, N = 64: r0 at 160: 5; r1 at 192: 6.
// S = 33, N = 66: r0 at 163 (cycle 5): 6; r1 at 196 (cycle 6): 7.
// (burst, bytes, end of r0, end of r1); one simulation per test process.
class BurstsAroundTheLinkWidth : public testing::TestWithParam<std::array<uint32_t, 4>> {};

TEST_P(BurstsAroundTheLinkWidth, LeaveTheLinkAfterTheirLastByte) {
    const auto& k = GetParam();
    arch::Program p = loads(1, k[1]);
    p.blocks.push_back(p.blocks[0]);
    SimRun r = simulate(with(1, 0, 32, k[0]), p);
    EXPECT_EQ(r.at(0, kDma, 0).end, k[2]);
    EXPECT_EQ(r.at(1, kDma, 0).end, k[3]);
}

INSTANTIATE_TEST_SUITE_P(Outstanding, BurstsAroundTheLinkWidth,
                         testing::Values(std::array<uint32_t, 4>{31, 62, 5, 6}, std::array<uint32_t, 4>{32, 64, 5, 6},
                                         std::array<uint32_t, 4>{33, 66, 6, 7}));

// Bursts smaller than W share a cycle: W = 256, S = 64, three clusters
// load 256 B each. From slot 512 (cycle 2) r0, r1, r2 take one burst each
// in turn, four bursts per cycle: r0's last burst is the 10th (slots
// [1088, 1152), cycle 4), r1's the 11th (cycle 4), r2's the 12th (slots
// [1216, 1280), cycle 4): all three leave the link at 5.
TEST(Outstanding, SeveralBurstsPerCycle) {
    arch::Program p = loads(1, 256);
    p.blocks.push_back(p.blocks[0]);
    p.blocks.push_back(p.blocks[0]);
    SimRun r = simulate(with(1, 0, 256, 64), p);
    for (uint32_t b = 0; b < 3; ++b) EXPECT_EQ(r.at(b, kDma, 0).end, 5u) << b;
}

}  // namespace
