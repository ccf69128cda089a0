// Set/wait flags between engines (docs/timing-model.md §5).
#include "hw_test_util.h"

using namespace hwtest;
using arch::DType;
using arch::EngineKind;
using arch::Space;

namespace {

// dma0 reads 4096 B (ends at 230, see dma_transfer_test) and sets f0;
// cube0's MATMUL waits on f0 and starts flag_latency cycles later.
arch::Program producer_consumer() {
    arch::Command load = dma(Space::DDR, Space::L1, 4096);
    load.sets = {0};
    arch::Command mm = matmul(4, 4, 4, DType::Float16);
    mm.waits = {0};
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::ClusterDma, 0}, {load}), stream({EngineKind::Cube, 0}, {mm})}, 1));
    return p;
}

class FlagLatency : public testing::TestWithParam<int> {};

TEST_P(FlagLatency, WaiterStartsLatencyCyclesAfterTheSet) {
    arch::Config c = arch::default_config();
    c.flag_latency_cycles = GetParam();
    SimRun r = simulate(c, producer_consumer());
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 0).end, 230u);
    const auto& mm = r.at(0, {EngineKind::Cube, 0}, 0);
    EXPECT_EQ(mm.start, 230u + uint64_t(GetParam()));
    // 4x4x4: one output block, 4 steps: 7 + 4 = 11 cycles.
    EXPECT_EQ(mm.end, mm.start + 11);
}

INSTANTIATE_TEST_SUITE_P(Latencies, FlagLatency, testing::Values(0, 1, 5));

// Counting semantics: the k-th wait consumes the k-th set. The cube waits
// twice on f0; dma0 sets it after each of two loads (ending 230 and 459:
// the second starts at 230, eligible 231, 128 cycles, +100: one command in
// flight).
TEST(Flags, KthWaitConsumesKthSet) {
    arch::Command load = dma(Space::DDR, Space::L1, 4096);
    load.sets = {0};
    arch::Command mm = matmul(4, 4, 4, DType::Float16);
    mm.waits = {0};
    arch::Program p;
    p.blocks.push_back(
        block({stream({EngineKind::ClusterDma, 0}, {load, load}), stream({EngineKind::Cube, 0}, {mm, mm})}, 1));
    SimRun r = simulate(one_dma_in_flight(), p);
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 1).end, 459u);
    EXPECT_EQ(r.at(0, {EngineKind::Cube, 0}, 0).start, 231u);
    EXPECT_EQ(r.at(0, {EngineKind::Cube, 0}, 1).start, 460u);
}

}  // namespace
