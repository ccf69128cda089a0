// The oracle on tiny hand-built programs, each checked against cycles worked
// out by hand from docs/timing-model.md (§ = its sections).
//
// Default hardware (configs/cluster.json): DDR W=32 B/cycle, S=64 B, Lat=100;
// L1 port W=128, S=128, Lat=4; flag latency 1; dispatch 1 cycle; 4x4 MACs,
// pipeline 7, fp32 2 passes, L0->cube 512 B/cycle; 4 clusters x 4 cubes x
// 1 DMA engine; 8 DMA commands in flight per engine. Derivations in which a
// DMA engine's next command waits for the previous one's data say so and
// pin dma.max_outstanding = 1 (kOneInFlight).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/oracle/oracle.h"
#include "tests/oracle/oracle_test_util.h"

namespace {

using namespace oracle_test;
using arch::DType;

// One DMA command in flight per engine: each waits for the previous one's
// data (§5), as the derivations that use it assume.
const char* const kOneInFlight = R"({"dma": {"max_outstanding": 1}})";

TEST(OracleHand, EmptyProgramTakesNoCycles) {
    oracle::Result r = oracle::run(program({}), config());
    EXPECT_EQ(r.total_cycles, 0u);
    EXPECT_TRUE(r.commands.empty());
}

// One DMA alone with N a multiple of the burst (and the burst of W).
// Dispatch at d=0 -> B = 1 (§4). s = 1, eligible from 2; 256 B = 4 bursts of
// 64 B, 2 cycles each: [2,4) [4,6) [6,8) [8,10); e = 10 + 100 = 110
// (= s + 1 + ceil(N/W) + Lat). The next command of dma0 starts at 110,
// eligible 111, one burst [111,113), e = 213 (with one command in flight).
TEST(OracleHand, OneDmaAloneAtBurstBoundaries) {
    oracle::Result r =
        oracle::run(program({block({stream(dma_engine(0), {load(256), load(64)})})}), config(kOneInFlight));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 110}));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{110, 213}));
    EXPECT_EQ(r.blocks[0].start, 1u);
    EXPECT_EQ(r.blocks[0].end, 213u);
    EXPECT_EQ(r.total_cycles, 213u);
}

// A multi-row DMA moves rows x row_bytes bytes; strides do not matter.
TEST(OracleHand, MultiRowDmaMovesRowsTimesRowBytes) {
    arch::Command c = load(64);
    c.dma.rows = 4;
    c.dma.src_stride = 4096;
    c.dma.dst_stride = 128;
    oracle::Result r = oracle::run(program({block({stream(dma_engine(0), {c})})}), config());
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 110}));  // as 256 bytes above
}

// The link moves W bytes per cycle whatever the burst size (byte slots,
// §6): 100 B in bursts of 48, 48 and 4 at 32 B/cycle take the slots
// [64, 164) from cycle 2, so the last byte moves in cycle 5 and the load
// ends at 6 (it took 2 + 2 + 1 whole cycles, ending at 7, when every burst
// held the link for whole cycles).
TEST(OracleHand, BurstsNotAMultipleOfTheBandwidth) {
    arch::Config cfg = config(R"({"ddr": {"burst_bytes": 48, "latency_cycles": 0}})");
    oracle::Result r = oracle::run(program({block({stream(dma_engine(0), {load(100)})})}), cfg);
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 6}));
}

// Three clusters load 128 B (2 bursts) each at once. Requesters 0, 1, 2
// (c * dma_engines + j); last starts at the highest (3), so the order is
// 0, 1, 2, 0, 1, 2: [2,4) [4,6) [6,8) [8,10) [10,12) [12,14).
// Ends: 10+100, 12+100, 14+100.
TEST(OracleHand, ThreeClustersShareTheDdrBurstByBurst) {
    arch::Program p = program({block({stream(dma_engine(0), {load(128)})}), block({stream(dma_engine(0), {load(128)})}),
                               block({stream(dma_engine(0), {load(128)})})});
    oracle::Result r = oracle::run(p, config());
    EXPECT_EQ(r.blocks[0].cluster, 0u);
    EXPECT_EQ(r.blocks[1].cluster, 1u);
    EXPECT_EQ(r.blocks[2].cluster, 2u);
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 110}));
    EXPECT_EQ(at(r, 1, dma_engine(0), 0), (StartEnd{1, 112}));
    EXPECT_EQ(at(r, 2, dma_engine(0), 0), (StartEnd{1, 114}));
    EXPECT_EQ(r.total_cycles, 114u);
}

// Registered requests, Lat = 0. Cluster 0: two 64 B loads; cluster 1: one
// 192 B load (3 bursts). At 2: c0 [2,4), so c0's first load ends at 4 and
// its second starts at 4, eligible only from 5. At 4 only c1 is eligible:
// [4,6). At 6 (last = 1): c0 [6,8), ends 8. Then c1 [8,10) [10,12), ends 12.
// One command in flight, so that c0's second load starts at the first's end.
TEST(OracleHand, ARequestIsEligibleTheCycleAfterItIsMade) {
    arch::Config cfg = config(R"({"ddr": {"latency_cycles": 0}, "dma": {"max_outstanding": 1}})");
    arch::Program p =
        program({block({stream(dma_engine(0), {load(64), load(64)})}), block({stream(dma_engine(0), {load(192)})})});
    oracle::Result r = oracle::run(p, cfg);
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 4}));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{4, 8}));
    EXPECT_EQ(at(r, 1, dma_engine(0), 0), (StartEnd{1, 12}));
}

