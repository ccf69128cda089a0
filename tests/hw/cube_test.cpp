// MATMUL timing on one cube (docs/timing-model.md §7), started at cycle 1.
#include "hw_test_util.h"

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

}  // namespace
