// pypo.config.BUFFERS (docs/timing-model.md §10, "Buffering depth"): the
// flag and buffer pattern of the GEMM's L1 panels and L0 tiles and of the
// vector streams' chunks for B = 1 (single) and B = 3 (triple): step i uses
// buffer i % B, and its producer waits for the consumer's release of step
// i - B (so only steps i >= B wait).
#include <gtest/gtest.h>

#include <algorithm>

#include "dsl/ir/graph_format.h"
#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;
using arch::Space;

std::string with_buffers(int b, const std::string& body) {
    return "import pypto as pypo\npypo.config.BUFFERS = " + std::to_string(b) + "\n" + body;
}

const char* kGemm =
    "a = pypo.input(\"a\", shape=(256, 1024), dtype=\"float16\")\n"
    "b = pypo.input(\"b\", shape=(1024, 256), dtype=\"float16\")\n"
    "pypo.output(\"c\", pypo.op.matmul(a, b))\n";

void expect_gemm_pattern(int B) {
    SCOPED_TRACE("BUFFERS = " + std::to_string(B));
    arch::Program p = lower(with_buffers(B, kGemm));
    const arch::Block& blk = p.blocks[0];
    // L1: A panel s (dma0 command 2 s; B panel 2 s + 1) in buffer s % B,
    // waiting for the 4 cubes' release of panel s - B.
    const arch::Stream& dma0 = stream(blk, "dma0");
    const uint64_t a_panel = dma0.commands[0].dma.bytes();
    int panels = 0;
    for (size_t i = 0; i < dma0.commands.size(); i += 2) {
        const arch::Command& a = dma0.commands[i];
        if (a.dma.src != Space::DDR) break;  // the C write-backs
        const int s = int(i / 2);
        EXPECT_EQ(a.dma.dst_addr, uint64_t(s % B) * a_panel) << "panel " << s;
        EXPECT_EQ(a.waits.size(), s >= B ? 4u : 0u) << "panel " << s;
        EXPECT_EQ(dma0.commands[i + 1].waits.size(), s >= B ? 4u : 0u) << "panel " << s;
        ++panels;
    }
    EXPECT_GT(panels, B);  // the pattern wraps round at least once
    // L0: cube 0's tile u (its DMA commands 2 u and 2 u + 1) in buffer u % B;
    // the A tile of u waits for MATMUL u - B (the flag every MATMUL sets).
    const arch::Stream& moves = stream(blk, "cube0.dma");
    const arch::Stream& macs = stream(blk, "cube0");
    const arch::FlagId l0_free = macs.commands[0].sets.at(0);
    const uint64_t a_tile = uint64_t(macs.commands[0].mm.m) * macs.commands[0].mm.k * 2;
    const uint64_t b_tile = uint64_t(macs.commands[0].mm.k) * macs.commands[0].mm.n * 2;
    ASSERT_GT(macs.commands.size(), size_t(B));
    for (size_t u = 0; u < macs.commands.size(); ++u) {
        const arch::Command& a = moves.commands[2 * u];
        const arch::Command& mm = macs.commands[u];
        EXPECT_EQ(a.dma.dst_addr, (u % B) * a_tile) << "tile " << u;
        EXPECT_EQ(moves.commands[2 * u + 1].dma.dst_addr, B * a_tile + (u % B) * b_tile) << "tile " << u;
        EXPECT_EQ(mm.mm.a_addr, a.dma.dst_addr);
        EXPECT_EQ(mm.mm.c_addr, B * (a_tile + b_tile));
        const bool waits = std::find(a.waits.begin(), a.waits.end(), l0_free) != a.waits.end();
        EXPECT_EQ(waits, u >= size_t(B)) << "tile " << u;
    }
}

TEST(LowerBuffers, GemmSingleBuffered) { expect_gemm_pattern(1); }
TEST(LowerBuffers, GemmTripleBuffered) { expect_gemm_pattern(3); }