// Requester numbering with 2 DMA engines per cluster, 2 clusters: c0.dma1 is
// requester 1, c1.dma0 is requester 2; last starts at 3, so requester 1
// goes first: [2,4) r1, [4,6) r2, [6,8) r1 -> 108, [8,10) r2 -> 110.
// (Numbering j * clusters + c would put c1.dma0 first.)
TEST(OracleHand, DdrRequestersAreClusterTimesEnginesPlusEngine) {
    arch::Config cfg = config(R"({"chip": {"clusters": 2}, "cluster": {"dma_engines": 2}})");
    arch::Program p =
        program({block({stream(dma_engine(1), {load(128)})}), block({stream(dma_engine(0), {load(128)})})});
    oracle::Result r = oracle::run(p, cfg);
    EXPECT_EQ(at(r, 0, dma_engine(1), 0), (StartEnd{1, 108}));
    EXPECT_EQ(at(r, 1, dma_engine(0), 0), (StartEnd{1, 110}));
}

// The L1 port: cube i's DMA engine is requester i, last starts at 3 (4 cubes).
// cube3.dma, cube1.dma, cube0.dma each move 256 B = 2 bursts of 128 B, one
// cycle each, all eligible from 2: order 0, 1, 3, 0, 1, 3 over [2,8):
// cube0 last burst [5,6) -> 6 + 4 = 10, cube1 [6,7) -> 11, cube3 [7,8) -> 12.
TEST(OracleHand, L1PortRoundRobinOverCubes) {
    arch::Program p = program({block(
        {stream(cube_dma(3), {to_l0(256)}), stream(cube_dma(1), {to_l0(256)}), stream(cube_dma(0), {to_l0(256)})})});
    oracle::Result r = oracle::run(p, config());
    EXPECT_EQ(at(r, 0, cube_dma(0), 0), (StartEnd{1, 10}));
    EXPECT_EQ(at(r, 0, cube_dma(1), 0), (StartEnd{1, 11}));
    EXPECT_EQ(at(r, 0, cube_dma(3), 0), (StartEnd{1, 12}));
}

// Each cluster has its own L1 port: two clusters' cube0.dma do not contend.
TEST(OracleHand, L1PortsArePerCluster) {
    arch::Program p = program({block({stream(cube_dma(0), {to_l0(256)})}), block({stream(cube_dma(0), {to_l0(256)})})});
    oracle::Result r = oracle::run(p, config());
    EXPECT_EQ(at(r, 0, cube_dma(0), 0), (StartEnd{1, 8}));  // [2,3) [3,4), 4 + 4
    EXPECT_EQ(at(r, 1, cube_dma(0), 0), (StartEnd{1, 8}));
}

// dma0 loads 64 B, sets f0 at 104 ([2,4) + 100). cube0.dma waits f0: starts
// at 104 + flag latency, moves 256 B (2 one-cycle bursts from start + 1) and
// sets f1 at start + 3 + 4; cube0 waits f1 and runs MATMUL 4x4x4 fp16
// (1 block x 4 steps = 4 cycles, 64 operand bytes = 1 cycle, + 7) = 11 cycles.
struct FlagCase {
    int latency;
    StartEnd l0_dma, mm;
};
class OracleFlagLatency : public testing::TestWithParam<FlagCase> {};

TEST_P(OracleFlagLatency, WaiterStartsAtSetPlusLatency) {
    const FlagCase& fc = GetParam();
    arch::Config cfg = config(R"({"sync": {"flag_latency_cycles": )" + std::to_string(fc.latency) + "}}");
    arch::Program p =
        program({block({stream(dma_engine(0), {load(64, {}, {0})}), stream(cube_dma(0), {to_l0(256, {0}, {1})}),
                        stream(cube(0), {matmul(4, 4, 4, DType::Float16, {1})})},
                       2)});
    oracle::Result r = oracle::run(p, cfg);
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 104}));
    EXPECT_EQ(at(r, 0, cube_dma(0), 0), fc.l0_dma);
    EXPECT_EQ(at(r, 0, cube(0), 0), fc.mm);
    EXPECT_EQ(r.total_cycles, fc.mm.end);
}

INSTANTIATE_TEST_SUITE_P(Latencies, OracleFlagLatency,
                         testing::Values(FlagCase{0, {104, 111}, {111, 122}},  // same-cycle start
                                         FlagCase{1, {105, 112}, {113, 124}}, FlagCase{5, {109, 116}, {121, 132}}),
                         [](const testing::TestParamInfo<FlagCase>& i) {
                             return "latency" + std::to_string(i.param.latency);
                         });

// The k-th wait consumes the k-th set. dma0: load 64 B [1,104) sets f0,
// load 64 B [104,207) sets f0 (eligible 105, [105,107)). cube0.dma waits f0
// twice: first at 105 (128 B, [106,107), ends 111), then the second set
// (207) allows 208: [209,210), ends 214. (One command in flight: the
// second load starts at the first's end.)
TEST(OracleHand, KthWaitConsumesKthSet) {
    arch::Program p = program({block({stream(dma_engine(0), {load(64, {}, {0}), load(64, {}, {0})}),
                                      stream(cube_dma(0), {to_l0(128, {0}), to_l0(128, {0})})},
                                     1)});
    oracle::Result r = oracle::run(p, config(kOneInFlight));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{104, 207}));
    EXPECT_EQ(at(r, 0, cube_dma(0), 0), (StartEnd{105, 111}));
    EXPECT_EQ(at(r, 0, cube_dma(0), 1), (StartEnd{208, 214}));
}

// A command listing a flag twice consumes two sets: it waits for the second
// (at 207 with one command in flight, as in KthWaitConsumesKthSet).
TEST(OracleHand, WaitingTwiceOnAFlagTakesTwoSets) {
    arch::Program p = program({block(
        {stream(dma_engine(0), {load(64, {}, {0}), load(64, {}, {0})}), stream(cube_dma(0), {to_l0(128, {0, 0})})},
        1)});
    oracle::Result r = oracle::run(p, config(kOneInFlight));
    EXPECT_EQ(at(r, 0, cube_dma(0), 0), (StartEnd{208, 214}));
}

