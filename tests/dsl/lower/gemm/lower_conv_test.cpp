// conv2d lowered as an implicit GEMM (dsl/lower/gemm/lower_conv.h): tiling, the input
// rows each block loads (with halo, padding never loaded), the im2col
// descriptors of the L0 loads, the weights read as stored, exact bytes.
#include <gtest/gtest.h>

#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;
using arch::Space;

// Without fusion: the conv2d and its format_convert are lowered apart
// (fusion is tested in tests/cli/fusion_test.cpp and the oracle cross-check).
std::string conv_source(const std::string& x, const std::string& w, const std::string& args) {
    return "import pypto as pypo\n"
           "pypo.config.FUSION = False\n"
           "x = pypo.input(\"x\", shape=" +
           x +
           ", dtype=\"float16\")\n"
           "w = pypo.weight(\"w\", shape=" +
           w +
           ", dtype=\"float16\")\n"
           "y = pypo.op.conv2d(x, w" +
           args +
           ")\n"
           "pypo.output(\"y\", y)\n";
}

// (1, 4, 8, 8) * (8, 4, 3, 3), padding 1: M = 64 pixels, K = 36, N = 8.
// The structure is under test, not the tiling's choice (gemm_cost_test.cpp
// tests that), so the tiling is fixed: 32 x 64 x 4 cube tiles (2x2 cubes),
// panels of all 4 channels (kb = 36). One 64 x 8 block, one panel, one
// k-step per cube (kt = min(64, 36)).
// The conv2d writes NHWC into conv2d_1; the output y is NCHW, so the
// layout pass adds a format_convert (one more block, on the vector unit).
TEST(LowerConv, SmallConvOneBlock) {
    arch::Program p =
        lower(conv_source("(1, 4, 8, 8)", "(8, 4, 3, 3)", ", padding=1"), config(), fixed_tiling(32, 4, 64, 36));
    ASSERT_EQ(p.blocks.size(), 2u);
    EXPECT_EQ(p.blocks[0].name, "conv2d_1[0:64, 0:8]");
    ASSERT_EQ(p.ops.size(), 2u);
    EXPECT_EQ(p.ops[0].kind, "conv2d");
    EXPECT_EQ(p.ops[1].kind, "format_convert");
    EXPECT_EQ(p.ops[1].name, "y");
    EXPECT_EQ(p.tensors[3].name, "conv2d_1");
    EXPECT_EQ(p.tensors[3].shape, (std::vector<int64_t>{1, 8, 8, 8}));
    const arch::Stream& dma0 = stream(p.blocks[0], "dma0");
    // The x panel: 4 channels x all 8 rows (the halo rows -1 and 8 are
    // padding: not loaded), one row of 8 * 8 * 2 = 128 bytes per channel.
    const arch::DmaArgs& x = dma0.commands[0].dma;
    EXPECT_EQ(x.src, Space::DDR);
    EXPECT_EQ(x.src_addr, p.tensors[0].ddr_addr);
    EXPECT_EQ(x.rows, 4u);
    EXPECT_EQ(x.row_bytes, 128u);
    EXPECT_EQ(x.src_stride, 128u);
    // The weights as stored, (O, C*kh*kw): 8 rows of 36 elements.
    const arch::DmaArgs& w = dma0.commands[1].dma;
    EXPECT_EQ(w.src_addr, p.tensors[1].ddr_addr);
    EXPECT_EQ(w.rows, 8u);
    EXPECT_EQ(w.row_bytes, 72u);
    EXPECT_EQ(w.src_stride, 72u);
    // L1: two A buffers of kb/9 * (slab of at most 8 rows) * 8 * 2 = 512 B,
    // then two B buffers of 36 * 8 * 2 = 576 B.
    EXPECT_EQ(x.dst_addr, 0u);
    EXPECT_EQ(w.dst_addr, 1024u);

    // Cube 2 (grid row 1, col 0): pixels 32..63, output channels 0..3.
    const arch::Stream& cdma = stream(p.blocks[0], "cube2.dma");
    const arch::DmaArgs& a = cdma.commands[0].dma;
    EXPECT_EQ(a.src, Space::L1);
    EXPECT_EQ(a.dst, Space::L0);
    EXPECT_EQ(a.rows, 32u);       // 32 output pixels
    EXPECT_EQ(a.row_bytes, 72u);  // x 36 patch elements: the expanded tile
    ASSERT_TRUE(a.im2col.has_value());
    const arch::Im2col& i = *a.im2col;
    EXPECT_EQ(i.channels, 4u);
    EXPECT_EQ(i.height, 8u);
    EXPECT_EQ(i.width, 8u);
    EXPECT_EQ(i.kh, 3u);
    EXPECT_EQ(i.pad_h, 1u);
    EXPECT_EQ(i.pad_w, 1u);
    EXPECT_EQ(i.out_w, 8u);
    EXPECT_EQ(i.pixel0, 32u);
    EXPECT_EQ(i.k0, 0u);
    // The first command of a k-step of the cube DMA's loop: it carries the
    // loop control, cluster.loop_overhead_cycles (conv2d takes no unroll=).
    EXPECT_EQ(arch::format_command(p, cdma.commands[0]),
              "DMA    L1:0x0 -> L0:0x0  32x72B stride 0/72 im2col 3x3/s1/p1 of 4x8x8 ow 8 at pixel 32, k 0 2B  "
              "issue 8  wait(f16)  set(f18)  ; x tile -> L0");
    // Its B tile: 4 output channels (rows of the stored weights) x 36.
    const arch::DmaArgs& b = cdma.commands[1].dma;
    EXPECT_EQ(b.src_addr, 1024u);
    EXPECT_EQ(b.rows, 4u);
    EXPECT_EQ(b.row_bytes, 72u);
    EXPECT_EQ(b.src_stride, 72u);
    const arch::Command& mm = stream(p.blocks[0], "cube2").commands[0];
    EXPECT_EQ(mm.mm.m, 32u);
    EXPECT_EQ(mm.mm.k, 36u);
    EXPECT_EQ(mm.mm.n, 4u);

    // The input and the weights are read exactly once; the NHWC result
    // written once, then read and written again as NCHW by the conversion.
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 4u * 8 * 8 * 2 + 8u * 36 * 2 + 64u * 8 * 2);
    EXPECT_EQ(d.written, 2u * 64 * 8 * 2);
}

