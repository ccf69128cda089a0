// The streamed vector pipeline on vector units with their own Unified
// Buffers (vector.buffer_kib, docs/timing-model.md §2 and §10): each unit
// runs its own chunks, loading them with its own load engine into its UB
// and storing them with its own store engine; on-chip tensors a vector
// operation touches and fused epilogues go through DDR instead, each said
// in a note, but for the tensors vector-unit operations alone use, which
// stay in the units' buffers in bands of rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

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

// docs/timing-model.md §10, "Tensors kept in the Unified Buffers": the
// first row maximum is read outside the group that writes it (the second
// reduction's group), by vector units alone, so it stays in their buffers.
// 128 rows over 4 clusters of 2 units: bands of 32 rows a cluster, 16 a
// unit; every stream over it takes its rows so, one block per cluster,
// pinned, and each consumer block waits for its own cluster's producer.
TEST(LowerVectorUB, ATensorOnlyVectorUnitsUseStaysInTheirBuffers) {
    const arch::Program p = lower(
        "import pypto as pypo\n"
        "s1 = pypo.input(\"s1\", shape=(128, 64), dtype=\"float16\")\n"
        "s2 = pypo.input(\"s2\", shape=(128, 64), dtype=\"float16\")\n"
        "m1 = pypo.op.reduce_max(s1, axis=-1, keepdims=True, target='L1')\n"
        "m2 = pypo.op.reduce_max(s2, axis=-1, keepdims=True, target='L1')\n"
        "m = pypo.op.maximum(m1, m2, target='L1')\n"
        "pypo.output(\"y\", pypo.op.sub(s2, m))\n",
        ub_config(192));
    ASSERT_EQ(p.notes.size(), 2u);
    EXPECT_EQ(p.notes[1],
              "tensor 'reduce_max_1' (L1) kept in the vector units' Unified Buffers, each unit holding its band of "
              "rows (1024 bytes of each UB): vector-unit operations alone write and read it");
    const arch::TensorPlacement& m1 = p.tensors[2];
    ASSERT_EQ(m1.name, "reduce_max_1");
    EXPECT_EQ(m1.ub_addr, 192 * 1024 - 1024);  // the region's top KiB: 16 rows of 2 bytes
    EXPECT_EQ(m1.role, "intermediate, in L1, kept in the vector units' Unified Buffers in bands of 16 rows");
    ASSERT_EQ(p.blocks.size(), 8u);
    for (int c = 0; c < 4; ++c) {
        const arch::Block& producer = p.blocks[size_t(c)];
        const arch::Block& consumer = p.blocks[size_t(4 + c)];
        EXPECT_EQ(producer.name, "reduce_max_1[" + std::to_string(32 * c) + ":" + std::to_string(32 * c + 32) + "]");
        EXPECT_EQ(producer.cluster, c);
        EXPECT_EQ(consumer.cluster, c);
        EXPECT_EQ(consumer.deps, (std::vector<uint32_t>{uint32_t(c)}));
        // No store of the maximum: it is computed where it is kept, unit
        // u's 16 rows at the same UB address in each unit.
        for (const arch::Stream& st : producer.streams) EXPECT_NE(st.engine.kind, EngineKind::VectorStore);
        for (int u = 0; u < 2; ++u) {
            const arch::Stream& v = stream(producer, "vector" + std::to_string(u));
            ASSERT_EQ(v.commands.size(), 1u);
            EXPECT_EQ(v.commands[0].vec.rows, 16u);
            EXPECT_EQ(v.commands[0].vec.dst, uint64_t(m1.ub_addr));
            // The consumer reads it there, loading s2 alone.
            const arch::Stream& in = stream(consumer, "vector" + std::to_string(u) + ".load");
            ASSERT_EQ(in.commands.size(), 1u);
            EXPECT_EQ(in.commands[0].dma.src_addr, p.tensors[1].ddr_addr + uint64_t(32 * c + 16 * u) * 128);
        }
    }
}