// A command setting a flag twice provides two sets at its end. (One command
// in flight: cube0.dma's second copy starts at its first's end.)
TEST(OracleHand, SettingTwiceProvidesTwoSets) {
    arch::Program p = program({block(
        {stream(dma_engine(0), {load(64, {}, {0, 0})}), stream(cube_dma(0), {to_l0(128, {0}), to_l0(128, {0})})}, 1)});
    oracle::Result r = oracle::run(p, config(kOneInFlight));
    EXPECT_EQ(at(r, 0, cube_dma(0), 0), (StartEnd{105, 111}));
    EXPECT_EQ(at(r, 0, cube_dma(0), 1), (StartEnd{111, 117}));  // [112,113) + 4
}

// §7, 4x4 MACs, pipeline 7, L0->cube 512 B/cycle, back to back on cube0:
//   64x32x64 fp16: blocks 16*16 = 256, mac 256*32 = 8192, operand
//     32*(64*16 + 64*16)*2 = 131072 B -> 256 cycles; 1 + 7 + 8192 = 8200.
//   64x32x64 fp32: mac 16384, operand 262144 B -> 512; 8200 + 7 + 16384.
//   5x3x6 fp16: blocks 2*2 = 4, mac 12, operand 3*(5*2 + 6*2)*2 = 132 B -> 1;
//     + 7 + 12.
TEST(OracleHand, MatmulFp16VsFp32) {
    arch::Program p =
        program({block({stream(cube(0), {matmul(64, 32, 64, DType::Float16), matmul(64, 32, 64, DType::Float32),
                                         matmul(5, 3, 6, DType::Float16)})})});
    oracle::Result r = oracle::run(p, config());
    EXPECT_EQ(at(r, 0, cube(0), 0), (StartEnd{1, 8200}));
    EXPECT_EQ(at(r, 0, cube(0), 1), (StartEnd{8200, 24591}));
    EXPECT_EQ(at(r, 0, cube(0), 2), (StartEnd{24591, 24610}));
}

// fp32_passes = 3: 64x32x64 fp32 takes 7 + 8192*3.
TEST(OracleHand, MatmulFp32Passes) {
    arch::Program p = program({block({stream(cube(0), {matmul(64, 32, 64, DType::Float32)})})});
    oracle::Result r = oracle::run(p, config(R"({"cube": {"fp32_passes": 3}})"));
    EXPECT_EQ(at(r, 0, cube(0), 0), (StartEnd{1, 1 + 7 + 24576}));
}

// Operand-link-bound, L0->cube 8 B/cycle: 131072/8 = 16384 > 8192 MAC
// cycles; fp32 262144/8 = 32768 > 16384; 5x3x6: ceil(132/8) = 17 > 12.
TEST(OracleHand, MatmulOperandLinkBound) {
    arch::Program p =
        program({block({stream(cube(0), {matmul(64, 32, 64, DType::Float16), matmul(64, 32, 64, DType::Float32),
                                         matmul(5, 3, 6, DType::Float16)})})});
    oracle::Result r = oracle::run(p, config(R"({"cube": {"l0_bytes_per_cycle": 8}})"));
    EXPECT_EQ(at(r, 0, cube(0), 0), (StartEnd{1, 1 + 7 + 16384}));
    EXPECT_EQ(at(r, 0, cube(0), 1), (StartEnd{16392, 16392 + 7 + 32768}));
    EXPECT_EQ(at(r, 0, cube(0), 2), (StartEnd{49167, 49167 + 7 + 17}));
}

// Non-square MAC array: 8 rows x 2 cols, 10x4x5 fp16: blocks 2*3 = 6,
// mac 24, operand 4*(10*3 + 5*2)*2 = 320 B -> 1 cycle; 1 + 7 + 24.
TEST(OracleHand, MatmulRowsAndColsAreNotSwapped) {
    arch::Program p = program({block({stream(cube(0), {matmul(10, 4, 5)})})});
    oracle::Result r = oracle::run(p, config(R"({"cube": {"mac_rows": 8, "mac_cols": 2}})"));
    EXPECT_EQ(at(r, 0, cube(0), 0), (StartEnd{1, 32}));
    // ... and with 4 B/cycle the 320 operand bytes take 80 > 24 cycles.
    r = oracle::run(program({block({stream(cube(0), {matmul(10, 4, 5)})})}),
                    config(R"({"cube": {"mac_rows": 8, "mac_cols": 2, "l0_bytes_per_cycle": 4}})"));
    EXPECT_EQ(at(r, 0, cube(0), 0), (StartEnd{1, 88}));
}

// The durations of `cmds`, back to back on cube0 of block 0.
std::vector<uint64_t> cube_durations(const arch::Config& c, const std::vector<arch::Command>& cmds) {
    oracle::Result r = oracle::run(program({block({stream(cube(0), cmds)})}), c);
    std::vector<uint64_t> d;
    for (uint32_t i = 0; i < cmds.size(); ++i) {
        StartEnd t = at(r, 0, cube(0), i);
        d.push_back(t.end - t.start);
    }
    return d;
}

