// The streamed vector pipeline on vector units with their own Unified
// Buffers (vector.buffer_kib, docs/timing-model.md §2 and §10): each unit
// runs its own chunks, loading them with its own load engine into its UB
// and storing them with its own store engine; on-chip tensors a vector
// operation touches and fused epilogues go through DDR instead, each said
// in a note.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;
using arch::EngineKind;
using arch::Space;

const char* const kRelu =
    "import pypto as pypo\n"
    "x = pypo.input(\"x\", shape=(1, 64, 112, 112), dtype=\"float16\")\n"
    "pypo.output(\"y\", pypo.op.relu(x))\n";

arch::Config ub_config(int kib) {
    return config(R"({"cluster": {"vector_units": 2, "dma_engines": 2}, "vector": {"buffer_kib": )" +
                  std::to_string(kib) + "}}");
}

// Rows of 224 B; a 64 KiB UB holds 2 input and 2 result slots of 73 rows
// (4 x 16,352 B) and not 74 (4 x 16,576 > 65,536): 7168 rows in 4 blocks
// of 1792, each 25 chunks of 71 or 72 rows, chunk i on unit i % 2 (13 on
// vector0, 12 on vector1).
TEST(LowerVectorUB, EachUnitStreamsItsChunksThroughItsOwnBuffer) {
    const arch::Program p = lower(kRelu, ub_config(64));
    ASSERT_EQ(p.blocks.size(), 4u);
    for (const arch::Block& b : p.blocks) {
        std::vector<std::string> engines;
        for (const arch::Stream& s : b.streams) engines.push_back(arch::engine_name(s.engine));
        EXPECT_EQ(engines, (std::vector<std::string>{"vector0.load", "vector0", "vector0.store", "vector1.load",
                                                     "vector1", "vector1.store"}));
        for (int u = 0; u < 2; ++u) {
            const std::string unit = "vector" + std::to_string(u);
            const arch::Stream& in = stream(b, unit + ".load");
            const arch::Stream& out = stream(b, unit + ".store");
            const arch::Stream& vec = stream(b, unit);
            ASSERT_EQ(in.commands.size(), vec.commands.size());
            ASSERT_EQ(out.commands.size(), vec.commands.size());
            for (const arch::Command& c : in.commands) {
                EXPECT_EQ(c.dma.src, Space::DDR);
                EXPECT_EQ(c.dma.dst, Space::UB);
                EXPECT_LE(c.dma.dst_addr + c.dma.bytes(), 64u * 1024);
            }
            for (const arch::Command& c : out.commands) EXPECT_EQ(c.dma.src, Space::UB);
        }
    }
    // Unit 1's first chunk is the block's second: rows 71.. of x.
    EXPECT_EQ(stream(p.blocks[0], "vector1.load").commands[0].dma.src_addr, p.tensors[0].ddr_addr + 71 * 224);
    EXPECT_EQ(stream(p.blocks[0], "vector0").commands.size(), 13u);
    EXPECT_EQ(stream(p.blocks[0], "vector1").commands.size(), 12u);
    EXPECT_EQ(stream(p.blocks[0], "vector0").commands[0].vec.rows, 71u);
    // The same bytes as through L1.
    const DdrBytes ub = ddr_bytes(p), l1 = ddr_bytes(lower(kRelu, config(R"({"cluster": {"vector_units": 2}})")));
    EXPECT_EQ(ub.read, l1.read);
    EXPECT_EQ(ub.written, l1.written);
}

// Each unit's pipeline has its own four flags: inputs ready, input slot
// free, result ready, result slot free.
TEST(LowerVectorUB, EachUnitHasItsOwnFlags) {
    const arch::Program p = lower(kRelu, ub_config(64));
    const arch::Block& b = p.blocks[0];
    EXPECT_EQ(b.num_flags, 8);
    EXPECT_EQ(stream(b, "vector0.load").commands[0].sets, std::vector<arch::FlagId>{0});
    EXPECT_EQ(stream(b, "vector1.load").commands[0].sets, std::vector<arch::FlagId>{4});
    EXPECT_EQ(stream(b, "vector1.load").commands[2].waits, std::vector<arch::FlagId>{5});  // slot of chunk 0 free
    EXPECT_EQ(stream(b, "vector1.store").commands[0].waits, std::vector<arch::FlagId>{6});
}