// A band that does not fit the buffer leaves the tensor in DDR, said why.
TEST(LowerVectorUB, ATensorWhoseBandDoesNotFitStaysInDdr) {
    const arch::Program p = lower(
        "import pypto as pypo\n"
        "a = pypo.input(\"a\", shape=(4096, 512), dtype=\"float16\")\n"
        "e = pypo.op.exp(a, target='L1')\n"
        "pypo.output(\"m\", pypo.op.reduce_max(e, axis=-1, keepdims=True))\n",
        ub_config(64));
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_EQ(p.notes[0],
              "tensor 'exp_1' (L1) kept in DDR: a vector unit's band of its rows needs 524288 bytes, of the 64512 "
              "that tensors may take of the unit's 65536 (the last KiB is the streams')");
    EXPECT_EQ(p.tensors[1].ub_addr, -1);
}

// A reader whose lowering cannot take a kept tensor row by row (softmax
// reads its input at one address for every chunk; a reduction over
// separated axes goes through DDR in stages) leaves it in DDR, said why.
TEST(LowerVectorUB, AReaderThatCannotFollowTheBandsLeavesTheTensorInDdr) {
    const arch::Program softmax = lower(
        "import pypto as pypo\n"
        "a = pypo.input(\"a\", shape=(256, 256), dtype=\"float16\")\n"
        "c = pypo.op.exp(a, target='L1')\n"
        "pypo.output(\"d\", pypo.op.softmax(c, axis=-1))\n",
        ub_config(192));
    ASSERT_EQ(softmax.notes.size(), 1u);
    EXPECT_EQ(softmax.notes[0],
              "tensor 'exp_1' (L1) kept in DDR: 'd' reads it by a lowering that takes it at one address for every "
              "chunk, not row by row");
    const arch::Program stages = lower(
        "import pypto as pypo\n"
        "a = pypo.input(\"a\", shape=(4, 8, 16), dtype=\"float16\")\n"
        "e = pypo.op.exp(a, target='L1')\n"
        "pypo.output(\"s\", pypo.op.reduce_sum(e, axis=(0, 2)))\n",
        ub_config(192));
    ASSERT_EQ(stages.notes.size(), 1u);
    EXPECT_EQ(stages.notes[0],
              "tensor 'exp_1' (L1) kept in DDR: reduce_sum 's' reduces separated axes, in stages through DDR");
}

}  // namespace

// Two query blocks' statistics (timing model §10, "Strands"): each block's
// kept tensors, its scores' matmul and the streams over them are one
// strand; the two read nothing of each other's, so each takes 2 of the 4
// clusters, its kept tensors in bands of 32 rows a cluster (16 a unit)
// there, its matmul's blocks in turn on them.
const char* const kTwoQueryBlocks =
    "import pypto as pypo\n"
    "w = pypo.input(\"w\", shape=(64, 64), dtype=\"float16\")\n"
    "for k in range(2):\n"
    "    a = pypo.input(\"a\" + str(k), shape=(64, 64), dtype=\"float16\")\n"
    "    b = pypo.input(\"b\" + str(k), shape=(64, 64), dtype=\"float16\") if k == 0 else y\n"
    "    m1 = pypo.op.reduce_max(pypo.op.matmul(a, w), axis=-1, keepdims=True, target='L1')\n"
    "    m2 = pypo.op.reduce_max(b, axis=-1, keepdims=True, target='L1')\n"
    "    y = pypo.op.sub(b, pypo.op.maximum(m1, m2, target='L1'))\n"
    "    pypo.output(\"y\" + str(k), y)\n";

std::map<std::string, std::vector<int32_t>> clusters_by_op(const arch::Program& p) {
    std::map<std::string, std::vector<int32_t>> by;
    for (const arch::Block& b : p.blocks) by[b.name.substr(0, b.name.find('['))].push_back(b.cluster);
    return by;
}

// Each kept tensor's UB address, by name.
std::map<std::string, int64_t> ub_addresses(const arch::Program& p) {
    std::map<std::string, int64_t> ub;
    for (const arch::TensorPlacement& t : p.tensors)
        if (t.ub_addr >= 0) ub[t.name] = t.ub_addr;
    return ub;
}

