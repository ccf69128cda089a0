// Views (reshape, flatten, slide) and the DMA-only operations
// (transpose(engine='dma'), concat, pixel_shuffle): dsl/lower/lower_views.h and
// dsl/lower/movement/lower_data_movement.h.
#include <gtest/gtest.h>

#include "dsl/lower/lower_views.h"
#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;
using arch::Space;

const std::string kHeader = "import pypto as pypo\n";

// a = x @ w1 is stored; r = reshape(a) is a view at a's address; c = r @ w2
// waits for a's blocks through the view (which has none of its own).
TEST(LowerViews, ReshapeAliasesItsInputAndForwardsDependencies) {
    arch::Program p = lower(kHeader +
                                "x = pypo.input(\"x\", shape=(64, 64), dtype=\"float16\")\n"
                                "w1 = pypo.weight(\"w1\", shape=(64, 64), dtype=\"float16\")\n"
                                "w2 = pypo.weight(\"w2\", shape=(32, 16), dtype=\"float16\")\n"
                                "a = pypo.op.matmul(x, w1)\n"
                                "r = pypo.op.reshape(a, (128, 32))\n"
                                "f = pypo.op.flatten(pypo.op.reshape(r, (4, 32, 32)))\n"
                                "c = pypo.op.matmul(r, w2)\n"
                                "pypo.output(\"c\", c)\n"
                                "pypo.output(\"f\", f)\n",
                            config(), fixed_tiling(64, 32, 32, 32));  // one block per matmul
    // x, w1, w2, matmul_1 (a), reshape_1 (r), reshape_2, f, c
    ASSERT_EQ(p.tensors.size(), 8u);
    EXPECT_EQ(p.tensors[4].name, "reshape_1");
    EXPECT_EQ(p.tensors[4].ddr_addr, p.tensors[3].ddr_addr);
    EXPECT_EQ(p.tensors[4].role, "intermediate, view of matmul_1");
    EXPECT_EQ(p.tensors[6].ddr_addr, p.tensors[3].ddr_addr);  // a view of a view: of a
    EXPECT_EQ(p.tensors[6].role, "output, view of matmul_1");
    // The stored tensors after a are packed as if the views did not exist:
    // c follows a's 8 KiB directly.
    EXPECT_EQ(p.tensors[7].ddr_addr, p.tensors[3].ddr_addr + 8192);
    ASSERT_EQ(p.blocks.size(), 2u);  // one for a, one for c; none for the views
    EXPECT_EQ(p.blocks[1].deps, std::vector<uint32_t>{0});
    ASSERT_EQ(p.ops.size(), 5u);
}

TEST(LowerViews, SlideIsAViewOfItsImage) {
    dsl::TaskGraph g = dsl::elaborate_source(
        dsl_test::source(kHeader + "img = pypo.input(\"img\", shape=(16, 20), dtype=\"float16\")\n"
                                   "p = pypo.op.slide(img, window=(3, 5), stride=(1, 2))\n"
                                   "pypo.output(\"p\", p)\n"));
    auto v = dsl::slide_view(g, 1);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->image, 0);
    EXPECT_EQ(v->window, (std::vector<int64_t>{3, 5}));
    EXPECT_EQ(v->stride, (std::vector<int64_t>{1, 2}));
    EXPECT_FALSE(dsl::slide_view(g, 0).has_value());
    // Its patches are never stored: as an output it would name the image's
    // 640 bytes as 14 x 8 x 3 x 5 patches (once lowered to no blocks, and a
    // --check failure).
    EXPECT_EQ(dsl_test::error_of([&] { dsl::lower(dsl::run_graph_passes(g), config(), "t.pto"); }),
              "t.pto:3:5: error: output 'p' is a slide view, which is not lowered yet: a slide view is read only by "
              "reduce_sum, reduce_mean or reduce_max over its window axes\n"
              "p = pypo.op.slide(img, window=(3, 5), stride=(1, 2))\n"
              "    ^\n");
}

// Every reader of a slide view but a reduction would take the image's
// bytes for the patches: refused, through a reshape too.
TEST(LowerViews, OnlyAReductionReadsASlideView) {
    const std::string head = kHeader +
                             "img = pypo.input(\"img\", shape=(16, 20), dtype=\"float16\")\n"
                             "p = pypo.op.slide(img, window=(3, 5))\n";
    const std::string readers =
        " of a slide view is not lowered yet: a slide view is read only by reduce_sum, reduce_mean or reduce_max "
        "over its window axes\n";
    EXPECT_EQ(dsl_test::error_of([&] { lower(head + "pypo.output(\"y\", pypo.op.concat([p, p]))\n"); }),
              "t.pto:4:18: error: concat" + readers + "pypo.output(\"y\", pypo.op.concat([p, p]))\n" +
                  std::string(17, ' ') + "^\n");
    EXPECT_EQ(dsl_test::error_of([&] {
                  lower(head + "pypo.output(\"y\", pypo.op.reduce_sum(pypo.op.reshape(p, (14, 16, 15)), axis=-1))\n");
              }),
              "t.pto:4:37: error: reshape" + readers +
                  "pypo.output(\"y\", pypo.op.reduce_sum(pypo.op.reshape(p, (14, 16, 15)), axis=-1))\n" +
                  std::string(36, ' ') + "^\n");
    EXPECT_EQ(
        dsl_test::error_of([&] { lower(head + "pypo.output(\"y\", pypo.op.relu(p))\n"); }),
        "t.pto:4:18: error: relu" + readers + "pypo.output(\"y\", pypo.op.relu(p))\n" + std::string(17, ' ') + "^\n");
    arch::Program ok = lower(head + "pypo.output(\"y\", pypo.op.reduce_max(p, axis=(-2, -1)))\n");
    EXPECT_FALSE(ok.blocks.empty());
}

