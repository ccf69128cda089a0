// Slices and in-place updates (dsl/ir/strided_view.h, dsl/lower/lower_views.h,
// dsl/lower/movement/lower_update.cpp): views are addresses, updates move
// only the slice's bytes and wait for the readers of what they overwrite.
#include <gtest/gtest.h>

#include "dsl/lower/lower_views.h"
#include "dsl/reference/reference.h"
#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;
using arch::Space;

const std::string kHeader = "import pypto as pypo\n";

std::vector<const arch::Command*> dmas(const arch::Program& p) {
    std::vector<const arch::Command*> out;
    for (const arch::Block& b : p.blocks)
        for (const arch::Stream& s : b.streams)
            for (const arch::Command& c : s.commands)
                if (c.op == arch::Opcode::Dma) out.push_back(&c);
    return out;
}

// x[2, 1:5] of a (4, 8, 32) float16 input is one run of its bytes: at
// (2 * 8 + 1) * 32 elements past x, read by relu as a tensor of its own.
TEST(LowerSlices, ARunOfRowsIsAnAddressAndNoCommands) {
    arch::Program p = lower(kHeader +
                            "x = pypo.input('x', shape=(4, 8, 32))\n"
                            "v = x[2, 1:5]\n"
                            "pypo.output('y', pypo.op.relu(v))\n");
    ASSERT_EQ(p.tensors.size(), 3u);
    EXPECT_EQ(p.tensors[1].name, "slice_1");
    EXPECT_EQ(p.tensors[1].shape, (std::vector<int64_t>{4, 32}));
    EXPECT_EQ(p.tensors[1].ddr_addr, p.tensors[0].ddr_addr + (2 * 8 + 1) * 32 * 2);
    EXPECT_EQ(p.tensors[1].role, "intermediate, view of x");
    // relu's loads read the view's 256 bytes and nothing else of x.
    EXPECT_EQ(ddr_bytes(p).read, 4u * 32 * 2);
    const uint64_t view = p.tensors[1].ddr_addr;
    for (const arch::Command* c : dmas(p))
        if (c->dma.src == Space::DDR) {
            EXPECT_GE(c->dma.src_addr, view);
            EXPECT_LE(c->dma.src_addr + c->dma.bytes(), view + 4 * 32 * 2);
        }
}

// kt[:, 64:128] of a (64, 256) tensor: matmul's B panels read its rows 512
// bytes apart, 128 bytes each.
TEST(LowerSlices, MatmulReadsAStridedSliceByItsRowStride) {
    arch::Program p = lower(kHeader +
                                "q = pypo.input('q', shape=(16, 64))\n"
                                "kt = pypo.input('kt', shape=(64, 256))\n"
                                "pypo.output('s', pypo.op.matmul(q, kt[:, 64:128]))\n",
                            config(), fixed_tiling(16, 64, 64, 64));
    const uint64_t kt = p.tensors[1].ddr_addr;
    int b_loads = 0;
    for (const arch::Command* c : dmas(p))
        if (c->dma.src == Space::DDR && c->dma.src_addr >= kt && c->dma.src_addr < kt + 64 * 256 * 2) {
            ++b_loads;
            EXPECT_EQ(c->dma.src_addr, kt + 64 * 2);
            EXPECT_EQ(c->dma.src_stride, 256u * 2);
            EXPECT_EQ(c->dma.row_bytes, 64u * 2);
            EXPECT_EQ(c->dma.rows, 64u);
        }
    EXPECT_EQ(b_loads, 1);
    // q (2 KiB) and the slice (8 KiB), not the whole of kt (32 KiB).
    EXPECT_EQ(ddr_bytes(p).read, 16u * 64 * 2 + 64u * 64 * 2);
}

// cache[:, :, 5:6] = k of a (4, 16, 32) cache: k's 128 bytes go to L1 and
// from there into 64 elements 32 apart; nothing else of the cache moves.
TEST(LowerSlices, AnUpdateMovesOnlyTheSlice) {
    arch::Program p = lower(kHeader +
                            "cache = pypo.input('cache', shape=(4, 16, 32))\n"
                            "k = pypo.input('k', shape=(1, 64))\n"
                            "cache[:, :, 5:6] = pypo.op.reshape(k, (4, 16, 1))\n");
    const std::vector<const arch::Command*> d = dmas(p);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0]->dma.src, Space::DDR);
    EXPECT_EQ(d[0]->dma.src_addr, p.tensors[1].ddr_addr);
    EXPECT_EQ(d[0]->dma.bytes(), 128u);
    EXPECT_EQ(d[1]->dma.dst, Space::DDR);
    EXPECT_EQ(d[1]->dma.dst_addr, p.tensors[0].ddr_addr + 5 * 2);
    EXPECT_EQ(d[1]->dma.dst_stride, 32u * 2);
    EXPECT_EQ(d[1]->dma.rows, 64u);
    EXPECT_EQ(d[1]->dma.row_bytes, 2u);
    EXPECT_EQ(ddr_bytes(p).read, 128u);
    EXPECT_EQ(ddr_bytes(p).written, 128u);
    // The new contents are an output in the input's bytes.
    ASSERT_EQ(p.tensors.size(), 4u);
    EXPECT_EQ(p.tensors[3].name, "cache.updated");
    EXPECT_EQ(p.tensors[3].ddr_addr, p.tensors[0].ddr_addr);
    EXPECT_EQ(p.tensors[3].role, "output, updated in place: cache");
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_EQ(p.notes[0],
              "input 'cache' is updated in place (last at 4:1): output 'cache.updated' is its new contents, written "
              "back into the input's bytes");
}