// §7.1 fractal, 4x4, pipeline 7, k_per_cycle = 4 (operands <= 672 B, at
// most 2 cycles of the L0 path):
//   8x8x8: 2*2*ceil(8/4) = 8 -> 15;  9x8x8: 3*2*2 = 12 -> 19;
//   8x9x8: 2*ceil(9/4)*2 = 12 -> 19; 8x8x9: 2*2*3 = 12 -> 19;
//   8x8x8 fp32: 8 bytes of K a step hold 2 float32 (§7.1), 2 passes:
//   2*2*ceil(8/2)*2 = 32 -> 39.
//   int8: 8 bytes of K a step hold 8 of them: 8x8x8 2*2*1 = 4 -> 11;
//   8x9x8 2*ceil(9/8)*2 = 8 -> 15.
// The first starts at cycle 1, so it spans [1, 16).
TEST(OracleHand, MatmulFractalKPerCycle) {
    arch::Config c = config(R"({"cube": {"k_per_cycle": 4}})");
    std::vector<arch::Command> cmds = {matmul(8, 8, 8),
                                       matmul(9, 8, 8),
                                       matmul(8, 9, 8),
                                       matmul(8, 8, 9),
                                       matmul(8, 8, 8, DType::Float32),
                                       matmul(8, 8, 8, DType::Int8),
                                       matmul(8, 9, 8, DType::Int8)};
    EXPECT_EQ(cube_durations(c, cmds), (std::vector<uint64_t>{15, 19, 19, 19, 39, 11, 15}));
    oracle::Result r = oracle::run(program({block({stream(cube(0), {matmul(8, 8, 8)})})}), c);
    EXPECT_EQ(at(r, 0, cube(0), 0), (StartEnd{1, 16}));
    // k_per_cycle = 16 with k = 16 and 17: 1 and 2 steps per 4x4 block.
    c = config(R"({"cube": {"k_per_cycle": 16}})");
    EXPECT_EQ(cube_durations(c, {matmul(4, 16, 4), matmul(4, 17, 4)}), (std::vector<uint64_t>{8, 9}));
}

// §7.2 systolic, 4x4 array, m, k, n at 8 and one past (operands <= 972 B,
// at most 2 cycles of the L0 path), then 8x8x8 fp32 (2 passes):
//   os (m, n, k), per fold k + 6:
//     8x8x8 4*14-1 = 55, 9x8x8 6*14-1 = 83, 8x9x8 4*15-1 = 59,
//     8x8x9 6*14-1 = 83, fp32 2*55 = 110
//   ws (k, n, m), per fold 8 + 4 + m - 2 = m + 10:
//     8x8x8 4*18-1 = 71, 9x8x8 4*19-1 = 75, 8x9x8 6*18-1 = 107,
//     8x8x9 6*18-1 = 107, fp32 142
//   is (k, m, n), per fold n + 10:
//     8x8x8 71, 9x8x8 6*18-1 = 107, 8x9x8 107, 8x8x9 4*19-1 = 75, fp32 142
// pipeline_cycles (set to 50 here) does not apply.
TEST(OracleHand, MatmulSystolicFoldBoundaries) {
    std::vector<arch::Command> cmds = {matmul(8, 8, 8), matmul(9, 8, 8), matmul(8, 9, 8), matmul(8, 8, 9),
                                       matmul(8, 8, 8, DType::Float32)};
    EXPECT_EQ(cube_durations(config(R"({"cube": {"dataflow": "os", "pipeline_cycles": 50}})"), cmds),
              (std::vector<uint64_t>{55, 83, 59, 83, 110}));
    EXPECT_EQ(cube_durations(config(R"({"cube": {"dataflow": "ws", "pipeline_cycles": 50}})"), cmds),
              (std::vector<uint64_t>{71, 75, 107, 107, 142}));
    EXPECT_EQ(cube_durations(config(R"({"cube": {"dataflow": "is", "pipeline_cycles": 50}})"), cmds),
              (std::vector<uint64_t>{71, 107, 107, 75, 142}));
}

// Fold-exact 4x4x4 (one fold): os 4 + 6 - 1 = 9, ws and is 4 + 10 - 1 = 13;
// 5x5x5: os 2*2 folds * 11 - 1 = 43; ws and is 2*2 * 15 - 1 = 59.
TEST(OracleHand, MatmulSystolicOneFold) {
    std::vector<arch::Command> cmds = {matmul(4, 4, 4), matmul(5, 5, 5)};
    EXPECT_EQ(cube_durations(config(R"({"cube": {"dataflow": "os"}})"), cmds), (std::vector<uint64_t>{9, 43}));
    EXPECT_EQ(cube_durations(config(R"({"cube": {"dataflow": "ws"}})"), cmds), (std::vector<uint64_t>{13, 59}));
    EXPECT_EQ(cube_durations(config(R"({"cube": {"dataflow": "is"}})"), cmds), (std::vector<uint64_t>{13, 59}));
}

// §7.2 fold schedules, 4x4 array: one fold cut along its temporal
// dimension into MATMULs of T = 6, 1 and 3 costs the uncut T = 10 fold,
// os 10 + 6 - 1 = 15 and ws/is 10 + 10 - 1 = 19: the first pays the fill
// and drain (os 6, ws/is 10) and continues its schedule (no - 1), the
// second continues both (1 cycle), the last continues the fold and ends the
// schedule (3 - 1 = 2).
TEST(OracleHand, MatmulSystolicFoldSchedule) {
    auto part = [](const char* df, uint32_t t, bool continues, bool ends) {
        arch::Command c = df[0] == 'o' ? matmul(4, t, 4) : df[0] == 'w' ? matmul(t, 4, 4) : matmul(4, 4, t);
        c.mm.fold_continues = continues;
        c.mm.schedule_continues = !ends;
        return c;
    };
    for (const char* df : {"os", "ws", "is"}) {
        const uint64_t F = df[0] == 'o' ? 6 : 10;
        const std::vector<arch::Command> cmds = {part(df, 6, false, false), part(df, 1, true, false),
                                                 part(df, 3, true, true), part(df, 10, false, true)};
        const std::string cfg = std::string(R"({"cube": {"dataflow": ")") + df + R"("}})";
        EXPECT_EQ(cube_durations(config(cfg), cmds), (std::vector<uint64_t>{6 + F, 1, 2, 10 + F - 1})) << df;
    }
}

// 8 rows x 2 columns, 16x8x4 fp16 (k_per_cycle 8 must not apply):
//   os: ceil(16/8)*ceil(4/2) = 4 folds * (8 + 8 + 2 - 2) - 1 = 63
//   ws: ceil(8/8)*ceil(4/2) = 2 * (16 + 2 + 16 - 2) - 1 = 63
//   is: ceil(8/8)*ceil(16/2) = 8 * (16 + 2 + 4 - 2) - 1 = 159
TEST(OracleHand, MatmulSystolicRowsAndColsAreNotSwapped) {
    std::vector<arch::Command> cmds = {matmul(16, 8, 4)};
    const char* base = R"({"cube": {"mac_rows": 8, "mac_cols": 2, "k_per_cycle": 8, "dataflow": ")";
    EXPECT_EQ(cube_durations(config(std::string(base) + "os\"}}"), cmds), (std::vector<uint64_t>{63}));
    EXPECT_EQ(cube_durations(config(std::string(base) + "ws\"}}"), cmds), (std::vector<uint64_t>{63}));
    EXPECT_EQ(cube_durations(config(std::string(base) + "is\"}}"), cmds), (std::vector<uint64_t>{159}));
}