TEST(LowerVectorUB, IndependentStrandsShareTheClusters) {
    std::string independent = kTwoQueryBlocks;
    independent.replace(independent.find(" if k == 0 else y"), 17, "");
    const arch::Program p = lower(independent, ub_config(192));
    const auto by = clusters_by_op(p);
    EXPECT_EQ(by.at("matmul_1"), (std::vector<int32_t>{0, 1, 0, 1}));
    EXPECT_EQ(by.at("reduce_max_1"), (std::vector<int32_t>{0, 1}));
    EXPECT_EQ(by.at("y0"), (std::vector<int32_t>{0, 1}));
    EXPECT_EQ(by.at("matmul_2"), (std::vector<int32_t>{2, 3, 2, 3}));
    EXPECT_EQ(by.at("reduce_max_3"), (std::vector<int32_t>{2, 3}));
    EXPECT_EQ(by.at("y1"), (std::vector<int32_t>{2, 3}));
    for (const arch::TensorPlacement& t : p.tensors) {
        if (t.ub_addr >= 0) {
            EXPECT_NE(t.role.find("in bands of 16 rows"), std::string::npos) << t.name;
        }
    }
}

// More strands than clusters: one cluster each, in turn (the fifth on
// cluster 0 again, after the first, as a kernel's waves).
TEST(LowerVectorUB, StrandsBeyondTheClustersTakeThemInTurn) {
    std::string five = kTwoQueryBlocks;
    five.replace(five.find(" if k == 0 else y"), 17, "");
    five.replace(five.find("range(2)"), 8, "range(5)");
    const auto by = clusters_by_op(lower(five, ub_config(192)));
    EXPECT_EQ(by.at("reduce_max_1"), (std::vector<int32_t>{0}));
    EXPECT_EQ(by.at("reduce_max_7"), (std::vector<int32_t>{3}));
    EXPECT_EQ(by.at("reduce_max_9"), (std::vector<int32_t>{0}));
    EXPECT_EQ(by.at("matmul_5"), (std::vector<int32_t>{0, 0, 0, 0}));
}

// Two strands whose steps interleave: their running maxima are live at
// the same time, on other clusters, so they may take the same bytes.
TEST(LowerVectorUB, StrandsOnOtherClustersShareTheBufferBytes) {
    const arch::Program p = lower(
        "import pypto as pypo\n"
        "ms = []\n"
        "for k in range(2):\n"
        "    s = pypo.input(\"s\" + str(k), shape=(64, 64), dtype=\"float16\")\n"
        "    ms.append(pypo.op.reduce_max(s, axis=-1, keepdims=True, target='L1'))\n"
        "for t in range(1, 3):\n"
        "    for k in range(2):\n"
        "        s = pypo.input(\"s\" + str(k) + \"_\" + str(t), shape=(64, 64), dtype=\"float16\")\n"
        "        m = pypo.op.reduce_max(s, axis=-1, keepdims=True, target='L1')\n"
        "        ms[k] = pypo.op.maximum(ms[k], m, target='L1')\n"
        "for k in range(2):\n"
        "    x = pypo.input(\"x\" + str(k), shape=(64, 64), dtype=\"float16\")\n"
        "    pypo.output(\"y\" + str(k), pypo.op.sub(x, ms[k]))\n",
        ub_config(192));
    std::map<std::string, int64_t> ub = ub_addresses(p);
    ASSERT_EQ(ub.size(), 4u);
    EXPECT_EQ(ub["reduce_max_1"], ub["reduce_max_2"]);
    EXPECT_EQ(ub["maximum_1"], ub["maximum_2"]);
    const auto by = clusters_by_op(p);
    EXPECT_EQ(by.at("reduce_max_1"), (std::vector<int32_t>{0, 1}));
    EXPECT_EQ(by.at("reduce_max_2"), (std::vector<int32_t>{2, 3}));
}

