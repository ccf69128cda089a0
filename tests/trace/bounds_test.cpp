// The run's lower bounds (sim/trace/bounds.h, docs/timing-model.md §9) on
// the default machine: 16 cubes of 4x4 MACs (256 MAC/cycle, float32 at
// half that: cube.fp32_passes 2), DDR at 32 B/cycle.
#include "sim/trace/bounds.h"

#include <gtest/gtest.h>

namespace {

TEST(Bounds, ComputeBoundTakesFloat16MacsAtThePeakRate) {
    const arch::Config c = arch::default_config();
    EXPECT_EQ(trace::compute_bound_cycles(0, 0, 0, c), 0u);
    EXPECT_EQ(trace::compute_bound_cycles(256, 0, 0, c), 1u);
    EXPECT_EQ(trace::compute_bound_cycles(257, 0, 0, c), 2u);
}

TEST(Bounds, ComputeBoundTakesFloat32MacsAtTheFloat32Rate) {
    arch::Config c = arch::default_config();
    EXPECT_EQ(trace::compute_bound_cycles(128, 128, 0, c), 1u);  // 128 MAC/cycle for float32
    EXPECT_EQ(trace::compute_bound_cycles(129, 129, 0, c), 2u);
    EXPECT_EQ(trace::compute_bound_cycles(256 + 64, 64, 0, c), 2u);  // 256 + 2 x 64 slots of 256
    EXPECT_EQ(trace::compute_bound_cycles(128 + 64, 64, 0, c), 1u);  // 128 + 2 x 64 = 256
    c.fp32_passes = 3;
    EXPECT_EQ(trace::compute_bound_cycles(85, 85, 0, c), 1u);  // 255 slots
    EXPECT_EQ(trace::compute_bound_cycles(86, 86, 0, c), 2u);  // 258
}

// int8 goes twice float16's K depth per step on the documents' cube
// (2 * k_per_cycle bytes of K / 1 byte, §7.1): 512 MAC/cycle.
TEST(Bounds, ComputeBoundTakesInt8MacsAtTwiceTheFloat16Rate) {
    const arch::Config c = arch::default_config();
    EXPECT_EQ(trace::compute_bound_cycles(512, 0, 512, c), 1u);
    EXPECT_EQ(trace::compute_bound_cycles(513, 0, 513, c), 2u);
    EXPECT_EQ(trace::compute_bound_cycles(256 + 256, 0, 256, c), 2u);  // 256 float16 + 256 int8 = 1.5 cycles
    EXPECT_EQ(trace::compute_bound_cycles(128 + 256, 0, 256, c), 1u);  // 0.5 + 0.5
}

// A systolic array's peak is one MAC per processing element per cycle (§7.3).
TEST(Bounds, ComputeBoundOfASystolicArray) {
    arch::Config c = arch::default_config();
    c.cube_dataflow = arch::Dataflow::WS;
    c.mac_rows = 32, c.mac_cols = 32, c.clusters = 1, c.cubes_per_cluster = 1;
    EXPECT_EQ(trace::compute_bound_cycles(1024, 0, 0, c), 1u);
    EXPECT_EQ(trace::compute_bound_cycles(1025, 0, 0, c), 2u);
    EXPECT_EQ(trace::compute_bound_cycles(1024, 1024, 0, c), 2u);
}

// The DDR channel moves ddr.bytes_per_cycle whatever its burst size (§6).
TEST(Bounds, DdrBoundIsTheBytesAtTheEffectiveBandwidth) {
    arch::Config c = arch::default_config();
    EXPECT_EQ(trace::ddr_effective_bytes_per_cycle(c), 32u);
    EXPECT_EQ(trace::ddr_bound_cycles(32, c), 1u);
    EXPECT_EQ(trace::ddr_bound_cycles(33, c), 2u);
    c.ddr_bytes_per_cycle = 1000;  // above the 64-byte burst
    EXPECT_EQ(trace::ddr_effective_bytes_per_cycle(c), 1000u);
    EXPECT_EQ(trace::ddr_bound_cycles(64000, c), 64u);
    EXPECT_EQ(trace::ddr_bound_cycles(64001, c), 65u);
}

}  // namespace