// (1, 4, 16, 16) * (8, 4, 3, 3), padding 1 with a 4 KiB L0, the tiling
// fixed at 64 x 8 x 4 cube tiles (2 * (64*8 + 8*4) * 2 + 64*4*4 = 3200 B
// of L0) and panels of all 4 channels. Blocks of 128 pixels = 8 output
// rows: block 0 needs input rows -1..8 (row -1 is padding: loads [0, 9)),
// block 1 rows 7..16 (loads [7, 16), pad_h 0).
TEST(LowerConv, BlocksLoadTheirRowBandWithHalo) {
    arch::Program p = lower(conv_source("(1, 4, 16, 16)", "(8, 4, 3, 3)", ", padding=1"),
                            config(R"({"cube": {"l0_kib": 4}})"), fixed_tiling(64, 4, 8, 36));
    ASSERT_EQ(p.blocks.size(), 3u);  // 2 conv2d blocks, 1 format_convert
    EXPECT_EQ(p.blocks[1].name, "conv2d_1[128:256, 0:8]");
    const uint64_t x0 = p.tensors[0].ddr_addr;
    const arch::DmaArgs& band0 = stream(p.blocks[0], "dma0").commands[0].dma;
    const arch::DmaArgs& band1 = stream(p.blocks[1], "dma0").commands[0].dma;
    EXPECT_EQ(band0.src_addr, x0);
    EXPECT_EQ(band0.rows, 4u);
    EXPECT_EQ(band0.row_bytes, 9u * 16 * 2);
    EXPECT_EQ(band0.src_stride, 16u * 16 * 2);
    EXPECT_EQ(band1.src_addr, x0 + 7 * 16 * 2);
    EXPECT_EQ(band1.row_bytes, 9u * 16 * 2);
    // Block 1, cube 2 (rows 64..127 of the block): pixel 128 + 64 is output
    // row 12, which is slab pixel (12 - 8) * 16 = 64. Five k-steps: 8, 8,
    // 8, 8, 4 patch elements.
    const arch::Stream& cdma = stream(p.blocks[1], "cube2.dma");
    const arch::Im2col& i = *cdma.commands[0].dma.im2col;
    EXPECT_EQ(i.height, 9u);
    EXPECT_EQ(i.pad_h, 0u);
    EXPECT_EQ(i.pixel0, 64u);
    EXPECT_EQ(cdma.commands[8].dma.im2col->k0, 32u);
    EXPECT_EQ(cdma.commands[8].dma.row_bytes, 8u);
    EXPECT_EQ(stream(p.blocks[1], "cube2").commands.size(), 5u);
    // Input: 2 bands x 4 channels x 9 rows x 32 B (the halo costs 2 rows
    // per channel); weights once per block; the output once, then the
    // format conversion reads it and writes it again as NCHW.
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 2u * 4 * 9 * 32 + 2u * 8 * 36 * 2 + 256u * 8 * 2);
    EXPECT_EQ(d.written, 2u * 256 * 8 * 2);
}

