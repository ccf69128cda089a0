// One DMA transfer alone on the DDR link (docs/timing-model.md §6): it
// starts at the block start B = dispatch_cycles = 1, is eligible at 2, and
// ends at 2 + sum of ceil(burst / 32) over its 64-byte bursts + latency 100.
#include "hw_test_util.h"

using namespace hwtest;
using arch::EngineKind;
using arch::Space;

namespace {

struct Case {
    uint32_t bytes;
    uint64_t end;
};

class SingleDdrTransfer : public testing::TestWithParam<Case> {};

TEST_P(SingleDdrTransfer, EndsAtTheSpecifiedCycle) {
    arch::Config c = arch::default_config();
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::ClusterDma, 0}, {dma(Space::DDR, Space::L1, GetParam().bytes)})}));
    SimRun r = simulate(c, p);
    const auto& rec = r.at(0, {EngineKind::ClusterDma, 0}, 0);
    EXPECT_EQ(rec.start, 1u);
    EXPECT_EQ(rec.end, GetParam().end);
    EXPECT_EQ(r.stats.total_cycles, GetParam().end);
    EXPECT_EQ(r.stats.ddr_bytes_read, GetParam().bytes);
    EXPECT_EQ(r.stats.ddr_bytes_written, 0u);
}

// 4096 B = 64 full bursts of 2 cycles: 2 + 128 + 100 = 230.
// 4095 B = 63 full bursts + one of 63 B (2 cycles): also 230.
// 4097 B = 64 full bursts + one of 1 B (1 cycle): 231.
// 4128 B: + one of 32 B (1 cycle): 231; 4129 B: + one of 33 B (2 cycles): 232.
// 1 B: one burst of 1 cycle: 2 + 1 + 100 = 103.
INSTANTIATE_TEST_SUITE_P(BurstBoundaries, SingleDdrTransfer,
                         testing::Values(Case{4095, 230}, Case{4096, 230}, Case{4097, 231}, Case{4128, 231},
                                         Case{4129, 232}, Case{1, 103}),
                         [](const testing::TestParamInfo<Case>& i) {
                             return "bytes_" + std::to_string(i.param.bytes);
                         });

// The L1 port: 128 B/cycle, 128-byte bursts, latency 4. A cube DMA of
// 8192 B starting at 1: eligible at 2, 64 bursts of 1 cycle: 2 + 64 + 4 = 70.
// 8193 B: one more burst of 1 B: 71. One command in flight, so that the
// second starts when the first ends.
TEST(L1Transfer, EightKibIntoL0) {
    arch::Config c = one_dma_in_flight();
    arch::Program p;
    p.blocks.push_back(
        block({stream({EngineKind::CubeDma, 0}, {dma(Space::L1, Space::L0, 8192), dma(Space::L0, Space::L1, 8193)})}));
    SimRun r = simulate(c, p);
    EXPECT_EQ(r.at(0, {EngineKind::CubeDma, 0}, 0).end, 70u);
    // The second starts when the first ends: 70 + 1 + 65 + 4.
    EXPECT_EQ(r.at(0, {EngineKind::CubeDma, 0}, 1).start, 70u);
    EXPECT_EQ(r.at(0, {EngineKind::CubeDma, 0}, 1).end, 140u);
    EXPECT_EQ(r.stats.ddr_bytes_read, 0u);
}

}  // namespace