// 2048 x 2048 float16: pieces of 128 KiB (half of L1) = 32 source rows,
// 64 pieces, 16 per cluster. Block 1 starts at row 512: loaded from
// x + 512 * 4096, written transposed to columns 512.. of y.
TEST(LowerTransposeDma, BandsAreWrittenBackTransposed) {
    arch::Program p = lower(kHeader +
                            "x = pypo.input(\"x\", shape=(2048, 2048), dtype=\"float16\")\n"
                            "y = pypo.op.transpose(x, engine='dma')\n"
                            "pypo.output(\"y\", y)\n");
    ASSERT_EQ(p.blocks.size(), 4u);
    EXPECT_EQ(p.blocks[1].name, "y[16:32]");
    const arch::Stream& dma0 = stream(p.blocks[1], "dma0");
    ASSERT_EQ(dma0.commands.size(), 32u);
    const arch::DmaArgs& load = dma0.commands[0].dma;
    EXPECT_EQ(load.src_addr, p.tensors[0].ddr_addr + 512 * 4096);
    EXPECT_EQ(load.rows, 32u);
    EXPECT_EQ(load.row_bytes, 4096u);
    // One engine: load 0, load 1, store 0 (buffer 0), load 2 (buffer 0 again), ...
    EXPECT_EQ(dma0.commands[1].dma.dst_addr, 131072u);
    const arch::DmaArgs& store = dma0.commands[2].dma;
    EXPECT_EQ(store.src, Space::L1);
    EXPECT_EQ(store.dst_addr, p.tensors[1].ddr_addr + 512 * 2);
    EXPECT_EQ(store.dst_stride, 4096u);
    ASSERT_TRUE(store.rearrange.has_value());
    EXPECT_EQ(arch::format_command(p, dma0.commands[2]),
              "DMA    L1:0x0 -> DDR:0x800400  32x4096B stride 4096/4096 transpose 2B  ; y -> DDR (transposed)");
    EXPECT_EQ(dma0.commands[3].dma.dst_addr, 0u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 2048u * 2048 * 2);
    EXPECT_EQ(d.written, 2048u * 2048 * 2);
}

// With two DMA engines stores go to dma1 and the buffers are handed over
// by flags: load i waits for store i - 2.
TEST(LowerTransposeDma, TwoEnginesOverlapLoadsAndStores) {
    arch::Program p = lower(kHeader +
                                "x = pypo.input(\"x\", shape=(512, 1024), dtype=\"float16\")\n"
                                "y = pypo.op.transpose(x, engine='dma')\n"
                                "pypo.output(\"y\", y)\n",
                            config(R"({"cluster": {"dma_engines": 2}, "chip": {"clusters": 1}})"));
    ASSERT_EQ(p.blocks.size(), 1u);  // 8 pieces of 64 rows
    const arch::Stream& loads = stream(p.blocks[0], "dma0");
    const arch::Stream& stores = stream(p.blocks[0], "dma1");
    ASSERT_EQ(loads.commands.size(), 8u);
    ASSERT_EQ(stores.commands.size(), 8u);
    EXPECT_TRUE(loads.commands[1].waits.empty());
    EXPECT_EQ(loads.commands[2].waits, std::vector<arch::FlagId>{1});
    EXPECT_EQ(stores.commands[0].waits, std::vector<arch::FlagId>{0});
    EXPECT_EQ(stores.commands[7].sets, std::vector<arch::FlagId>{1});
}

