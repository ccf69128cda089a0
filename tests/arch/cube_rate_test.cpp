// The cube's rate per dtype (docs/timing-model.md §7.1, sim/arch/cube_rate.h):
// K depth, passes and peaks on the presets' cubes, and the compute bound's
// exact rounding.
#include "sim/arch/cube_rate.h"

#include <gtest/gtest.h>

#include "sim/arch/cube_cost.h"

namespace {

using arch::DType;

arch::Config cube(int64_t rows, int64_t cols, int64_t k_per_cycle) {
    arch::Config c = arch::default_config();
    c.mac_rows = rows, c.mac_cols = cols, c.cube_k_per_cycle = k_per_cycle;
    return c;
}

TEST(CubeRate, KDepthIsTwoKPerCycleBytesInWholeElements) {
    const arch::Config doc = arch::default_config(), ascend = cube(16, 16, 16), odd = cube(4, 4, 3);
    EXPECT_EQ(arch::cube_k_depth(doc, DType::Float16), 1);
    EXPECT_EQ(arch::cube_k_depth(doc, DType::BFloat16), 1);
    EXPECT_EQ(arch::cube_k_depth(doc, DType::Float32), 1);  // 2 bytes hold no float32: still one
    EXPECT_EQ(arch::cube_k_depth(ascend, DType::Float16), 16);
    EXPECT_EQ(arch::cube_k_depth(ascend, DType::BFloat16), 16);
    EXPECT_EQ(arch::cube_k_depth(ascend, DType::Float32), 8);
    EXPECT_EQ(arch::cube_k_depth(odd, DType::Float32), 1);  // 6 bytes: one whole float32
    EXPECT_EQ(arch::cube_passes(doc, DType::Float32), 2);
    EXPECT_EQ(arch::cube_passes(doc, DType::BFloat16), 1);
    arch::Config ws = ascend;
    ws.cube_dataflow = arch::Dataflow::WS;
    EXPECT_EQ(arch::cube_k_depth(ws, DType::Float16), 1);  // one MAC per processing element
    EXPECT_EQ(arch::cube_k_depth(ws, DType::Float32), 1);
}

// int8 follows the same rule (one byte an element): twice float16's depth
// on the documents' cube, the "int8 at twice the fp16 rate"; 32
// deep on the Ascend-class cube (32 bytes / 1, PTO-ISA's formula); int32
// is never a MATMUL operand, but the rule gives it float32's width.
TEST(CubeRate, Int8GoesTwiceFloat16sDepth) {
    const arch::Config doc = arch::default_config(), ascend = cube(16, 16, 16);
    EXPECT_EQ(arch::cube_k_depth(doc, DType::Int8), 2);
    EXPECT_EQ(arch::cube_k_depth(ascend, DType::Int8), 32);
    EXPECT_EQ(arch::cube_passes(doc, DType::Int8), 1);
    EXPECT_EQ(arch::cube_peak(doc, DType::Int8).num, 512u);
    EXPECT_EQ(arch::cube_peak(ascend, DType::Int8).num, 131072u);
    arch::Config ws = ascend;
    ws.cube_dataflow = arch::Dataflow::WS;
    EXPECT_EQ(arch::cube_k_depth(ws, DType::Int8), 1);  // SCALE-Sim's PE: one MAC a cycle
}

// Peaks of the whole chip (4 clusters x 4 cubes by default): the
// documents' cube 256 float16 MACs a cycle, 128 float32; the Ascend-class
// one 65,536 and a quarter of that, 16,384.
TEST(CubeRate, PeaksPerDtype) {
    const arch::CubePeak h = arch::cube_peak(arch::default_config(), DType::Float16);
    const arch::CubePeak f = arch::cube_peak(arch::default_config(), DType::Float32);
    EXPECT_EQ(h.num, 256u);
    EXPECT_EQ(h.den, 1u);
    EXPECT_EQ(f.num, 128u);
    EXPECT_EQ(f.den, 1u);
    const arch::CubePeak a = arch::cube_peak(cube(16, 16, 16), DType::Float32);
    EXPECT_EQ(a.num / a.den, 16384u);
    EXPECT_EQ(arch::cube_peak(cube(16, 16, 16), DType::BFloat16).num, 65536u);
    arch::Config three = cube(1, 1, 1);
    three.clusters = 1, three.cubes_per_cluster = 1, three.fp32_passes = 3;
    const arch::CubePeak t = arch::cube_peak(three, DType::Float32);  // a third of a MAC a cycle
    EXPECT_EQ(t.num, 1u);
    EXPECT_EQ(t.den, 3u);
}

// Rounded once over all dtypes: on the Ascend-class cube (16 cubes, 4,096
// float16 MACs a cycle each) 1 float16 MAC and 1 float32 MAC are 1/65536
// + 4/65536 of a cycle: 1 cycle, not 2; 65,536 float16 and 16,384 float32
// MACs: exactly 2.
TEST(CubeRate, PeakCyclesRoundOnce) {
    const arch::Config a = cube(16, 16, 16);
    uint64_t macs[arch::kDTypeCount] = {};
    macs[int(DType::Float16)] = 1, macs[int(DType::Float32)] = 1;
    EXPECT_EQ(arch::cube_peak_cycles(a, macs), 1u);
    macs[int(DType::Float16)] = 65536, macs[int(DType::Float32)] = 16384;
    EXPECT_EQ(arch::cube_peak_cycles(a, macs), 2u);
    macs[int(DType::Float32)] = 16385;
    EXPECT_EQ(arch::cube_peak_cycles(a, macs), 3u);
    // The documents' cube: (256 + 2 * 128) / 256 = 2.
    uint64_t doc[arch::kDTypeCount] = {};
    doc[int(DType::Float16)] = 128, doc[int(DType::BFloat16)] = 128, doc[int(DType::Float32)] = 128;
    EXPECT_EQ(arch::cube_peak_cycles(arch::default_config(), doc), 2u);
    arch::Config none = arch::default_config();
    none.clusters = 0;
    EXPECT_EQ(arch::cube_peak_cycles(none, doc), 0u);
}

// The MATMUL cost follows the rule: 64x64x64 on the Ascend-class cube,
// 4*4 blocks x ceil(64/16) = 64 MAC cycles for float16 and bfloat16,
// 16 x ceil(64/8) x 2 passes = 256 for float32.
TEST(CubeRate, MatmulCostUsesTheDtypesDepth) {
    arch::Config a = cube(16, 16, 16);
    arch::MatmulArgs m;
    m.m = m.k = m.n = 64;
    EXPECT_EQ(arch::matmul_cost(a, m).mac_cycles, 64u);
    m.dtype = DType::BFloat16;
    EXPECT_EQ(arch::matmul_cost(a, m).mac_cycles, 64u);
    m.dtype = DType::Float32;
    EXPECT_EQ(arch::matmul_cost(a, m).mac_cycles, 256u);
}

}  // namespace