// The second block's statistics read the first's result: one strand
// depends on the other, so both keep every cluster (bands of 8 rows), and
// the matmuls are left to the dispatcher.
TEST(LowerVectorUB, StrandsThatDependOnOneAnotherKeepEveryCluster) {
    const arch::Program p = lower(kTwoQueryBlocks, ub_config(192));
    const auto by = clusters_by_op(p);
    EXPECT_EQ(by.at("reduce_max_1"), (std::vector<int32_t>{0, 1, 2, 3}));
    EXPECT_EQ(by.at("reduce_max_3"), (std::vector<int32_t>{0, 1, 2, 3}));
    for (int32_t c : by.at("matmul_2")) EXPECT_EQ(c, arch::Block::kAnyCluster);
    for (const arch::TensorPlacement& t : p.tensors) {
        if (t.ub_addr >= 0) {
            EXPECT_NE(t.role.find("in bands of 8 rows"), std::string::npos) << t.name;
        }
    }
}

// Flash attention's steps (timing model §10, "Placement"): each step's
// rescaling factor takes other bytes than the last step's, which the last
// step's output update reads after the matmul it waits for, so the next
// step's statistics need not wait for that update. First fit would put
// each factor where the last one was (freed by the update): the
// statistics' blocks would wait for the update's.
TEST(LowerVectorUB, AStepsResultsTakeOtherBytesThanTheLastSteps) {
    const arch::Program p = lower(
        "import pypto as pypo\n"
        "q = pypo.input(\"q\", shape=(64, 64), dtype=\"float16\")\n"
        "kt = pypo.input(\"kt\", shape=(64, 256), dtype=\"float16\")\n"
        "v = pypo.input(\"v\", shape=(256, 64), dtype=\"float16\")\n"
        "for j in range(0, 256, 64):\n"
        "    s = pypo.op.matmul(q, kt[:, j:j + 64], target='L1')\n"
        "    m_block = pypo.op.reduce_max(s, axis=-1, keepdims=True, target='L1')\n"
        "    if j == 0:\n"
        "        m = m_block\n"
        "        o = pypo.op.matmul(pypo.op.exp(pypo.op.sub(s, m, target='L1'), target='L1'), v[j:j + 64], "
        "target='L1')\n"
        "    else:\n"
        "        m_new = pypo.op.maximum(m, m_block, target='L1')\n"
        "        rescale = pypo.op.exp(pypo.op.sub(m, m_new, target='L1'), target='L1')\n"
        "        p = pypo.op.exp(pypo.op.sub(s, m_new, target='L1'), target='L1')\n"
        "        o = pypo.op.add(pypo.op.mul(o, rescale, target='L1'), pypo.op.matmul(p, v[j:j + 64], "
        "target='L1'), target='L1')\n"
        "        m = m_new\n"
        "pypo.output(\"out\", pypo.op.relu(o))\n",
        ub_config(192));
    std::map<std::string, int64_t> ub = ub_addresses(p);
    // The three steps' rescaling factors, each read by its step's update.
    ASSERT_EQ(ub.count("exp_2") + ub.count("exp_4") + ub.count("exp_6"), 3u);
    EXPECT_NE(ub["exp_2"], ub["exp_4"]);
    EXPECT_NE(ub["exp_4"], ub["exp_6"]);
    // Step 2's statistics (exp_5's row group) and step 3's (exp_7's) wait
    // for the last step's statistics and their scores, not its update.
    std::map<std::string, std::vector<uint32_t>> first_deps;
    std::vector<std::string> name_of;
    for (const arch::Block& b : p.blocks) {
        name_of.push_back(b.name);
        first_deps.emplace(b.name.substr(0, b.name.find('[')), b.deps);
    }
    for (const char* stats : {"exp_5", "exp_7"})
        for (uint32_t d : first_deps.at(stats))
            EXPECT_EQ(name_of[d].rfind("mul_", 0), std::string::npos) << stats << " waits for " << name_of[d];
}