// A reader of the old cache comes first in program order: the update waits
// for its block that reads the row the update overwrites, and the block of
// the reader after the update that reads that row waits for the update;
// the others read rows the update does not write (docs/timing-model.md
// §10, "Block dependencies"). Both readers split the 64 rows evenly; row 3
// is in their first blocks.
TEST(LowerSlices, AnUpdateWaitsForTheReadersOfWhatItOverwrites) {
    arch::Program p = lower(kHeader +
                            "cache = pypo.input('cache', shape=(64, 64))\n"
                            "k = pypo.input('k', shape=(1, 64))\n"
                            "old = pypo.op.relu(cache)\n"
                            "cache[3:4] = k\n"
                            "new = pypo.op.exp(cache)\n"
                            "pypo.output('old', old)\n"
                            "pypo.output('new', new)\n");
    // relu's blocks, then the update's one block, then exp's.
    std::vector<uint32_t> relu, update, exp;
    for (uint32_t b = 0; b < p.blocks.size(); ++b) {
        const std::string& n = p.blocks[b].name;
        (n.rfind("old", 0) == 0 ? relu : n.rfind("cache[", 0) == 0 ? update : exp).push_back(b);
    }
    ASSERT_EQ(update.size(), 1u);
    ASSERT_FALSE(relu.empty());
    ASSERT_FALSE(exp.empty());
    EXPECT_EQ(p.blocks[update[0]].name, "cache[3:4, :][0:1]");
    EXPECT_EQ(p.blocks[update[0]].deps, std::vector<uint32_t>{relu.front()});
    ASSERT_GT(relu.size(), 1u);
    for (uint32_t b : exp)
        EXPECT_EQ(p.blocks[b].deps, b == exp.front() ? update : std::vector<uint32_t>{}) << p.blocks[b].name;
}

// The reference executor: views gather, updates write a new version.
TEST(LowerSlices, ReferenceSlicesAndUpdates) {
    dsl::TaskGraph g =
        dsl::run_graph_passes(
            dsl::elaborate_source(dsl_test::source(kHeader + "x = pypo.input('x', shape=(3, 4), dtype='float32')\n"
                                                             "k = pypo.input('k', shape=(3,), dtype='float32')\n"
                                                             "s = x[1:, 0:4:2]\n"
                                                             "pypo.output('s', pypo.op.relu(s))\n"
                                                             "x[:, 3] = k\n")))
            .graph();
    std::vector<dsl::RefValues> in(g.tensors.size());
    in[0] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    in[1] = {-1, -2, -3};
    const std::vector<dsl::RefValues> v = dsl::run_reference(g, in);
    int s = -1, updated = -1;
    for (size_t t = 0; t < g.tensors.size(); ++t) {
        if (g.tensors[t].name == "s") s = int(t);
        if (g.tensors[t].name == "x.updated") updated = int(t);
    }
    ASSERT_GE(s, 0);
    ASSERT_GE(updated, 0);
    EXPECT_EQ(v[size_t(s)], (dsl::RefValues{4, 6, 8, 10}));
    EXPECT_EQ(v[size_t(updated)], (dsl::RefValues{0, 1, 2, -1, 4, 5, 6, -2, 8, 9, 10, -3}));
}

TEST(LowerSlices, StridedSlicesAreReadOnlyByMatmul) {
    EXPECT_EQ(dsl_test::error_of([] {
                  lower(kHeader +
                        "x = pypo.input('x', shape=(4, 8))\n"
                        "pypo.output('y', pypo.op.relu(x[:, 0:4]))\n");
              }),
              "t.pto:3:18: error: relu of 'slice_1', a strided slice, is not lowered yet: a slice that is not one run "
              "of its tensor's bytes is read only by matmul\n"
              "pypo.output('y', pypo.op.relu(x[:, 0:4]))\n"
              "                 ^\n");
    EXPECT_EQ(dsl_test::error_of([] {
                  lower(kHeader +
                        "x = pypo.input('x', shape=(4, 8))\n"
                        "pypo.output('y', x[:, 0:4])\n");
              }),
              "t.pto:3:18: error: output 'y' is a strided slice, which is not lowered yet: a slice that is not one "
              "run of its tensor's bytes is read only by matmul\n"
              "pypo.output('y', x[:, 0:4])\n"
              "                 ^\n");
    EXPECT_EQ(dsl_test::error_of([] {
                  lower(kHeader +
                        "a = pypo.input('a', shape=(8, 8))\n"
                        "b = pypo.input('b', shape=(8, 16))\n"
                        "pypo.output('y', pypo.op.matmul(a, b[:, ::2]))\n");
              }),
              "t.pto:4:18: error: matmul of 'slice_1', a strided slice, is not lowered yet with a step along its "
              "last axis\n"
              "pypo.output('y', pypo.op.matmul(a, b[:, ::2]))\n"
              "                 ^\n");
}

}  // namespace