// L0->cube at 2 B/cycle, 8x8x8 fp16: os reads 8*(8*2 + 8*2) = 256
// elements, 512 B -> 256 cycles > 55; ws 8*8 + 8*8*2 = 192 elements, 384 B
// -> 192 > 71; is 8*8 + 8*8*2 -> 192 > 71.
TEST(OracleHand, MatmulSystolicOperandLinkBound) {
    std::vector<arch::Command> cmds = {matmul(8, 8, 8)};
    EXPECT_EQ(cube_durations(config(R"({"cube": {"dataflow": "os", "l0_bytes_per_cycle": 2}})"), cmds),
              (std::vector<uint64_t>{256}));
    EXPECT_EQ(cube_durations(config(R"({"cube": {"dataflow": "ws", "l0_bytes_per_cycle": 2}})"), cmds),
              (std::vector<uint64_t>{192}));
    EXPECT_EQ(cube_durations(config(R"({"cube": {"dataflow": "is", "l0_bytes_per_cycle": 2}})"), cmds),
              (std::vector<uint64_t>{192}));
}

// Dispatch (§4). Each block is one MATMUL 4 x k x 4 fp16 on cube0, lasting
// 7 + k cycles (1 block, k MAC cycles, 16k operand bytes <= k link cycles):
//   B0: k=10 (17), B1: k=20 (27), B2: k=5 (12) after B0, B3: k=1 (8),
//   B4: empty, after B1.
arch::Program dispatch_program(uint32_t max_parallel) {
    auto mm_block = [](uint32_t k, std::vector<uint32_t> deps) {
        return block({stream(cube(0), {matmul(4, k, 4)})}, 0, std::move(deps));
    };
    return program({mm_block(10, {}), mm_block(20, {}), mm_block(5, {0}), mm_block(1, {}), block({}, 0, {1})},
                   max_parallel);
}

// max_parallel 2: clusters 0 and 1 only.
//   d=0: B0 -> c0 [1,18), B1 -> c1 [1,28) (B2 not ready).
//   d=18: c0 free, B2 ready (B0 ended 18 <= 18) and lower than B3 -> c0 [19,31).
//   d=28: c1 free; B3 and B4 ready, B3 lower -> c1 [29,37).
//   d=31: B4 -> c0, starts and ends at 32. Total 37.
TEST(OracleHand, DispatchWithDepsAndMaxParallel) {
    oracle::Result r = oracle::run(dispatch_program(2), config());
    std::vector<oracle::BlockTiming> want = {{0, 1, 18}, {1, 1, 28}, {0, 19, 31}, {1, 29, 37}, {0, 32, 32}};
    ASSERT_EQ(r.blocks.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(r.blocks[i].cluster, want[i].cluster) << "block " << i;
        EXPECT_EQ(r.blocks[i].start, want[i].start) << "block " << i;
        EXPECT_EQ(r.blocks[i].end, want[i].end) << "block " << i;
    }
    EXPECT_EQ(at(r, 3, cube(0), 0), (StartEnd{29, 37}));
    EXPECT_EQ(r.total_cycles, 37u);
}

// dispatch_cycles 3, max_parallel 2: a cluster given a block at d is not
// free before that block ends. d=0: B0 -> c0 [3,20), B1 -> c1 [3,30);
// d=20: B2 -> c0 [23,35); d=30: B3 -> c1 [33,41); d=35: B4 -> c0 [38,38).
TEST(OracleHand, DispatchCycles) {
    oracle::Result r = oracle::run(dispatch_program(2), config(R"({"chip": {"dispatch_cycles": 3}})"));
    std::vector<oracle::BlockTiming> want = {{0, 3, 20}, {1, 3, 30}, {0, 23, 35}, {1, 33, 41}, {0, 38, 38}};
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(r.blocks[i].cluster, want[i].cluster) << "block " << i;
        EXPECT_EQ(r.blocks[i].start, want[i].start) << "block " << i;
        EXPECT_EQ(r.blocks[i].end, want[i].end) << "block " << i;
    }
    EXPECT_EQ(r.total_cycles, 41u);
}

