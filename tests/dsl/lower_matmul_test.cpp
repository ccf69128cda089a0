// matmul lowering beyond 2-D (dsl/lower_matmul.h): batched operands with
// broadcast batch dimensions, tile= and prefetch=, their exact errors.
#include <gtest/gtest.h>

#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;

std::string matmul_source(const std::string& a, const std::string& b, const std::string& args = "") {
    return "import pypto as pypo\n"
           "a = pypo.input(\"a\", shape=" + a + ", dtype=\"float16\")\n"
           "b = pypo.input(\"b\", shape=" + b + ", dtype=\"float16\")\n"
           "c = pypo.op.matmul(a, b" + args + ")\n"
           "pypo.output(\"c\", c)\n";
}

// (2, 64, 32) @ (2, 32, 48): per item M = 64, K = 32, N = 48. The tiling
// is fixed (32 x 32 x 32 tiles, one 64 x 64 block per item): the batch
// structure is under test, not the tiling's choice.
TEST(LowerMatmul, BatchedIsOneGemmPerItem) {
    arch::Program p = lower(matmul_source("(2, 64, 32)", "(2, 32, 48)"), config(), fixed_tiling(32, 32, 32, 32));
    ASSERT_EQ(p.blocks.size(), 2u);
    EXPECT_EQ(p.blocks[0].name, "c[0][0:64, 0:48]");
    EXPECT_EQ(p.blocks[1].name, "c[1][0:64, 0:48]");
    const arch::Stream& dma0 = stream(p.blocks[1], "dma0");
    EXPECT_EQ(dma0.commands[0].dma.src_addr, p.tensors[0].ddr_addr + 64 * 32 * 2);  // a[1]
    EXPECT_EQ(dma0.commands[1].dma.src_addr, p.tensors[1].ddr_addr + 32 * 48 * 2);  // b[1]
    EXPECT_EQ(dma0.commands[2].dma.dst_addr, p.tensors[2].ddr_addr + 64 * 48 * 2);  // c[1], cube 0's tile
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 2u * (64 * 32 + 32 * 48) * 2);
    EXPECT_EQ(d.written, 2u * 64 * 48 * 2);
}

// (64, 32) @ (3, 32, 48): a broadcasts, every item reads the same a (the
// tiling of BatchedIsOneGemmPerItem).
TEST(LowerMatmul, BroadcastBatchReadsTheSharedOperand) {
    arch::Program p = lower(matmul_source("(64, 32)", "(3, 32, 48)"), config(), fixed_tiling(32, 32, 32, 32));
    ASSERT_EQ(p.blocks.size(), 3u);
    for (const arch::Block& b : p.blocks) EXPECT_EQ(stream(b, "dma0").commands[0].dma.src_addr, p.tensors[0].ddr_addr);
    EXPECT_EQ(stream(p.blocks[2], "dma0").commands[1].dma.src_addr, p.tensors[1].ddr_addr + 2 * 32 * 48 * 2);
}

// tile=(64, 32): m and n are taken as given, k (and the panel depth) is
// chosen by estimated cost among the k that fit L0: 2 * (64 k + k * 32) * 2
// + 64 * 32 * 4 <= 32768 allows k <= 64. The cheapest is k = 8 with 8-deep
// panels: the MATMULs of a block take the same cycles per MAC at any depth
// (7 of pipeline each aside), but shallow panels bring the first MATMUL
// forward (tests/dsl/gemm_cost_test.cpp shows the trade-off).
TEST(LowerMatmul, TileIsHonoured) {
    arch::Program p = lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(64, 32)"));
    const arch::MatmulArgs& mm = stream(p.blocks[0], "cube0").commands[0].mm;
    EXPECT_EQ(mm.m, 64u);
    EXPECT_EQ(mm.n, 32u);
    EXPECT_EQ(mm.k, 8u);
    EXPECT_EQ(stream(p.blocks[0], "dma0").commands[0].dma.row_bytes, 8u * 2);  // kb = 8
    EXPECT_EQ(p.blocks.size(), 8u);  // 128 x 64 blocks over 256 x 256
    // tile=(m, n, k) fixes k too.
    arch::Program q = lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(64, 32, 64)"));
    EXPECT_EQ(stream(q.blocks[0], "cube0").commands[0].mm.k, 64u);
}

// 2 * (128*64 + 64*128) * 2 + 128*128*4 = 65536 + 65536.
TEST(LowerMatmul, TileThatDoesNotFitL0) {
    EXPECT_EQ(dsl_test::error_of([] { lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(128, 128, 64)")); }),
              "t.pto:4:5: error: matmul: tile=(128, 128, 64) needs 131072 bytes of L0 with double buffering, the cube "
              "has 32768\n"
              "c = pypo.op.matmul(a, b, tile=(128, 128, 64))\n"
              "    ^\n");
}

// prefetch=True: the tiling is chosen as for two panel buffers (64 x 8 x
// 64 cube tiles, a 128 x 128 block), then the block gets three panel
// buffers as deep as fit: 3 * (128 kb + kb 128) * 2 + 128*128*2 <= 262144
// gives kb = 128. Panel s waits for panel s - 3 to be consumed, not s - 2.
TEST(LowerMatmul, PrefetchKeepsThreePanelBuffers) {
    arch::Program p = lower(matmul_source("(256, 1024)", "(1024, 256)", ", prefetch=True"));
    const arch::Stream& dma0 = stream(p.blocks[0], "dma0");
    // A, B alternate: A panel s is command 2 s.
    EXPECT_EQ(dma0.commands[4].dma.dst_addr, 2u * 128 * 128 * 2);  // buffer 2
    EXPECT_TRUE(dma0.commands[4].waits.empty());
    EXPECT_EQ(dma0.commands[6].dma.dst_addr, 0u);  // panel 3 back in buffer 0 ...
    EXPECT_EQ(dma0.commands[6].waits.size(), 4u);  // ... once the 4 cubes are done with panel 0
    arch::Program p2 = lower(matmul_source("(256, 1024)", "(1024, 256)"));
    EXPECT_EQ(stream(p2.blocks[0], "dma0").commands[4].waits.size(), 4u);
}

// With 64 KiB of L1 the 128 x 128 block of tile=(64, 64, 32) fits
// double-buffered panels 32 deep (2 * 16384 + 32768 = 65536) but not
// three: 3 * 16384 + 32768. (Without tile= the cost model would pick a
// tiling that fits, see TileIsHonoured.)
TEST(LowerMatmul, PrefetchThatDoesNotFitL1) {
    EXPECT_EQ(dsl_test::error_of([] {
                  lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(64, 64, 32), prefetch=True"),
                        config(R"({"cluster": {"l1_kib": 64}})"));
              }),
              "t.pto:4:5: error: matmul: prefetch=True needs 81920 bytes of L1 for three panel buffers (block 128x128, "
              "panels 32 deep), the cluster has 65536\n"
              "c = pypo.op.matmul(a, b, tile=(64, 64, 32), prefetch=True)\n"
              "    ^\n");
}

TEST(LowerMatmul, UnrollIsNotLoweredYet) {
    EXPECT_EQ(dsl_test::error_of([] { lower(matmul_source("(64, 64)", "(64, 64)", ", unroll=2")); }),
              "t.pto:4:5: error: matmul: unroll=2 is not lowered yet\n"
              "c = pypo.op.matmul(a, b, unroll=2)\n"
              "    ^\n");
}

}  // namespace
