// MATMUL timing on one cube (docs/timing-model.md §7), started at cycle 1.
#include "hw_test_util.h"

#include <ostream>
#include <string>
#include <vector>

#include "sim/hw/cube_timing.h"

using namespace hwtest;
using arch::DType;
using arch::EngineKind;

namespace {

uint64_t end_of(const arch::Config& c, arch::Command cmd) {
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::Cube, 0}, {cmd})}));
    return simulate(c, p).at(0, {EngineKind::Cube, 0}, 0).end;
}

// 64x32x64 float16: 16*16 output blocks * 32 steps = 8192 MAC cycles;
// operands 32*(64*16 + 64*16)*2 = 131072 B over 512 B/cycle = 256 cycles;
// 7 + 8192 = 8199, from cycle 1: 8200.
TEST(Cube, Float16Tile) { EXPECT_EQ(end_of(arch::default_config(), matmul(64, 32, 64, DType::Float16)), 8200u); }

// float32 takes exactly two passes: 7 + 16384, from cycle 1: 16392.
TEST(Cube, Float32TileTakesTwiceTheMacCycles) {
    EXPECT_EQ(end_of(arch::default_config(), matmul(64, 32, 64, DType::Float32)), 16392u);
}

TEST(Cube, CostFormula) {
    arch::Config c = arch::default_config();
    arch::MatmulArgs m;
    m.m = 64, m.k = 32, m.n = 64;
    hw::MatmulCost f16 = hw::matmul_cost(c, m);
    m.dtype = DType::Float32;
    hw::MatmulCost f32 = hw::matmul_cost(c, m);
    EXPECT_EQ(f32.mac_cycles, 2 * f16.mac_cycles);
    EXPECT_EQ(f16.operand_bytes, 131072u);
    EXPECT_EQ(f32.operand_bytes, 262144u);
    // Ragged tile 5x3x6: ceil(5/4)*ceil(6/4) = 4 blocks * 3 steps = 12 cycles;
    // operands 3*(5*2 + 6*2)*2 = 132 B -> 1 cycle.
    m = arch::MatmulArgs{};
    m.m = 5, m.k = 3, m.n = 6;
    hw::MatmulCost r = hw::matmul_cost(c, m);
    EXPECT_EQ(r.mac_cycles, 12u);
    EXPECT_EQ(r.operand_bytes, 132u);
    EXPECT_EQ(r.total_cycles, 19u);
}

// A narrow operand path makes the link the bound: 131072 B at 8 B/cycle =
// 16384 cycles > 8192 MAC cycles: 7 + 16384, from cycle 1: 16392.
TEST(Cube, OperandLinkBound) {
    arch::Config c = arch::default_config();
    c.l0_bytes_per_cycle = 8;
    EXPECT_EQ(end_of(c, matmul(64, 32, 64, DType::Float16)), 16392u);
}

// The durations (end - start) of `cmds`, run back to back on cube0 in one
// simulation (SystemC allows one per process).
std::vector<uint64_t> durations(const arch::Config& c, const std::vector<arch::Command>& cmds) {
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::Cube, 0}, cmds)}));
    SimRun run = simulate(c, p);
    std::vector<uint64_t> d;
    for (uint32_t i = 0; i < cmds.size(); ++i) {
        const auto& r = run.at(0, {EngineKind::Cube, 0}, i);
        d.push_back(r.end - r.start);
    }
    return d;
}

// §7.1 fractal with cube.k_per_cycle = 4 on the 4x4 cube, m, k, n at a
// multiple of 4 and one past it (pipeline 7; every operand load here is at
// most 672 B, 2 cycles of the 512 B/cycle L0 path, never the bound):
//   8x8x8: ceil(8/4)*ceil(8/4)*ceil(8/4) = 2*2*2 = 8;   7 + 8 = 15
//   9x8x8: 3*2*2 = 12;  8x9x8: 2*3*2 = 12;  8x8x9: 2*2*3 = 12;  7 + 12 = 19
//   8x8x8 float32: 8 bytes of K a step hold 2 float32 (§7.1): 2*4*2 = 16
//     steps, 2 passes: 32;  7 + 32 = 39
//   4x4x4: 1*1*1 = 1; 4x5x4: 1*2*1 = 2:  7 + 1 = 8, 7 + 2 = 9
//   8x8x8 bfloat16: float16's 8
TEST(Cube, FractalKPerCycle) {
    arch::Config c = arch::default_config();
    c.cube_k_per_cycle = 4;
    EXPECT_EQ(
        durations(c, {matmul(8, 8, 8, DType::Float16), matmul(9, 8, 8, DType::Float16), matmul(8, 9, 8, DType::Float16),
                      matmul(8, 8, 9, DType::Float16), matmul(8, 8, 8, DType::Float32), matmul(4, 4, 4, DType::Float16),
                      matmul(4, 5, 4, DType::Float16), matmul(8, 8, 8, DType::BFloat16)}),
        (std::vector<uint64_t>{15, 19, 19, 19, 39, 8, 9, 15}));
}

