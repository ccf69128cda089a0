// The dispatcher (docs/timing-model.md §4).
#include "hw_test_util.h"

using namespace hwtest;
using arch::DType;
using arch::EngineKind;

namespace {

// A block whose only command is a 4x4x4 MATMUL: 11 cycles.
arch::Block tiny(std::vector<uint32_t> deps = {}) {
    return block({stream({EngineKind::Cube, 0}, {matmul(4, 4, 4, DType::Float16)})}, 0, std::move(deps));
}

// Five blocks on four clusters: blocks 0-3 start at 1 and end at 12; the
// decision at 12 gives block 4 to cluster 0, starting at 13, ending at 24.
TEST(Dispatch, FifthBlockWaitsForAFreeCluster) {
    arch::Program p;
    for (int i = 0; i < 5; ++i) p.blocks.push_back(tiny());
    SimRun r = simulate(arch::default_config(), p);
    for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(r.at(b, {EngineKind::Cube, 0}, 0).start, 1u);
    EXPECT_EQ(r.at(4, {EngineKind::Cube, 0}, 0).start, 13u);
    EXPECT_EQ(r.at(4, {EngineKind::Cube, 0}, 0).end, 24u);
    EXPECT_EQ(r.stats.total_cycles, 24u);
}

// max_parallel = 1 serialises: starts at 1, 13, 25 (ends 12, 24, 36).
TEST(Dispatch, MaxParallelBoundsBlocksInFlight) {
    arch::Program p;
    p.max_parallel = 1;
    for (int i = 0; i < 3; ++i) p.blocks.push_back(tiny());
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(2, {EngineKind::Cube, 0}, 0).start, 25u);
    EXPECT_EQ(r.stats.total_cycles, 36u);
}

// Block 1 depends on block 0: it starts the cycle after block 0 ends, even
// though other clusters were free. Block 2 does not wait.
TEST(Dispatch, DependenciesDelayTheStart) {
    arch::Program p;
    p.blocks.push_back(tiny());
    p.blocks.push_back(tiny({0}));
    p.blocks.push_back(tiny());
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(0, {EngineKind::Cube, 0}, 0).start, 1u);
    EXPECT_EQ(r.at(2, {EngineKind::Cube, 0}, 0).start, 1u);
    EXPECT_EQ(r.at(1, {EngineKind::Cube, 0}, 0).start, 13u);
}

// A longer dispatch latency: blocks start at 3, a follow-on 3 after a free.
TEST(Dispatch, DispatchLatency) {
    arch::Config c = arch::default_config();
    c.dispatch_cycles = 3;
    c.clusters = 1;
    arch::Program p;
    p.blocks.push_back(tiny());
    p.blocks.push_back(tiny());
    SimRun r = simulate(c, p);
    EXPECT_EQ(r.at(0, {EngineKind::Cube, 0}, 0).start, 3u);
    EXPECT_EQ(r.at(1, {EngineKind::Cube, 0}, 0).start, 17u);
}

}  // namespace

namespace {

// A block with drain = 2 waits for blocks 0 and 1, not just its deps. Blocks
// 0 and 1 are 11-cycle MATMULs (start 1, end 12); block 1 has a second one
// (end 23). Block 2 starts the cycle after block 1 ends: 24.
TEST(Dispatch, BarrierWaitsForEveryEarlierBlock) {
    arch::Program p;
    p.blocks.push_back(tiny());
    p.blocks.push_back(
        block({stream({EngineKind::Cube, 0}, {matmul(4, 4, 4, DType::Float16), matmul(4, 4, 4, DType::Float16)})}));
    p.blocks.push_back(tiny());
    p.blocks[2].drain = 2;
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(1, {EngineKind::Cube, 0}, 1).end, 23u);
    EXPECT_EQ(r.at(2, {EngineKind::Cube, 0}, 0).start, 24u);
}

}  // namespace

namespace {

arch::Block pinned(int32_t cluster, std::vector<uint32_t> deps = {}) {
    arch::Block b = tiny(std::move(deps));
    b.cluster = cluster;
    return b;
}

// Blocks 0 and 1 are pinned to cluster 0: block 1 waits for block 0 to end
// at 12 and starts at 13, while block 2 (unpinned) does not wait behind it
// and takes cluster 1 at 1. Block 3, pinned to cluster 2, starts at 1 too.
TEST(Dispatch, PinnedBlockWaitsForItsClusterOthersGoAhead) {
    arch::Program p;
    p.blocks = {pinned(0), pinned(0), tiny(), pinned(2)};
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(0, {EngineKind::Cube, 0}, 0).start, 1u);
    EXPECT_EQ(r.at(1, {EngineKind::Cube, 0}, 0).start, 13u);
    EXPECT_EQ(r.at(2, {EngineKind::Cube, 0}, 0).start, 1u);
    EXPECT_EQ(r.at(3, {EngineKind::Cube, 0}, 0).start, 1u);
    EXPECT_EQ(r.stats.total_cycles, 24u);
}

// A pinned block ready later takes its cluster even when lower clusters are
// free: block 1 (after block 0, pinned to cluster 3) starts at 13.
TEST(Dispatch, PinnedBlockSkipsFreeLowerClusters) {
    arch::Program p;
    p.blocks = {tiny(), pinned(3, {0})};
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(1, {EngineKind::Cube, 0}, 0).start, 13u);
    EXPECT_EQ(r.stats.total_cycles, 24u);
}

}  // namespace
