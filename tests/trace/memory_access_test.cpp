// The L1/L0 regions a command reads and writes (sim/trace/memory_access.h).
#include <gtest/gtest.h>

#include "sim/trace/memory_access.h"
#include "trace_test_util.h"

namespace {

using namespace tracetest;
using trace::Region;

std::vector<Region> regions(const arch::Command& c) {
    std::vector<Region> r;
    trace::command_regions(c, r);
    return r;
}

void expect(const Region& r, Space space, bool write, uint64_t addr, uint64_t rows, uint64_t row_bytes,
            uint64_t stride) {
    EXPECT_EQ(r.space, space);
    EXPECT_EQ(r.write, write);
    EXPECT_EQ(r.addr, addr);
    EXPECT_EQ(r.rows, rows);
    EXPECT_EQ(r.row_bytes, row_bytes);
    if (rows > 1) {
        EXPECT_EQ(r.stride, stride);
    }
}

TEST(MemoryAccess, DmaListsItsOnChipSidesRowByRowAndMergesContiguousRows) {
    auto r = regions(copy(Space::DDR, 0x100, Space::L1, 0x40, 128, 256, 512, 256));
    ASSERT_EQ(r.size(), 1u);  // the DDR side is not listed
    expect(r[0], Space::L1, true, 0x40, 1, 128 * 256, 0);
    r = regions(copy(Space::L1, 0x80, Space::L0, 0, 64, 64, 256, 64));
    ASSERT_EQ(r.size(), 2u);
    expect(r[0], Space::L1, false, 0x80, 64, 64, 256);
    expect(r[1], Space::L0, true, 0, 1, 4096, 0);
    EXPECT_EQ(r[0].bytes(), 4096u);
}

TEST(MemoryAccess, WriteBackReadsTheFloat32Accumulator) {
    arch::Command c = copy(Space::L0, 0x4000, Space::L1, 0x20000, 64, 128, 512, 256);
    c.dma.convert_f32_to_f16 = true;
    auto r = regions(c);
    ASSERT_EQ(r.size(), 2u);
    expect(r[0], Space::L0, false, 0x4000, 64, 256, 512);
    expect(r[1], Space::L1, true, 0x20000, 64, 128, 256);
}

TEST(MemoryAccess, DescriptorsHaveTheirOwnShapes) {
    // im2col reads its whole slab (4 x 8 x 8 float16), writes the tile.
    arch::Command i = copy(Space::L1, 0x100, Space::L0, 0, 32, 72, 72, 72);
    i.dma.src_stride = 0;
    arch::Im2col d;
    d.channels = 4, d.height = 8, d.width = 8, d.kh = 3, d.kw = 3, d.out_w = 8;
    i.dma.im2col = d;
    auto r = regions(i);
    ASSERT_EQ(r.size(), 2u);
    expect(r[0], Space::L1, false, 0x100, 1, 512, 0);
    expect(r[1], Space::L0, true, 0, 1, 32 * 72, 0);
    // transpose: a 32 x 64 float16 tile in L1 becomes 64 rows of 64 B, 128 apart, in DDR;
    // from DDR into L1 the destination has that shape.
    arch::Command t = copy(Space::DDR, 0, Space::L1, 0x1000, 32, 128, 128, 128);
    t.dma.rearrange = arch::Rearrange{arch::Rearrange::Kind::Transpose, 2, 0};
    r = regions(t);
    ASSERT_EQ(r.size(), 1u);
    expect(r[0], Space::L1, true, 0x1000, 64, 64, 128);
    // pixel_shuffle reads its planes contiguously.
    arch::Command s = copy(Space::L1, 0x200, Space::DDR, 0, 8, 16, 64, 16);
    s.dma.rearrange = arch::Rearrange{arch::Rearrange::Kind::PixelShuffle, 2, 2};
    r = regions(s);
    ASSERT_EQ(r.size(), 1u);
    expect(r[0], Space::L1, false, 0x200, 1, 128, 0);
}

TEST(MemoryAccess, VectorAndMatmulOperands) {
    arch::Command v = vec(arch::VectorOp::ReduceSum, 4, 32, arch::DType::Float32);
    auto r = regions(v);
    ASSERT_EQ(r.size(), 2u);
    expect(r[0], Space::L1, false, 0, 1, 4 * 32 * 4, 0);
    expect(r[1], Space::L1, true, 0x20000, 1, 16, 0);
    r = regions(vec(arch::VectorOp::Mul, 2, 8));
    ASSERT_EQ(r.size(), 3u);
    expect(r[1], Space::L1, false, 0x10000, 1, 32, 0);
    r = regions(mm(16, 32, 8, 0, 0x400, 0x800, true));
    ASSERT_EQ(r.size(), 4u);
    expect(r[0], Space::L0, false, 0, 1, 16 * 32 * 2, 0);
    expect(r[1], Space::L0, false, 0x400, 1, 32 * 8 * 2, 0);
    expect(r[2], Space::L0, false, 0x800, 1, 16 * 8 * 4, 0);  // accumulates: reads C
    expect(r[3], Space::L0, true, 0x800, 1, 16 * 8 * 4, 0);
    EXPECT_EQ(regions(mm(16, 32, 8, 0, 0x400, 0x800, false)).size(), 3u);
}

}  // namespace