// perm (1, 0, 2) keeps the last axis: rows of 8 elements gathered with the
// stride of input axis 0 (3 * 8 elements), no transpose in flight.
TEST(LowerTransposeDma, KeepingTheLastAxisIsAStridedCopy) {
    arch::Program p = lower(kHeader +
                            "x = pypo.input(\"x\", shape=(4, 3, 8), dtype=\"float16\")\n"
                            "y = pypo.op.transpose(x, perm=(1, 0, 2), engine='dma')\n"
                            "pypo.output(\"y\", y)\n");
    ASSERT_EQ(p.blocks.size(), 3u);
    const arch::Stream& s = stream(p.blocks[1], "dma0");
    EXPECT_EQ(s.commands[0].dma.src_addr, p.tensors[0].ddr_addr + 8 * 2);
    EXPECT_EQ(s.commands[0].dma.rows, 4u);
    EXPECT_EQ(s.commands[0].dma.row_bytes, 16u);
    EXPECT_EQ(s.commands[0].dma.src_stride, 48u);
    EXPECT_EQ(s.commands[1].dma.dst_addr, p.tensors[1].ddr_addr + 4 * 8 * 2);
    EXPECT_FALSE(s.commands[1].dma.rearrange.has_value());
}

TEST(LowerTransposeDma, OtherPermutationsAreNotLoweredYet) {
    EXPECT_EQ(dsl_test::error_of([] {
                  lower(kHeader +
                        "x = pypo.input(\"x\", shape=(4, 3, 8), dtype=\"float16\")\n"
                        "y = pypo.op.transpose(x, perm=(2, 0, 1), engine='dma')\n"
                        "pypo.output(\"y\", y)\n");
              }),
              "t.pto:3:5: error: transpose: engine='dma' with perm (2, 0, 1) is not lowered yet (it swaps the last two "
              "axes or keeps the last)\n"
              "y = pypo.op.transpose(x, perm=(2, 0, 1), engine='dma')\n"
              "    ^\n");
}

// concat((2, 3), (2, 5), axis=1): each input's rows go to their columns of
// the (2, 8) output: a at column 0, b at column 3, rows 16 bytes apart.
TEST(LowerConcat, EachInputIntoItsSlice) {
    arch::Program p = lower(kHeader +
                            "a = pypo.input(\"a\", shape=(2, 3), dtype=\"float16\")\n"
                            "b = pypo.input(\"b\", shape=(2, 5), dtype=\"float16\")\n"
                            "c = pypo.op.concat([a, b], axis=1)\n"
                            "pypo.output(\"c\", c)\n");
    ASSERT_EQ(p.blocks.size(), 2u);
    const arch::Stream& s = stream(p.blocks[1], "dma0");
    EXPECT_EQ(s.commands[0].dma.src_addr, p.tensors[1].ddr_addr);
    EXPECT_EQ(s.commands[0].dma.rows, 2u);
    EXPECT_EQ(s.commands[0].dma.row_bytes, 10u);
    EXPECT_EQ(s.commands[1].dma.dst_addr, p.tensors[2].ddr_addr + 6);
    EXPECT_EQ(s.commands[1].dma.dst_stride, 16u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 32u);
    EXPECT_EQ(d.written, 32u);
}

// Along axis 0 the inputs are contiguous runs: one long row each, cut into
// pieces of half of L1 (131072 B): 300000 B = 3 pieces.
TEST(LowerConcat, ContiguousInputsAreCutIntoL1SizedPieces) {
    arch::Program p = lower(kHeader +
                            "a = pypo.input(\"a\", shape=(150, 1000), dtype=\"float16\")\n"
                            "b = pypo.input(\"b\", shape=(10, 1000), dtype=\"float16\")\n"
                            "c = pypo.op.concat([a, b])\n"
                            "pypo.output(\"c\", c)\n");
    ASSERT_EQ(p.blocks.size(), 4u);  // pieces 131072, 131072, 37856 of a and 20000 of b
    EXPECT_EQ(stream(p.blocks[2], "dma0").commands[0].dma.row_bytes, 37856u);
    EXPECT_EQ(stream(p.blocks[3], "dma0").commands[1].dma.dst_addr, p.tensors[2].ddr_addr + 300000);
}

// (1, 8, 4, 4) -> (1, 2, 8, 8): per output channel, its 4 input planes in
// and one 8 x 8 plane out, shuffled in flight.
TEST(LowerPixelShuffle, ChannelGroupsThroughL1) {
    arch::Program p = lower(kHeader +
                            "x = pypo.input(\"x\", shape=(1, 8, 4, 4), dtype=\"float16\")\n"
                            "y = pypo.op.pixel_shuffle(x, 2)\n"
                            "pypo.output(\"y\", y)\n");
    ASSERT_EQ(p.blocks.size(), 2u);
    const arch::Stream& s = stream(p.blocks[1], "dma0");
    EXPECT_EQ(s.commands[0].dma.src_addr, p.tensors[0].ddr_addr + 4 * 16 * 2);
    EXPECT_EQ(s.commands[0].dma.bytes(), 4u * 16 * 2);
    EXPECT_EQ(arch::format_command(p, s.commands[1]),
              "DMA    L1:0x0 -> DDR:0x1080  8x16B stride 16/16 pixel_shuffle x2 2B  ; y -> DDR (shuffled)");
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 256u);
    EXPECT_EQ(d.written, 256u);
}

}  // namespace