TEST(LowerVectorUB, AChunkThatDoesNotFitTheBufferIsRefused) {
    try {
        lower(
            "import pypto as pypo\n"
            "x = pypo.input(\"x\", shape=(4, 65536), dtype=\"float32\")\n"
            "pypo.output(\"y\", pypo.op.softmax(x, axis=-1))\n",
            ub_config(1));
        FAIL() << "no error";
    } catch (const dsl::CompileError& e) {
        EXPECT_NE(e.message().find("bytes of a vector unit's Unified Buffer, which has 1024"), std::string::npos)
            << e.message();
    }
}

// A matmul's fused relu cannot read the cube's tiles in L1, and a vector
// operation cannot read an on-chip tensor: both go through DDR, said in
// notes.
TEST(LowerVectorUB, FusedEpiloguesAndOnChipOperandsGoThroughDdr) {
    const arch::Program p = lower(
        "import pypto as pypo\n"
        "a = pypo.input(\"a\", shape=(256, 256), dtype=\"float16\")\n"
        "b = pypo.input(\"b\", shape=(256, 256), dtype=\"float16\")\n"
        "c = pypo.op.matmul(a, b, target='L1')\n"
        "pypo.output(\"d\", pypo.op.relu(pypo.op.matmul(c, b)))\n",
        ub_config(192));
    auto noted = [&](const std::string& text) {
        return std::any_of(p.notes.begin(), p.notes.end(),
                           [&](const std::string& n) { return n.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(
        noted("ran unfused: the vector units compute in their own Unified Buffers (vector.buffer_kib), "
              "which the cube's output tiles reach only through DDR or the L2"));
    // No block has both a cube and a vector unit at work: the relu runs
    // after its matmul, in blocks of its own.
    for (const arch::Block& b : p.blocks) {
        bool cube = false, vector = false;
        for (const arch::Stream& s : b.streams)
            cube = cube || s.engine.kind == EngineKind::Cube, vector = vector || s.engine.kind == EngineKind::Vector;
        EXPECT_FALSE(cube && vector) << b.name;
    }
    // c stays on chip: only matmuls read it.
    EXPECT_FALSE(noted("tensor 'c'"));
}

// There the vector chains are formed before the cube groups (which could
// not run fused): a relu after a matmul heads a chain with the exp after
// it, one pass of a vector unit's buffer, and the matmul has no group.
TEST(LowerVectorUB, AMatmulsEpilogueRunsAsAVectorChain) {
    const std::string text =
        "import pypto as pypo\n"
        "a = pypo.input(\"a\", shape=(256, 256), dtype=\"float16\")\n"
        "b = pypo.input(\"b\", shape=(256, 256), dtype=\"float16\")\n"
        "pypo.output(\"d\", pypo.op.exp(pypo.op.relu(pypo.op.matmul(a, b))))\n";
    const arch::Program p = lower(text, ub_config(192));
    EXPECT_TRUE(p.notes.empty()) << p.notes.front();
    ASSERT_EQ(p.ops.size(), 3u);
    EXPECT_EQ(p.ops[2].fused_into, 1);  // the exp runs with the relu
    EXPECT_EQ(p.ops[1].fused_into, -1);
    // On the same machine with the vector units in L1, the matmul runs both.
    const arch::Program l1 = lower(text);
    EXPECT_EQ(l1.ops[1].fused_into, 0);
    EXPECT_EQ(l1.ops[2].fused_into, 0);
}

TEST(LowerVectorUB, AnOnChipTensorAVectorOperationReadsIsKeptInDdr) {
    const arch::Program p = lower(
        "import pypto as pypo\n"
        "a = pypo.input(\"a\", shape=(256, 256), dtype=\"float16\")\n"
        "c = pypo.op.exp(a, target='L1')\n"
        "pypo.output(\"d\", pypo.op.relu(c))\n",
        ub_config(192));
    ASSERT_FALSE(p.notes.empty());
    EXPECT_EQ(p.notes[0],
              "tensor 'exp_1' (L1) kept in DDR: vector-unit operations read or write it, and the vector units "
              "compute in their own Unified Buffers (vector.buffer_kib), which reach on-chip tensors only through "
              "DDR or the L2");
}

}  // namespace