// max_parallel unset (0) or above the cluster count: all 4 clusters.
//   d=0: B0 -> c0 [1,18), B1 -> c1 [1,28), B3 -> c2 [1,9).
//   d=18: B2 ready -> lowest free cluster c0 [19,31).
//   d=28: B4 ready -> lowest free cluster c1, [29,29). Total 31.
TEST(OracleHand, DispatchUsesAllClustersByDefault) {
    for (uint32_t mp : {0u, 4u, 99u}) {
        oracle::Result r = oracle::run(dispatch_program(mp), config());
        std::vector<oracle::BlockTiming> want = {{0, 1, 18}, {1, 1, 28}, {0, 19, 31}, {2, 1, 9}, {1, 29, 29}};
        for (size_t i = 0; i < want.size(); ++i) {
            EXPECT_EQ(r.blocks[i].cluster, want[i].cluster) << "max_parallel " << mp << " block " << i;
            EXPECT_EQ(r.blocks[i].start, want[i].start) << "max_parallel " << mp << " block " << i;
            EXPECT_EQ(r.blocks[i].end, want[i].end) << "max_parallel " << mp << " block " << i;
        }
        EXPECT_EQ(r.total_cycles, 31u);
    }
}

// The link's round-robin pointer survives from one block to the next on
// the same cluster, and the L1 port is shared across a cluster's blocks.
// max_parallel 1. B0: cube0.dma moves 128 B: [2,3), ends 7 (last = 0).
// B1 (on c0 at d=7, B=8): cube1.dma and cube0.dma 128 B each, eligible 9:
// order after last=0 is 1 first: cube1 [9,10) -> 14, cube0 [10,11) -> 15.
TEST(OracleHand, RoundRobinStatePersistsAcrossBlocks) {
    arch::Program p = program({block({stream(cube_dma(0), {to_l0(128)})}),
                               block({stream(cube_dma(0), {to_l0(128)}), stream(cube_dma(1), {to_l0(128)})})},
                              1);
    oracle::Result r = oracle::run(p, config());
    EXPECT_EQ(at(r, 0, cube_dma(0), 0), (StartEnd{1, 7}));
    EXPECT_EQ(at(r, 1, cube_dma(1), 0), (StartEnd{8, 14}));
    EXPECT_EQ(at(r, 1, cube_dma(0), 0), (StartEnd{8, 15}));
}

// Issue cycles (§5): s = max(ready + issue, flag times). cube0 runs three
// MATMUL 4x4x4 fp16 (7 + 4 = 11 cycles): issue 3 after the block's start
// 1: [4, 15); none: [15, 26); issue 5: [31, 42).
TEST(OracleHand, IssueCyclesDelayACommandFromItsReadyTime) {
    arch::Command first = matmul(4, 4, 4), third = matmul(4, 4, 4);
    first.issue_cycles = 3;
    third.issue_cycles = 5;
    oracle::Result r = oracle::run(program({block({stream(cube(0), {first, matmul(4, 4, 4), third})})}), config());
    EXPECT_EQ(at(r, 0, cube(0), 0), (StartEnd{4, 15}));
    EXPECT_EQ(at(r, 0, cube(0), 1), (StartEnd{15, 26}));
    EXPECT_EQ(at(r, 0, cube(0), 2), (StartEnd{31, 42}));
}

// Nothing else happens while an engine issues: not a deadlock. MATMUL
// 4x4x4 after 1000 issue cycles: [1001, 1012).
TEST(OracleHand, LongIssueIsNotADeadlock) {
    arch::Command mm = matmul(4, 4, 4);
    mm.issue_cycles = 1000;
    oracle::Result r = oracle::run(program({block({stream(cube(0), {mm})})}), config());
    EXPECT_EQ(at(r, 0, cube(0), 0), (StartEnd{1001, 1012}));
    EXPECT_EQ(r.total_cycles, 1012u);
}

// Issue overlaps the wait for flags. dma0 loads 64 B ([1, 104), sets f0 at
// 104); cube0's MATMUL 4x4x4 waits f0 (allowed from 104 + 1 = 105) after
// `issue` cycles from 1: starts max(1 + issue, 105), ends 11 later. A DMA
// issued late: cube1.dma moves 128 B after 50 issue cycles, from 51:
// eligible 52, one burst [52, 53), ends 53 + 4 = 57.
TEST(OracleHand, IssueCyclesOverlapFlagWaits) {
    for (auto [issue, start] :
         std::vector<std::pair<uint32_t, uint64_t>>{{0, 105}, {103, 105}, {104, 105}, {105, 106}, {300, 301}}) {
        arch::Command mm = matmul(4, 4, 4, DType::Float16, {0});
        mm.issue_cycles = issue;
        arch::Command late = to_l0(128);
        late.issue_cycles = 50;
        oracle::Result r = oracle::run(
            program({block(
                {stream(dma_engine(0), {load(64, {}, {0})}), stream(cube(0), {mm}), stream(cube_dma(1), {late})}, 1)}),
            config());
        EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 104})) << issue;
        EXPECT_EQ(at(r, 0, cube(0), 0), (StartEnd{start, start + 11})) << issue;
        EXPECT_EQ(at(r, 0, cube_dma(1), 0), (StartEnd{51, 57})) << issue;
    }
}

// A DMA request is made when the command starts, after its issue cycles:
// two clusters load 128 B (2 bursts) each, cluster 1's issued 3 cycles
// later. c0: s = 1, eligible 2: [2,4); c1: s = 4, eligible 5; at 4 only c0
// is eligible: [4,6), ends 106; c1 [6,8) [8,10), ends 110.
TEST(OracleHand, IssueCyclesDelayTheLinkRequest) {
    arch::Command late = load(128);
    late.issue_cycles = 3;
    oracle::Result r = oracle::run(
        program({block({stream(dma_engine(0), {load(128)})}), block({stream(dma_engine(0), {late})})}), config());
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 106}));
    EXPECT_EQ(at(r, 1, dma_engine(0), 0), (StartEnd{4, 110}));
}

TEST(OracleHand, DeadlockThrows) {
    arch::Program p = program({block({stream(cube(0), {matmul(4, 4, 4, DType::Float16, {0})})}, 1)});
    EXPECT_THROW(oracle::run(p, config()), std::runtime_error);
}