// B is also the depth the tiling is chosen for: the cost is estimated and
// the capacities checked with B buffers in L0 and L1. On the default
// hardware the tilings chosen for this GEMM are 64 x 64 C tiles with
// shallow k-steps (the 4 x 4 MAC array makes every MATMUL long, so the
// first panel load is what a deep step costs, and each step's 7 cycles of
// pipeline and 8 of loop control what a shallow one costs; of the tilings
// within 0.5 % of the cheapest estimate the fewest commands win): kt = kb =
// 32 at B = 1 and 2; at B = 3 the 32-deep tile no longer fits its three L0
// buffers: kt = 16, two tiles per 32-deep panel. Each fits its depth's L0:
// B * (64 kt + kt 64) * 2 + 64*64*4 <= 32768.
TEST(LowerBuffers, TilesAreChosenForTheDepth) {
    const int64_t kt[] = {32, 32, 16}, kb[] = {32, 32, 32};
    for (int B = 1; B <= 3; ++B) {
        arch::Program p = lower(with_buffers(B, kGemm));
        const arch::Stream& macs = stream(p.blocks[0], "cube0");
        EXPECT_EQ(macs.commands[0].mm.m, 64u) << B;
        EXPECT_EQ(macs.commands[0].mm.n, 64u) << B;
        EXPECT_EQ(macs.commands[0].mm.k, uint32_t(kt[B - 1])) << B;
        EXPECT_EQ(stream(p.blocks[0], "dma0").commands[0].dma.row_bytes, uint32_t(kb[B - 1] * 2)) << B;
        EXPECT_LE(B * (64 * kt[B - 1] + kt[B - 1] * 64) * 2 + 64 * 64 * 4, 32768) << B;
    }
    // BUFFERS overrides prefetch=True (triple L1 panels by default).
    arch::Program p =
        lower(with_buffers(1, std::string(kGemm).replace(std::string(kGemm).find("b))"), 3, "b, prefetch=True))")));
    EXPECT_EQ(stream(p.blocks[0], "dma0").commands[2].waits.size(), 4u);  // panel 1 waits: one buffer
}

// A tile that fits L0 double-buffered but not triple: 3 * (64*64 + 64*64)
// * 2 + 64*64*4 = 65536 bytes.
TEST(LowerBuffers, TileThatDoesNotFitTripleBuffered) {
    EXPECT_EQ(dsl_test::error_of([] {
                  lower(with_buffers(3,
                                     "a = pypo.input(\"a\", shape=(256, 256), dtype=\"float16\")\n"
                                     "c = pypo.op.matmul(a, a, tile=(64, 64, 64))\n"
                                     "pypo.output(\"c\", c)\n"));
              }),
              "t.pto:4:5: error: matmul: tile=(64, 64, 64) needs 65536 bytes of L0 with triple buffering, the cube "
              "has 32768 (pypo.config.BUFFERS = 3)\n"
              "c = pypo.op.matmul(a, a, tile=(64, 64, 64))\n"
              "    ^\n");
}

// A vector stream sized for the depth: one 16 x 2048 float16 plane (64 KiB)
// in and out fits L1 (256 KiB) double-buffered (4 x 64 KiB) but not triple.
TEST(LowerBuffers, VectorChunkThatDoesNotFitTripleBuffered) {
    const std::string body =
        "x = pypo.input(\"x\", shape=(2, 16, 2048), dtype=\"float16\")\n"
        "y = pypo.op.transpose(x, perm=(1, 0, 2))\n"
        "pypo.output(\"y\", y)\n";
    lower(with_buffers(2, body));
    EXPECT_EQ(dsl_test::error_of([&] { lower(with_buffers(3, body)); }),
              "t.pto:4:5: error: transpose does not fit the hardware: one chunk needs 393216 bytes of L1 with "
              "pypo.config.BUFFERS = 3, a cluster has 262144\n"
              "y = pypo.op.transpose(x, perm=(1, 0, 2))\n"
              "    ^\n");
}