// The Ascend-class cube (16x16, k_per_cycle 16 = 32 B of K, 2 float32
// passes) with PTO-ISA's start-up of 6 cycles: PTO-ISA's cube cost model
// (cce_costmodel_cube.hpp), 6 + ceil(M/16) * ceil(K/(32/bytes)) *
// ceil(N/16), times 2 for float32 (docs/timing-model.md §7.1), with an
// L0 path wide enough (4 KiB/cycle) never to be the bound:
//   32x64x32 float16, bfloat16: 6 + 2*4*2 = 22;  float32: 6 + 2*8*2*2 = 70
//   17x33x16 float16: 6 + 2*3*1 = 12;  float32: 6 + 2*5*1*2 = 26
//   int8, 32 deep: 32x64x32 6 + 2*2*2 = 14;  17x33x16 6 + 2*2*1 = 10
TEST(Cube, AscendCubeRatePerDtype) {
    arch::Config c = arch::default_config();
    c.mac_rows = c.mac_cols = 16, c.cube_k_per_cycle = 16, c.cube_pipeline_cycles = 6, c.l0_kib = 256;
    c.l0_bytes_per_cycle = 4096;
    EXPECT_EQ(durations(c, {matmul(32, 64, 32, DType::Float16), matmul(32, 64, 32, DType::BFloat16),
                            matmul(32, 64, 32, DType::Float32), matmul(17, 33, 16, DType::Float16),
                            matmul(17, 33, 16, DType::Float32), matmul(32, 64, 32, DType::Int8),
                            matmul(17, 33, 16, DType::Int8)}),
              (std::vector<uint64_t>{22, 22, 70, 12, 26, 14, 10}));
}

// k_per_cycle = 1 is the documents' cube: 8x8x8 = 4 blocks * 8 steps + 7;
// int8 twice as deep (2 bytes of K / 1): 4 blocks * 4 steps + 7 = 23, and
// an odd k rounds up to whole steps: 8x9x8 is 4 * 5 + 7 = 27.
TEST(Cube, FractalDefaultDepthIsOne) {
    EXPECT_EQ(durations(arch::default_config(),
                        {matmul(8, 8, 8, DType::Float16), matmul(8, 8, 8, DType::Int8), matmul(8, 9, 8, DType::Int8)}),
              (std::vector<uint64_t>{39, 23, 27}));
}

struct SystolicCase {
    arch::Dataflow dataflow;
    std::vector<uint64_t> boundaries;  // 8x8x8, 9x8x8, 8x9x8, 8x8x9 fp16, 8x8x8 fp32 on 4x4
    uint64_t non_square;               // 16x8x4 fp16 on 8 rows x 2 columns
    uint64_t link_bound;               // 8x8x8 fp16 on 4x4 at 2 B/cycle L0->cube
};

// §7.2, systolic arrays; folds = ceil(Sr/R) * ceil(Sc/C), cycles = passes
// * (folds * per_fold - 1), no pipeline term.
//
// boundaries: R = C = 4, float16, m, k, n at 8 (a multiple of 4) and 9 (one
// past), then 8x8x8 float32 (2 passes). Operands are at most 972 B, 2
// cycles of the 512 B/cycle L0 path, never the bound.
//   os: (Sr, Sc, T) = (m, n, k), per fold T + 4 + 4 - 2 = T + 6
//     8x8x8: 2*2 folds * 14 - 1 = 55      9x8x8: 3*2 * 14 - 1 = 83
//     8x9x8: 2*2 * 15 - 1 = 59            8x8x9: 2*3 * 14 - 1 = 83
//     fp32: 2 * 55 = 110
//   ws: (Sr, Sc, T) = (k, n, m), per fold 2*4 + 4 + T - 2 = T + 10
//     8x8x8: 2*2 * 18 - 1 = 71            9x8x8: 2*2 * 19 - 1 = 75
//     8x9x8: 3*2 * 18 - 1 = 107           8x8x9: 2*3 * 18 - 1 = 107
//     fp32: 2 * 71 = 142
//   is: (Sr, Sc, T) = (k, m, n), per fold T + 10
//     8x8x8: 2*2 * 18 - 1 = 71            9x8x8: 2*3 * 18 - 1 = 107
//     8x9x8: 3*2 * 18 - 1 = 107           8x8x9: 2*2 * 19 - 1 = 75
//     fp32: 2 * 71 = 142
//
// non_square: R = 8, C = 2, 16x8x4 float16 (rows and columns must not be
// swapped; cube.pipeline_cycles = 100 and k_per_cycle = 8 must not apply):
//   os: Sr=16 -> 2, Sc=4 -> 2, per fold 8 + 8 + 2 - 2 = 16:  4*16 - 1 = 63
//   ws: Sr=8 -> 1, Sc=4 -> 2, per fold 16 + 2 + 16 - 2 = 32: 2*32 - 1 = 63
//   is: Sr=8 -> 1, Sc=16 -> 8, per fold 16 + 2 + 4 - 2 = 20: 8*20 - 1 = 159
//   (swapped, 2 x 8, they would be 127, 103 and 47.)
//
// link_bound: the L0->cube link bounds a systolic array too; at 2 B/cycle,
// 8x8x8 float16:
//   os: 8*(8*2 + 8*2) = 256 elements = 512 B -> 256 cycles > 55
//   ws: 8*8 + 8*8*2 = 192 elements = 384 B -> 192 cycles > 71
//   is: 8*8 + 8*8*2 = 192 elements = 384 B -> 192 cycles > 71
const SystolicCase kSystolic[] = {
    {arch::Dataflow::OS, {55, 83, 59, 83, 110}, 63, 256},
    {arch::Dataflow::WS, {71, 75, 107, 107, 142}, 63, 192},
    {arch::Dataflow::IS, {71, 107, 107, 75, 142}, 159, 192},
};