TEST(OracleHand, CycleLimitThrows) {
    arch::Program p = program({block({stream(cube(0), {matmul(64, 32, 64)})})});
    EXPECT_THROW(oracle::run(p, config(), 1000), std::runtime_error);
    EXPECT_NO_THROW(oracle::run(p, config(), 10000));
}

}  // namespace

namespace {

// §4 with pinned blocks: blocks 0 and 1 pinned to cluster 0 run one after
// the other (a 4x4x4 MATMUL: 11 cycles; starts 1 and 13), block 2 is not
// held back by block 1 and takes cluster 1 at 1.
TEST(OracleHand, PinnedBlocksWaitForTheirCluster) {
    arch::MatmulArgs mm;
    mm.m = mm.k = mm.n = 4;
    arch::Command c;
    c.op = arch::Opcode::Matmul;
    c.mm = mm;
    auto one = [&](int32_t cluster) {
        arch::Block b = block({stream({arch::EngineKind::Cube, 0}, {c})});
        b.cluster = cluster;
        return b;
    };
    oracle::Result r = oracle::run(program({one(0), one(0), one(-1)}), config());
    EXPECT_EQ(r.blocks[0].start, 1u);
    EXPECT_EQ(r.blocks[1].start, 13u);
    EXPECT_EQ(r.blocks[1].cluster, 0u);
    EXPECT_EQ(r.blocks[2].start, 1u);
    EXPECT_EQ(r.blocks[2].cluster, 1u);
    EXPECT_EQ(r.total_cycles, 24u);
}

}  // namespace

// Requests in flight (§5) and byte slots (§6), the cases of
// tests/hw/outstanding_test.cpp worked out there.
namespace {
arch::Program oracle_loads(uint32_t count, uint32_t bytes) {
    std::vector<arch::Command> cmds;
    for (uint32_t i = 0; i < count; ++i) cmds.push_back(load(bytes));
    return program({block({stream(dma_engine(0), cmds)})});
}
}  // namespace

TEST(OracleHand, TwoInFlightOverlapTheLatency) {
    oracle::Result r =
        oracle::run(oracle_loads(3, 64), config(R"({"dma": {"max_outstanding": 2}, "ddr": {"latency_cycles": 100}})"));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 104}));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{2, 106}));
    EXPECT_EQ(at(r, 0, dma_engine(0), 2), (StartEnd{104, 207}));
}

TEST(OracleHand, EnoughInFlightReachTheLinkBandwidth) {
    oracle::Result many =
        oracle::run(oracle_loads(8, 64), config(R"({"dma": {"max_outstanding": 8}, "ddr": {"latency_cycles": 10}})"));
    EXPECT_EQ(at(many, 0, dma_engine(0), 7), (StartEnd{14, 28}));
    EXPECT_EQ(many.total_cycles, 28u);
    oracle::Result one =
        oracle::run(oracle_loads(8, 64), config(R"({"dma": {"max_outstanding": 1}, "ddr": {"latency_cycles": 10}})"));
    EXPECT_EQ(one.total_cycles, 105u);
}

TEST(OracleHand, BurstsAroundTheLinkWidth) {
    const uint64_t cases[][4] = {{31, 62, 5, 6}, {32, 64, 5, 6}, {33, 66, 6, 7}};
    for (const auto& k : cases) {
        arch::Program p = program({block({stream(dma_engine(0), {load(uint32_t(k[1]))})}),
                                   block({stream(dma_engine(0), {load(uint32_t(k[1]))})})});
        oracle::Result r =
            oracle::run(p, config(R"({"ddr": {"latency_cycles": 0, "burst_bytes": )" + std::to_string(k[0]) + "}}"));
        EXPECT_EQ(at(r, 0, dma_engine(0), 0).end, k[2]) << "burst " << k[0];
        EXPECT_EQ(at(r, 1, dma_engine(0), 0).end, k[3]) << "burst " << k[0];
    }
}

TEST(OracleHand, SeveralBurstsPerCycle) {
    arch::Program p = program({block({stream(dma_engine(0), {load(256)})}), block({stream(dma_engine(0), {load(256)})}),
                               block({stream(dma_engine(0), {load(256)})})});
    oracle::Result r =
        oracle::run(p, config(R"({"ddr": {"latency_cycles": 0, "bytes_per_cycle": 256, "burst_bytes": 64}})"));
    for (uint32_t b = 0; b < 3; ++b) EXPECT_EQ(at(r, b, dma_engine(0), 0).end, 5u) << b;
}

// Cycle accounting (§9). A lone DMA never waits on its link: dma0's two
// loads of OneDmaAloneAtBurstBoundaries, in flight over [1, 110) and
// [110, 213), move bytes in every cycle from their eligibility (2 and 111)
// to their last byte (9 and 112): busy 212 of 213, idle only cycle 0.
// Every other engine of the chip is idle throughout. (One command in
// flight, as there.)
TEST(OracleHand, AccountingOfALoneDma) {
    oracle::Result r =
        oracle::run(program({block({stream(dma_engine(0), {load(256), load(64)})})}), config(kOneInFlight));
    ASSERT_EQ(r.total_cycles, 213u);
    EXPECT_EQ(link_wait_of(r, 0, dma_engine(0), 0), 0u);
    EXPECT_EQ(link_wait_of(r, 0, dma_engine(0), 1), 0u);
    EXPECT_EQ(cycles_of(r, 0, dma_engine(0)), (Cycles{212, 0, 0, 0, 1}));
    EXPECT_EQ(cycles_of(r, 0, cube(0)), (Cycles{0, 0, 0, 0, 213}));
    EXPECT_EQ(cycles_of(r, 3, vector_unit(0)), (Cycles{0, 0, 0, 0, 213}));
    EXPECT_EQ(r.engines.size(), 4u * 10u);  // 4 clusters x (1 DMA, 4 cube DMAs, 4 cubes, 1 vector unit)
}

