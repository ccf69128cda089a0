// --check's comparison (sim/cli/driver/functional_check.h) and which of a
// program's DDR tensors its commands write (stored_results.h).
#include <gtest/gtest.h>

#include "sim/cli/driver/functional_check.h"
#include "sim/cli/driver/stored_results.h"

using cli::compare_output;

// A sum whose terms cancel: its result is small, its rounding is not. The
// result's own allowance (float32: 1e-4 x (|ref| + scale)) fails it; the
// accumulation's allowance beside it (extra) passes it, element by element.
TEST(CompareOutput, ExtraAllowanceIsPerElement) {
    const std::vector<float> sim{0.05f, 1.0f};
    const std::vector<double> ref{0.001, 1.0};
    EXPECT_FALSE(compare_output("s", {2}, arch::DType::Float32, sim, ref).pass);
    const cli::OutputCheck with = compare_output("s", {2}, arch::DType::Float32, sim, ref, {0.05, 0.0});
    EXPECT_TRUE(with.pass);
    EXPECT_DOUBLE_EQ(with.worst_tolerance, 1e-4 * (0.001 + 1.0) + 0.05);
    EXPECT_FALSE(compare_output("s", {2}, arch::DType::Float32, sim, ref, {0.04, 0.0}).pass);
}

// Integers computed from integers are exact: tolerance 0.
TEST(CompareOutput, IntegersAreExact) {
    EXPECT_TRUE(compare_output("i", {1}, arch::DType::Int32, {7.0f}, {7.0}).pass);
    EXPECT_FALSE(compare_output("i", {1}, arch::DType::Int32, {8.0f}, {7.0}).pass);
}

// The ranges DMA commands write to DDR: 2 rows of 16 bytes at 0x100,
// stride 64 (0x100..0x150), and 32 bytes at 0x200.
TEST(DdrWrites, TellWhetherATensorWasWritten) {
    arch::Program p;
    arch::Block b;
    arch::Stream s;
    arch::Command c;
    c.op = arch::Opcode::Dma;
    c.dma.src = arch::Space::L1, c.dma.dst = arch::Space::DDR;
    c.dma.dst_addr = 0x100, c.dma.rows = 2, c.dma.row_bytes = 16, c.dma.dst_stride = 64;
    s.commands.push_back(c);
    c.dma.dst_addr = 0x200, c.dma.rows = 1, c.dma.row_bytes = 32;
    s.commands.push_back(c);
    c.dma.src = arch::Space::DDR, c.dma.dst = arch::Space::L1, c.dma.dst_addr = 0x400;  // a load writes no DDR
    s.commands.push_back(c);
    b.streams.push_back(s);
    p.blocks.push_back(b);
    const cli::DdrWrites w(p);
    EXPECT_TRUE(w.touches(0x100, 1));
    EXPECT_TRUE(w.touches(0x0, 0x101));
    EXPECT_TRUE(w.touches(0x14f, 16));
    EXPECT_FALSE(w.touches(0x150, 0xb0));  // 0x150..0x200
    EXPECT_TRUE(w.touches(0x150, 0xb1));
    EXPECT_FALSE(w.touches(0x220, 0x400));
    EXPECT_FALSE(w.touches(0x400, 16));
}