// Test names and failure messages show the dataflow, not the struct's bytes.
void PrintTo(const SystolicCase& c, std::ostream* os) { *os << arch::dataflow_name(c.dataflow); }

class SystolicCube : public testing::TestWithParam<SystolicCase> {
protected:
    arch::Config config() const {
        arch::Config c = arch::default_config();
        c.cube_dataflow = GetParam().dataflow;
        return c;
    }
};

TEST_P(SystolicCube, FoldBoundaries) {
    EXPECT_EQ(durations(config(), {matmul(8, 8, 8, DType::Float16), matmul(9, 8, 8, DType::Float16),
                                   matmul(8, 9, 8, DType::Float16), matmul(8, 8, 9, DType::Float16),
                                   matmul(8, 8, 8, DType::Float32)}),
              GetParam().boundaries);
}

TEST_P(SystolicCube, NonSquareArray) {
    arch::Config c = config();
    c.mac_rows = 8, c.mac_cols = 2;
    c.cube_pipeline_cycles = 100, c.cube_k_per_cycle = 8;
    EXPECT_EQ(durations(c, {matmul(16, 8, 4, DType::Float16)}), (std::vector<uint64_t>{GetParam().non_square}));
}

TEST_P(SystolicCube, OperandLinkBound) {
    arch::Config c = config();
    c.l0_bytes_per_cycle = 2;
    EXPECT_EQ(durations(c, {matmul(8, 8, 8, DType::Float16)}), (std::vector<uint64_t>{GetParam().link_bound}));
    arch::MatmulArgs m;
    m.m = 8, m.k = 8, m.n = 8;
    EXPECT_EQ(hw::matmul_cost(c, m).operand_bytes, 2 * GetParam().link_bound);
}

// §7.2 fold schedules on the 4x4 array: one fold cut along its temporal
// dimension into three MATMULs (T = 5, 3, 2) costs what the uncut fold
// costs, T = 10: os 10 + 6 - 1 = 15, ws and is 10 + 10 - 1 = 19. The first
// pays the fill and drain F (os 6, ws/is 10) and continues its schedule
// (no - 1): 5 + F; the second continues the fold and the schedule: 3; the
// last continues the fold and ends the schedule: 2 - 1 = 1. float32 doubles
// each. Alone, a MATMUL that continues its schedule skips the - 1: the
// 8x8x8 of FoldBoundaries plus one.
arch::Command fold_part(const SystolicCase& c, uint32_t t, bool continues, bool ends, DType dtype) {
    arch::Command cmd = c.dataflow == arch::Dataflow::OS   ? matmul(4, t, 4, dtype)
                        : c.dataflow == arch::Dataflow::WS ? matmul(t, 4, 4, dtype)
                                                           : matmul(4, 4, t, dtype);
    cmd.mm.fold_continues = continues;
    cmd.mm.schedule_continues = !ends;
    return cmd;
}

TEST_P(SystolicCube, FoldCutAlongItsTemporalDimensionCostsTheWholeFold) {
    const SystolicCase& p = GetParam();
    const uint64_t F = p.dataflow == arch::Dataflow::OS ? 6 : 10;
    std::vector<arch::Command> cmds;
    for (DType t : {DType::Float16, DType::Float32}) {
        cmds.push_back(fold_part(p, 5, false, false, t));
        cmds.push_back(fold_part(p, 3, true, false, t));
        cmds.push_back(fold_part(p, 2, true, true, t));
    }
    arch::Command alone = matmul(8, 8, 8, DType::Float16);
    alone.mm.schedule_continues = true;
    cmds.push_back(alone);
    EXPECT_EQ(durations(config(), cmds), (std::vector<uint64_t>{5 + F, 3, 1, 2 * (5 + F), 6, 2, p.boundaries[0] + 1}));
    arch::MatmulArgs whole = fold_part(p, 10, false, true, DType::Float16).mm;
    EXPECT_EQ(hw::matmul_cost(config(), whole).mac_cycles, 5 + F + 3 + 1);
}

INSTANTIATE_TEST_SUITE_P(Dataflows, SystolicCube, testing::ValuesIn(kSystolic),
                         [](const testing::TestParamInfo<SystolicCase>& i) {
                             return std::string(arch::dataflow_name(i.param.dataflow));
                         });

}  // namespace