// Two DMA engines of one cluster contend for the DDR link (§6): dma0 loads
// 256 B twice, dma1 512 B, all 64 B bursts of 2 cycles, both eligible from
// 2; requester 0 first. dma0 [2,4) dma1 [4,6) dma0 [6,8) dma1 [8,10) dma0
// [10,12) dma1 [12,14) dma0 [14,16): dma0's first load spans cycles 2-15
// and moves in 8 of them (link wait 6), ends 16 + 100 = 116. dma1 is then
// alone: its 5 bursts left take [16, 26); it spans 2-25, moves in 16 (link
// wait 8), ends 126. dma0's second load, alone from 117 ([117, 125)),
// waits 0 and ends 225. dma0: in flight [1, 116) and [116, 225) = 224, of
// them 6 waiting: busy 218, idle cycle 0. dma1: in flight [1, 126) = 125,
// 8 waiting: busy 117, idle 1 + 99. (One command in flight: dma0's second
// load starts at its first's end.)
TEST(OracleHand, AccountingOfTwoDmaEnginesContendingForDdr) {
    oracle::Result r = oracle::run(
        program({block({stream(dma_engine(0), {load(256), load(256)}), stream(dma_engine(1), {load(512)})})}),
        config(R"({"cluster": {"dma_engines": 2}, "dma": {"max_outstanding": 1}})"));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 116}));
    EXPECT_EQ(at(r, 0, dma_engine(1), 0), (StartEnd{1, 126}));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{116, 225}));
    EXPECT_EQ(link_wait_of(r, 0, dma_engine(0), 0), 6u);
    EXPECT_EQ(link_wait_of(r, 0, dma_engine(1), 0), 8u);
    EXPECT_EQ(link_wait_of(r, 0, dma_engine(0), 1), 0u);
    EXPECT_EQ(cycles_of(r, 0, dma_engine(0)), (Cycles{218, 6, 0, 0, 1}));
    EXPECT_EQ(cycles_of(r, 0, dma_engine(1)), (Cycles{117, 8, 0, 0, 100}));
}

// Sharing a cycle is not waiting: with bursts of 33 B on a 32 B/cycle link
// (BurstsAroundTheLinkWidth), the first load moves in cycles 2-5 (no wait)
// and the second in 3-6 (one wait, cycle 2). With W = 256 and 64 B bursts
// (SeveralBurstsPerCycle) three loads share cycles 2-4 and none waits.
TEST(OracleHand, LinkWaitsCountCyclesWithoutABytesOfTheEngine) {
    arch::Program two =
        program({block({stream(dma_engine(0), {load(66)})}), block({stream(dma_engine(0), {load(66)})})});
    oracle::Result r = oracle::run(two, config(R"({"ddr": {"latency_cycles": 0, "burst_bytes": 33}})"));
    EXPECT_EQ(link_wait_of(r, 0, dma_engine(0), 0), 0u);
    EXPECT_EQ(link_wait_of(r, 1, dma_engine(0), 0), 1u);
    EXPECT_EQ(cycles_of(r, 1, dma_engine(0)), (Cycles{5, 1, 0, 0, 1}));  // in flight [1, 7)
    arch::Program three =
        program({block({stream(dma_engine(0), {load(256)})}), block({stream(dma_engine(0), {load(256)})}),
                 block({stream(dma_engine(0), {load(256)})})});
    r = oracle::run(three, config(R"({"ddr": {"latency_cycles": 0, "bytes_per_cycle": 256, "burst_bytes": 64}})"));
    for (uint32_t b = 0; b < 3; ++b) EXPECT_EQ(link_wait_of(r, b, dma_engine(0), 0), 0u) << b;
}

// A flag wait between a DMA and a cube, and issue cycles overlapping it
// (IssueCyclesOverlapFlagWaits): dma0 loads 64 B over [1, 104) and sets f0,
// which lets cube0's MATMUL start from 105; the MATMUL is ready from the
// block's start, 1. With `issue` <= 104 the flag holds it back over
// [1, 105): 104 flag-wait cycles, no issue; with 105, one issue cycle
// [105, 106); with 300, 196 ([105, 301)). cube1.dma issues 50 cycles
// before its load: issue 50 over [1, 51), busy [51, 57).
TEST(OracleHand, AccountingOfAFlagWaitBetweenADmaAndACube) {
    struct Case {
        uint32_t issue;
        uint64_t total, issue_waited;
    };
    for (const Case& k : std::vector<Case>{{0, 116, 0}, {104, 116, 0}, {105, 117, 1}, {300, 312, 196}}) {
        arch::Command mm = matmul(4, 4, 4, DType::Float16, {0});
        mm.issue_cycles = k.issue;
        arch::Command late = to_l0(128);
        late.issue_cycles = 50;
        oracle::Result r = oracle::run(
            program({block(
                {stream(dma_engine(0), {load(64, {}, {0})}), stream(cube(0), {mm}), stream(cube_dma(1), {late})}, 1)}),
            config());
        ASSERT_EQ(r.total_cycles, k.total) << k.issue;
        EXPECT_EQ(cycles_of(r, 0, cube(0)), (Cycles{11, 0, 104, k.issue_waited, 1})) << k.issue;
        EXPECT_EQ(cycles_of(r, 0, dma_engine(0)), (Cycles{103, 0, 0, 0, k.total - 103})) << k.issue;
        EXPECT_EQ(cycles_of(r, 0, cube_dma(1)), (Cycles{6, 0, 0, 50, k.total - 56})) << k.issue;
    }
}
