// matmul lowering beyond 2-D (dsl/lower/gemm/lower_matmul.h): batched operands with
// broadcast batch dimensions, tile=, prefetch= and unroll=, their exact
// errors.
#include <gtest/gtest.h>

#include "sim/arch/program_json.h"

#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;

std::string matmul_source(const std::string& a, const std::string& b, const std::string& args = "") {
    return "import pypto as pypo\n"
           "a = pypo.input(\"a\", shape=" +
           a +
           ", dtype=\"float16\")\n"
           "b = pypo.input(\"b\", shape=" +
           b +
           ", dtype=\"float16\")\n"
           "c = pypo.op.matmul(a, b" +
           args +
           ")\n"
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
// + 64 * 32 * 4 <= 32768 allows k <= 64. The choice is k = 16 with 16-deep
// panels: the MATMULs of a block take the same cycles per MAC at any depth
// (7 of pipeline and 8 of loop control each aside), but shallow panels
// bring the first MATMUL forward; of the tilings within 0.5 % of the
// cheapest estimate the one with the fewest commands is taken
// (tests/dsl/gemm_cost_test.cpp shows the trade-off).
TEST(LowerMatmul, TileIsHonoured) {
    arch::Program p = lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(64, 32)"));
    const arch::MatmulArgs& mm = stream(p.blocks[0], "cube0").commands[0].mm;
    EXPECT_EQ(mm.m, 64u);
    EXPECT_EQ(mm.n, 32u);
    EXPECT_EQ(mm.k, 16u);
    EXPECT_EQ(stream(p.blocks[0], "dma0").commands[0].dma.row_bytes, 16u * 2);  // kb = 16
    EXPECT_EQ(p.blocks.size(), 8u);                                             // 128 x 64 blocks over 256 x 256
    // tile=(m, n, k) fixes k too.
    arch::Program q = lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(64, 32, 64)"));
    EXPECT_EQ(stream(q.blocks[0], "cube0").commands[0].mm.k, 64u);
}

// A split L0 of 4 + 12 + 16 KiB (cube.l0a_kib ...): the same 32 KiB as the
// default, but each operand only has its own buffer. A 64 x 16 x 32 tile
// needs 14336 bytes in all -- it would fit one L0 -- but its two A tiles
// (8192 bytes) do not fit L0A. A 32 x 32 x 32 tile fits, with B and C at
// the start of L0B and L0C.
TEST(LowerMatmul, SplitL0KeepsEachOperandInItsBuffer) {
    arch::Config c = config();
    c.l0a_kib = 4, c.l0b_kib = 12, c.l0c_kib = 16;
    EXPECT_EQ(dsl_test::error_of([&] { lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(64, 16, 32)"), c); }),
              "t.pto:4:5: error: matmul: tile=(64, 16, 32) needs 8192, 2048 and 4096 bytes of L0A, L0B and L0C "
              "with double buffering, the cube has 4096, 12288 and 16384; the largest square tile that fits is "
              "tile=(32, 32, 32)\n"
              "c = pypo.op.matmul(a, b, tile=(64, 16, 32))\n"
              "    ^\n");
    EXPECT_NO_THROW(lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(64, 16, 32)")));
    arch::Program p = lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(32, 32, 32)"), c);
    const arch::Command& mm = stream(p.blocks[0], "cube0").commands[0];
    EXPECT_EQ(mm.mm.a_addr, 0u);
    EXPECT_EQ(mm.mm.b_addr, 4096u);
    EXPECT_EQ(mm.mm.c_addr, 16384u);
}

// 2 * (128*64 + 64*128) * 2 + 128*128*4 = 65536 + 65536. Halving m and n:
// (64, 64, 64) needs 2 * 16384 + 16384 = 49152, (32, 32, 64) 16384 + 4096.
TEST(LowerMatmul, TileThatDoesNotFitL0) {
    EXPECT_EQ(dsl_test::error_of([] { lower(matmul_source("(256, 256)", "(256, 256)", ", tile=(128, 128, 64)")); }),
              "t.pto:4:5: error: matmul: tile=(128, 128, 64) needs 131072 bytes of L0 with double buffering, the cube "
              "has 32768; the largest square tile that fits is tile=(32, 32, 64)\n"
              "c = pypo.op.matmul(a, b, tile=(128, 128, 64))\n"
              "    ^\n");
}

// prefetch=True: the compiler tries three panel buffers (on the tiling
// chosen for two, panels as deep as fit, and the tiling searched for
// three) and takes them only if estimated more than 1 % faster. On the
// default hardware the cubes bound this GEMM and two buffers already hide
// DDR: the program is the one without prefetch= (three-buffer panels
// themselves: pypo.config.BUFFERS = 3, tests/dsl/lower/lower_buffers_test.cpp).
TEST(LowerMatmul, PrefetchThatDoesNotPayIsNotTaken) {
    arch::Program p = lower(matmul_source("(256, 1024)", "(1024, 256)", ", prefetch=True"));
    arch::Program p2 = lower(matmul_source("(256, 1024)", "(1024, 256)"));
    EXPECT_EQ(arch::program_to_json(p).dump(), arch::program_to_json(p2).dump());
    // Panel 2 waits for panel 0's release: two buffers.
    EXPECT_EQ(stream(p.blocks[0], "dma0").commands[4].waits.size(), 4u);
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

// The issue cycles of a stream's commands, in order.
std::vector<uint32_t> issue_of(const arch::Stream& s) {
    std::vector<uint32_t> v;
    for (const arch::Command& c : s.commands) v.push_back(c.issue_cycles);
    return v;
}

// Step i of an engine's loop of `steps` steps, its first command at
// `first + i * per_step`, pays `cycles` when i % unroll == 0; every other
// command of the stream (`total` of them) pays nothing.
std::vector<uint32_t> loop_issue(size_t total, size_t steps, size_t per_step, size_t unroll, uint32_t cycles) {
    std::vector<uint32_t> v(total, 0);
    for (size_t i = 0; i < steps; i += unroll) v[i * per_step] = cycles;
    return v;
}

// (256, 1024) @ (1024, 256) on the default hardware, the tiling fixed (the
// loop structure is under test, not the choice): 128 x 128 blocks of
// 64 x 32 x 64 cube tiles, panels 128 deep: 8 panel steps on dma0 (an A
// and a B panel each, then the 4 C stores), 32 k-steps on each cube's DMA
// engine (an A and a B tile each, then the write-back) and on each cube (a
// MATMUL each). Without unroll= every step starts an iteration of its
// engine's loop and its first command carries cluster.loop_overhead_cycles
// (8); unroll=4 puts four steps in an iteration, so only steps 0, 4, 8, ...
// pay; the code after the loop (write-back, stores) never does.
TEST(LowerMatmul, UnrollSetsTheLoopControlOfEachEnginesKLoop) {
    for (size_t unroll : {1u, 4u, 3u, 64u}) {
        const std::string arg = unroll == 1 ? "" : ", unroll=" + std::to_string(unroll);
        arch::Program p =
            lower(matmul_source("(256, 1024)", "(1024, 256)", arg), config(), fixed_tiling(64, 64, 32, 128));
        ASSERT_EQ(p.blocks.size(), 4u);
        for (const arch::Block& b : p.blocks) {
            EXPECT_EQ(issue_of(stream(b, "dma0")), loop_issue(16 + 4, 8, 2, unroll, 8)) << unroll;
            for (int q = 0; q < 4; ++q) {
                EXPECT_EQ(issue_of(stream(b, "cube" + std::to_string(q) + ".dma")),
                          loop_issue(64 + 1, 32, 2, unroll, 8))
                    << unroll;
                EXPECT_EQ(issue_of(stream(b, "cube" + std::to_string(q))), loop_issue(32, 32, 1, unroll, 8)) << unroll;
            }
        }
    }
}

// The overhead is the hardware's cluster.loop_overhead_cycles; with three
// DMA engines the B panels have a loop of their own on dma1 and pay too
// (the stores, on dma2, are straight-line code). The tiling of the test
// above.
TEST(LowerMatmul, LoopControlFollowsTheConfigurationAndTheEngines) {
    arch::Program p =
        lower(matmul_source("(256, 1024)", "(1024, 256)", ", unroll=2"),
              config(R"({"cluster": {"loop_overhead_cycles": 13, "dma_engines": 3}})"), fixed_tiling(64, 64, 32, 128));
    const arch::Block& b = p.blocks[0];
    EXPECT_EQ(issue_of(stream(b, "dma0")), loop_issue(8, 8, 1, 2, 13));
    EXPECT_EQ(issue_of(stream(b, "dma1")), loop_issue(8, 8, 1, 2, 13));
    EXPECT_EQ(issue_of(stream(b, "dma2")), std::vector<uint32_t>(4, 0));
    EXPECT_EQ(issue_of(stream(b, "cube1")), loop_issue(32, 32, 1, 2, 13));
    // None at all when loop control is free.
    arch::Program free =
        lower(matmul_source("(256, 1024)", "(1024, 256)"), config(R"({"cluster": {"loop_overhead_cycles": 0}})"));
    for (const arch::Block& blk : free.blocks)
        for (const arch::Stream& s : blk.streams)
            for (const arch::Command& c : s.commands) EXPECT_EQ(c.issue_cycles, 0u);
}

// With two DMA engines a load pipe and a store pipe (an Ascend cube
// core's MTE2 and MTE3, timing model §10): the A and B panels alternate on
// dma0, A first, and dma1 stores the C block alone; with three, B has dma1
// and the stores dma2.
TEST(LowerMatmul, TwoDmaEnginesAreALoadAndAStorePipe) {
    const std::string src = matmul_source("(256, 1024)", "(1024, 256)", "");
    arch::Program two = lower(src, config(R"({"cluster": {"dma_engines": 2}})"), fixed_tiling(64, 64, 32, 128));
    const arch::Block& b = two.blocks[0];
    const arch::Stream& loads = stream(b, "dma0");
    ASSERT_EQ(loads.commands.size(), 16u);  // 8 panel steps of A and B
    for (size_t i = 0; i < loads.commands.size(); ++i) {
        EXPECT_EQ(loads.commands[i].dma.src, arch::Space::DDR) << i;
        EXPECT_EQ(loads.commands[i].dma.dst, arch::Space::L1) << i;
    }
    EXPECT_EQ(two.tags[loads.commands[0].tag].label, "a panel -> L1");
    EXPECT_EQ(two.tags[loads.commands[1].tag].label, "b panel -> L1");
    for (const arch::Command& c : stream(b, "dma1").commands) EXPECT_EQ(c.dma.dst, arch::Space::DDR);
    arch::Program three = lower(src, config(R"({"cluster": {"dma_engines": 3}})"), fixed_tiling(64, 64, 32, 128));
    EXPECT_EQ(stream(three.blocks[0], "dma0").commands.size(), 8u);
    EXPECT_EQ(stream(three.blocks[0], "dma1").commands.size(), 8u);
    for (const arch::Command& c : stream(three.blocks[0], "dma2").commands) EXPECT_EQ(c.dma.dst, arch::Space::DDR);
}

// Only the GEMM k-loop is a loop: vector streams and staged copies are
// fully unrolled, so their commands carry no loop control.
TEST(LowerMatmul, OtherStreamsAreFullyUnrolled) {
    arch::Program p = lower(
        "import pypto as pypo\n"
        "x = pypo.input(\"x\", shape=(1, 64, 56, 56), dtype=\"float16\")\n"
        "y = pypo.op.relu(x)\n"
        "z = pypo.op.concat([y, x], axis=1)\n"
        "pypo.output(\"z\", z)\n");
    size_t commands = 0;
    for (const arch::Block& blk : p.blocks)
        for (const arch::Stream& s : blk.streams)
            for (const arch::Command& c : s.commands) {
                EXPECT_EQ(c.issue_cycles, 0u);
                ++commands;
            }
    EXPECT_GT(commands, 20u);
}

}  // namespace