// A vector stream with loads on dma0 and stores on dma1. Flags: f0 inputs
// ready, f1 input slot free, f2 result ready, f3 result slot free.
void expect_vector_pattern(int B) {
    SCOPED_TRACE("BUFFERS = " + std::to_string(B));
    arch::Config c = config(R"({"cluster": {"dma_engines": 2}})");
    arch::Program p = lower(with_buffers(B,
                                         "x = pypo.input(\"x\", shape=(1, 64, 112, 112), dtype=\"float16\")\n"
                                         "pypo.output(\"y\", pypo.op.relu(x))\n"),
                            c);
    const arch::Block& b = p.blocks[0];
    const arch::Stream& loads = stream(b, "dma0");
    const arch::Stream& vec = stream(b, "vector0");
    const arch::Stream& stores = stream(b, "dma1");
    const size_t m = loads.commands.size();
    ASSERT_GT(m, size_t(B));
    ASSERT_EQ(vec.commands.size(), m);
    ASSERT_EQ(stores.commands.size(), m);
    const uint64_t in0 = loads.commands[0].dma.dst_addr, in1 = loads.commands[1].dma.dst_addr;
    const uint64_t slot = B == 1 ? 0 : in1 - in0;
    for (size_t i = 0; i < m; ++i) {
        SCOPED_TRACE("chunk " + std::to_string(i));
        const bool reuse = i >= size_t(B), released = i + B < m;
        EXPECT_EQ(loads.commands[i].dma.dst_addr, in0 + (i % B) * slot);
        EXPECT_EQ(loads.commands[i].waits, reuse ? std::vector<arch::FlagId>{1} : std::vector<arch::FlagId>{});
        EXPECT_EQ(vec.commands[i].waits, reuse ? (std::vector<arch::FlagId>{0, 3}) : std::vector<arch::FlagId>{0});
        EXPECT_EQ(vec.commands[i].sets, released ? (std::vector<arch::FlagId>{1, 2}) : std::vector<arch::FlagId>{2});
        EXPECT_EQ(stores.commands[i].sets, released ? std::vector<arch::FlagId>{3} : std::vector<arch::FlagId>{});
    }
}

TEST(LowerBuffers, VectorStreamSingleBuffered) { expect_vector_pattern(1); }
TEST(LowerBuffers, VectorStreamTripleBuffered) { expect_vector_pattern(3); }

// One DMA engine: the store of chunk i - B is queued before the load of
// chunk i.
TEST(LowerBuffers, SharedQueueOrderFollowsTheDepth) {
    const char* body =
        "x = pypo.input(\"x\", shape=(1, 64, 112, 112), dtype=\"float16\")\n"
        "pypo.output(\"y\", pypo.op.relu(x))\n";
    std::string orders[3];
    for (int B = 1; B <= 3; ++B) {
        arch::Program p = lower(with_buffers(B, body));
        for (const arch::Command& c : stream(p.blocks[0], "dma0").commands)
            orders[B - 1] += c.dma.src == Space::DDR ? "L" : "S";
    }
    EXPECT_EQ(orders[1], "LLSLSLSLSLSLSS");  // as without BUFFERS
    EXPECT_EQ(orders[0].substr(0, 4), "LSLS");
    EXPECT_EQ(orders[2].substr(0, 5), "LLLSL");
}

// Reading the setting back (0 while unset), and the graph header.
TEST(LowerBuffers, SettingReadsBack) {
    dsl::TaskGraph g = dsl::elaborate_source(dsl_test::source(
        "import pypto as pypo\npypo.config.MAX_PARALLEL = pypo.config.BUFFERS + 1\npypo.config.BUFFERS = 3\n"
        "pypo.config.MAX_PARALLEL = pypo.config.BUFFERS * 2\n"
        "x = pypo.input(\"x\", shape=(4, 4))\npypo.output(\"y\", pypo.op.relu(x))\n"));
    EXPECT_EQ(g.buffers, 3);
    EXPECT_EQ(g.max_parallel, 6);
    EXPECT_NE(dsl::format_graph(g).find(", MAX_PARALLEL 6, BUFFERS 3\n"), std::string::npos) << dsl::format_graph(g);
}

}  // namespace
