// Clusters sharing the DDR channel round-robin, one 64-byte burst (2 cycles)
// at a time (docs/timing-model.md §6). Requesters are cluster * dma_engines
// + engine; the first grant goes to requester 0 (the pointer starts at the
// highest requester, 3 here).
#include "hw_test_util.h"

using namespace hwtest;
using arch::EngineKind;
using arch::Space;

namespace {

arch::Block one_read(uint32_t bytes) {
    return block({stream({EngineKind::ClusterDma, 0}, {dma(Space::DDR, Space::L1, bytes)})});
}

// Alone: full bandwidth. 4096 B: eligible at 2, 128 cycles, latency 100: 230.
TEST(DdrSharing, OneClusterAloneGetsFullBandwidth) {
    arch::Program p;
    p.blocks.push_back(one_read(4096));
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 0).end, 230u);
}

// Two clusters, 4096 B each, both eligible at 2. Round j: cluster 0 holds
// [2+4j, 4+4j), cluster 1 [4+4j, 6+4j). Last round j = 63: cluster 0's
// burst ends at 256, cluster 1's at 258; plus latency 100.
TEST(DdrSharing, TwoClustersAlternateBursts) {
    arch::Program p;
    p.blocks.push_back(one_read(4096));
    p.blocks.push_back(one_read(4096));
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 0).end, 356u);
    EXPECT_EQ(r.at(1, {EngineKind::ClusterDma, 0}, 0).end, 358u);
    EXPECT_EQ(r.stats.total_cycles, 358u);
    EXPECT_EQ(r.stats.ddr_bytes_read, 8192u);
}

// Unequal sizes: 4096 B and 1024 B. Cluster 1's 16 bursts take rounds
// 0..15, its last burst [64, 66) -> 166. From then cluster 0 is alone:
// after 16 bursts (ending at 64) it has 48 left, back to back from 66:
// last burst ends at 66 + 96 = 162 -> 262.
TEST(DdrSharing, ShortTransferLeavesTheLinkToTheLongOne) {
    arch::Program p;
    p.blocks.push_back(one_read(4096));
    p.blocks.push_back(one_read(1024));
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(1, {EngineKind::ClusterDma, 0}, 0).end, 166u);
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 0).end, 262u);
}

// Four clusters, 256 B (4 bursts) each: a round is 8 cycles. Cluster c's
// last burst is in round 3 at [26 + 2c, 28 + 2c): ends 128, 130, 132, 134.
TEST(DdrSharing, FourClustersFinishInRequesterOrder) {
    arch::Program p;
    for (int i = 0; i < 4; ++i) p.blocks.push_back(one_read(256));
    SimRun r = simulate(arch::default_config(), p);
    for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(r.at(b, {EngineKind::ClusterDma, 0}, 0).end, 128u + 2 * b) << b;
}

}  // namespace