// Stride 2, no padding: (1, 2, 9, 9) * (4, 2, 3, 3) gives 4 x 4 outputs;
// output row 3 reads input rows 6..8. One 16 x 4 block (tiling fixed: 8 x
// 32 x 4 tiles, panels of both channels).
TEST(LowerConv, StrideTwo) {
    arch::Program p =
        lower(conv_source("(1, 2, 9, 9)", "(4, 2, 3, 3)", ", stride=2"), config(), fixed_tiling(8, 4, 32, 18));
    ASSERT_EQ(p.blocks.size(), 2u);  // and the format_convert
    const arch::DmaArgs& x = stream(p.blocks[0], "dma0").commands[0].dma;
    EXPECT_EQ(x.rows, 2u);
    EXPECT_EQ(x.row_bytes, 9u * 9 * 2);
    const arch::Im2col& i = *stream(p.blocks[0], "cube0.dma").commands[0].dma.im2col;
    EXPECT_EQ(i.stride_h, 2u);
    EXPECT_EQ(i.stride_w, 2u);
    EXPECT_EQ(i.pad_h, 0u);
    EXPECT_EQ(i.out_w, 4u);
    EXPECT_NE(arch::format_command(p, stream(p.blocks[0], "cube0.dma").commands[0]).find("im2col 3x3/s2/p0 of 2x9x9"),
              std::string::npos);
}

// A stride of 2^32 leaves one output pixel and is never used: it must not
// reach the 32-bit im2col descriptor as 0 (an invalid program, exit 1).
TEST(LowerConv, StrideBeyondThirtyTwoBitsWithOneOutputPixel) {
    arch::Program p = lower(conv_source("(1, 2, 9, 9)", "(4, 2, 3, 3)", ", stride=2 ** 32"));
    const arch::Im2col& i = *stream(p.blocks[0], "cube0.dma").commands[0].dma.im2col;
    EXPECT_EQ(i.stride_h, 1u);
    EXPECT_EQ(i.stride_w, 1u);
    EXPECT_EQ(i.out_w, 1u);
}

// Two images: each is its own GEMM, so no block straddles them, and the
// second image's output starts OH*OW*O elements further (the tiling of
// SmallConvOneBlock: one block per image).
TEST(LowerConv, BatchOfTwoImages) {
    arch::Program p =
        lower(conv_source("(2, 4, 8, 8)", "(8, 4, 3, 3)", ", padding=1"), config(), fixed_tiling(32, 4, 64, 36));
    ASSERT_EQ(p.blocks.size(), 4u);  // and the format_convert's 2 (one per cluster it may use)
    EXPECT_EQ(p.blocks[1].name, "conv2d_1[1][0:64, 0:8]");
    EXPECT_EQ(stream(p.blocks[1], "dma0").commands[0].dma.src_addr, p.tensors[0].ddr_addr + 4 * 8 * 8 * 2);
    EXPECT_EQ(stream(p.blocks[1], "dma0").commands.back().dma.dst_addr,
              p.tensors[3].ddr_addr + 64 * 8 * 2 + (32 * 8 + 4) * 2);
}

// An NHWC input (and so an NHWC output): no conversion. The panel of all 4
// channels is one DMA row per input pixel: 8 x 8 rows of 4 * 2 = 8 bytes,
// and the im2col descriptor reads the slab channels-last.
TEST(LowerConv, NhwcInputNeedsNoConversion) {
    arch::Program p = lower(
        "import pypto as pypo\n"
        "x = pypo.input(\"x\", shape=(1, 8, 8, 4), dtype=\"float16\", layout=\"NHWC\")\n"
        "w = pypo.weight(\"w\", shape=(8, 4, 3, 3), dtype=\"float16\")\n"
        "y = pypo.op.conv2d(x, w, padding=1)\n"
        "pypo.output(\"y\", y)\n",
        config(), fixed_tiling(32, 4, 64, 36));  // SmallConvOneBlock's tiling
    ASSERT_EQ(p.blocks.size(), 1u);
    ASSERT_EQ(p.ops.size(), 1u);
    EXPECT_EQ(p.blocks[0].name, "y[0:64, 0:8]");
    const arch::DmaArgs& x = stream(p.blocks[0], "dma0").commands[0].dma;
    EXPECT_EQ(x.src_addr, p.tensors[0].ddr_addr);
    EXPECT_EQ(x.rows, 64u);
    EXPECT_EQ(x.row_bytes, 8u);
    EXPECT_EQ(x.src_stride, 8u);
    const arch::Command& a = stream(p.blocks[0], "cube2.dma").commands[0];
    ASSERT_TRUE(a.dma.im2col.has_value());
    EXPECT_TRUE(a.dma.im2col->channels_last);
    EXPECT_NE(arch::format_command(p, a).find("im2col 3x3/s1/p1 of 8x8x4 NHWC ow 8 at pixel 32"), std::string::npos)
        << arch::format_command(p, a);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 8u * 8 * 4 * 2 + 8u * 36 * 2);
    EXPECT_EQ(d.written, 64u * 8 * 2);
}

TEST(LowerConv, PaddingAsLargeAsTheKernelIsRefused) {
    EXPECT_EQ(dsl_test::error_of([] { lower(conv_source("(1, 4, 8, 8)", "(8, 4, 1, 1)", ", padding=1")); }),
              "t.pto:5:5: error: conv2d: padding (1, 1) as large as the kernel is not lowered yet\n"
              "y = pypo.op.conv2d(x, w, padding=1)\n"
              "    ^\n");
}

}  // namespace
