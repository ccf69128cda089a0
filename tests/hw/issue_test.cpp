// Issue cycles (docs/timing-model.md §5): a command starts at
// max(ready + issue_cycles, flag times), so loop control delays a command
// from the previous command's end (or the block's start) and overlaps the
// wait for its flags. Blocks start at cycle 1 (dispatch_cycles = 1).
#include "hw_test_util.h"

using namespace hwtest;
using arch::DType;
using arch::EngineKind;
using arch::Space;

namespace {

arch::Command with_issue(arch::Command c, uint32_t issue) {
    c.issue_cycles = issue;
    return c;
}

// MATMUL 4x4x4 float16 takes 11 cycles (7 + 4). Issue 3 before the first:
// [1 + 3, 15); none before the second: [15, 26); 5 before the third:
// [26 + 5, 42).
TEST(Issue, DelaysACommandFromItsReadyTime) {
    arch::Program p;
    p.blocks.push_back(block({stream(
        {EngineKind::Cube, 0}, {with_issue(matmul(4, 4, 4), 3), matmul(4, 4, 4), with_issue(matmul(4, 4, 4), 5)})}));
    SimRun r = simulate(arch::default_config(), p);
    const arch::EngineId cube{EngineKind::Cube, 0};
    EXPECT_EQ(r.at(0, cube, 0).start, 4u);
    EXPECT_EQ(r.at(0, cube, 0).end, 15u);
    EXPECT_EQ(r.at(0, cube, 1).start, 15u);
    EXPECT_EQ(r.at(0, cube, 1).end, 26u);
    EXPECT_EQ(r.at(0, cube, 2).start, 31u);
    EXPECT_EQ(r.at(0, cube, 2).end, 42u);
    EXPECT_EQ(r.stats.total_cycles, 42u);
    // Issue cycles are not busy time: 3 commands of 11 cycles.
    for (const trace::UnitStats& u : r.stats.units) {
        if (u.name == "cluster0.cube0") {
            EXPECT_EQ(u.busy_cycles, 33u);
        }
    }
}

// A DMA alone takes s + 1 + ceil(N / W) + Lat: 4096 B issued 10 cycles
// after the block's start runs [11, 11 + 1 + 128 + 100) = [11, 240); the
// next, issued 2 cycles after that, [242, 471) (one command in flight: it
// is ready when the first ends).
TEST(Issue, DelaysADmaCommand) {
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::ClusterDma, 0}, {with_issue(dma(Space::DDR, Space::L1, 4096), 10),
                                                                   with_issue(dma(Space::DDR, Space::L1, 4096), 2)})}));
    SimRun r = simulate(one_dma_in_flight(), p);
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 0).start, 11u);
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 0).end, 240u);
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 1).start, 242u);
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 1).end, 471u);
}

// dma0 reads 4096 B ([1, 230)) and sets f0; cube0's MATMUL waits on f0
// (allowed from 231, flag latency 1) after `issue` cycles counted from the
// block's start: it starts at max(1 + issue, 231). Up to 230 the issue is
// hidden behind the wait; beyond, it is what the MATMUL waits for.
struct IssueCase {
    uint32_t issue;
    uint64_t start;
};
class IssueOverlap : public testing::TestWithParam<IssueCase> {};

TEST_P(IssueOverlap, OverlapsTheWaitForFlags) {
    arch::Command load = dma(Space::DDR, Space::L1, 4096);
    load.sets = {0};
    arch::Command mm = with_issue(matmul(4, 4, 4, DType::Float16), GetParam().issue);
    mm.waits = {0};
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::ClusterDma, 0}, {load}), stream({EngineKind::Cube, 0}, {mm})}, 1));
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(0, {EngineKind::ClusterDma, 0}, 0).end, 230u);
    EXPECT_EQ(r.at(0, {EngineKind::Cube, 0}, 0).start, GetParam().start);
    EXPECT_EQ(r.at(0, {EngineKind::Cube, 0}, 0).end, GetParam().start + 11);
}

INSTANTIATE_TEST_SUITE_P(Issues, IssueOverlap,
                         testing::Values(IssueCase{0, 231}, IssueCase{229, 231}, IssueCase{230, 231},
                                         IssueCase{231, 232}, IssueCase{400, 401}),
                         [](const testing::TestParamInfo<IssueCase>& i) {
                             return "issue" + std::to_string(i.param.issue);
                         });

}  // namespace
