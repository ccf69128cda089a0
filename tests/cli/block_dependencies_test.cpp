// The compiler's block dependencies (docs/timing-model.md §10, "Block
// dependencies"): narrowed to the DDR bytes each block uses, they still
// order every two blocks that touch a DDR byte one of them writes
// (tests/support/ddr_races.h), for every checked program on the documents'
// machine and on the Ascend 910B2 preset (vector cores of their own,
// everything through the L2). (tests/dsl/lower/block_dependencies_test.cpp
// shows which blocks a consumer waits for.)
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "checked_programs.h"
#include "cli_util.h"
#include "sim/arch/program_json.h"
#include "tests/support/ddr_races.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

arch::Program compiled(const std::string& args, const std::string& name) {
    const std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q --emit-program-json '" + json + "' " + args);
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    // The file's format version is the driver's (sim/cli/driver/program_file.h).
    nlohmann::json j = testjson::parse(slurp(json));
    j.erase("schema_version");
    return arch::program_from_json(j, json);
}

class OrderedInDdr : public testing::TestWithParam<std::string> {};

TEST_P(OrderedInDdr, OnTheDocumentsMachine) {
    const arch::Program p = compiled(extra_args(GetParam()) + GetParam(), "documents");
    ASSERT_FALSE(p.blocks.empty());
    EXPECT_EQ(testraces::first_ddr_race(p), "");
}

TEST_P(OrderedInDdr, OnTheAscendPreset) {
    const arch::Program p =
        compiled("--config configs/ascend_910b2.json " + extra_args(GetParam()) + GetParam(), "ascend");
    ASSERT_FALSE(p.blocks.empty());
    EXPECT_EQ(testraces::first_ddr_race(p), "");
}

INSTANTIATE_TEST_SUITE_P(Programs, OrderedInDdr, testing::ValuesIn(checked_programs()), test_name);

// The checker finds a race: two blocks writing the same bytes, unordered,
// and not once the second waits for the first.
TEST(OrderedInDdr, TheCheckerSeesAMissingDependency) {
    arch::Program p;
    for (int b = 0; b < 2; ++b) {
        arch::Block block;
        block.name = "b" + std::to_string(b);
        arch::Command c;
        c.dma.src = arch::Space::L1, c.dma.dst = arch::Space::DDR;
        c.dma.rows = 2, c.dma.row_bytes = 64, c.dma.dst_addr = 4096 + 32 * uint64_t(b), c.dma.dst_stride = 256;
        block.streams.push_back({arch::EngineId{arch::EngineKind::ClusterDma, 0}, {c}});
        p.blocks.push_back(block);
    }
    EXPECT_EQ(testraces::first_ddr_race(p),
              "blocks 0 ('b0') and 1 ('b1') both touch DDR bytes from 4128, block 1 writing them, and neither "
              "waits for the other");
    p.blocks[1].deps = {0};
    EXPECT_EQ(testraces::first_ddr_race(p), "");
    p.blocks[1].deps.clear();
    p.blocks[1].drain = 1;
    EXPECT_EQ(testraces::first_ddr_race(p), "");
}

// The same for the bytes of a tensor kept in the vector units' Unified
// Buffers: the second block reads on its cluster's vector1 what the first
// wrote there; on another cluster, or another unit, they are other bytes.
TEST(OrderedInDdr, TheCheckerSeesAMissingDependencyInKeptUnifiedBufferBytes) {
    arch::Program p;
    arch::TensorPlacement kept;
    kept.name = "m", kept.ub_addr = 4096;
    p.tensors.push_back(kept);
    for (int b = 0; b < 2; ++b) {
        arch::Block block;
        block.name = "b" + std::to_string(b);
        block.cluster = 3;
        arch::Command c;
        c.op = arch::Opcode::Vector;
        c.vec.op = arch::VectorOp::Relu;
        c.vec.rows = 1, c.vec.cols = 16;
        c.vec.src0 = b == 0 ? 0 : 4096 + 8, c.vec.dst = b == 0 ? 4096 : 0;
        block.streams.push_back({arch::EngineId{arch::EngineKind::Vector, 1}, {c}});
        p.blocks.push_back(block);
    }
    EXPECT_EQ(testraces::first_ddr_race(p),
              "blocks 0 ('b0') and 1 ('b1') both touch kept UB bytes of cluster 3's vector1 from 4104, block 0 "
              "writing them, and neither waits for the other");
    p.blocks[1].cluster = 2;
    EXPECT_EQ(testraces::first_ddr_race(p), "");
    p.blocks[1].cluster = 3;
    p.blocks[1].deps = {0};
    EXPECT_EQ(testraces::first_ddr_race(p), "");
    p.blocks[1].deps.clear();
    p.blocks[1].cluster = arch::Block::kAnyCluster;
    EXPECT_EQ(testraces::first_ddr_race(p), "block 1 ('b1') touches kept UB bytes on no cluster of its own");
}

// A strand's DDR workspace (timing model §10, "Workspace"): a result that
// takes a buffer waits for every earlier user of the bytes it writes, not
// only the last holder's, where a holder in between did not write them
// all: one whose source operation's results differ in size (the sixth
// step's keys are 40 columns), or one computed inside a fusion group and
// not stored (the seventh step's row maximum, which nothing else reads).
const char* const kWorkspaceConfig =
    R"({"cluster": {"vector_units": 2, "dma_engines": 2}, "vector": {"buffer_kib": 192}})";

void expect_ordered_with_a_workspace(const std::string& name, const std::string& source) {
    const std::string program = write_file(name + ".pto", source);
    const std::string config = write_file("workspace_races.json", kWorkspaceConfig);
    const arch::Program p = compiled("--config '" + config + "' '" + program + "'", name);
    size_t shared = 0;
    for (const arch::TensorPlacement& t : p.tensors) shared += t.role.find("strand's workspace") != std::string::npos;
    EXPECT_GT(shared, 0u);
    EXPECT_EQ(testraces::first_ddr_race(p), "");
}

TEST(OrderedInDdr, AWorkspaceBufferWhoseHoldersDifferInSize) {
    expect_ordered_with_a_workspace("workspace_sizes",
                                    "import pypto as pypo\n"
                                    "q = pypo.input(\"q\", shape=(64, 64), dtype=\"float16\")\n"
                                    "outs = []\n"
                                    "for j in range(12):\n"
                                    "    n = 40 if j == 5 else 64\n"
                                    "    k = pypo.input(\"k\" + str(j), shape=(64, n), dtype=\"float16\")\n"
                                    "    s = pypo.op.matmul(q, k)\n"
                                    "    e = pypo.op.exp(s)\n"
                                    "    outs.append(pypo.op.reduce_sum(e, axis=-1, keepdims=True))\n"
                                    "    mj = pypo.op.reduce_max(s, axis=-1, keepdims=True, target='L1')\n"
                                    "    m = mj if j == 0 else pypo.op.maximum(m, mj, target='L1')\n"
                                    "pypo.output(\"y\", pypo.op.sub(q, m))\n"
                                    "pypo.output(\"z\", pypo.op.concat(outs, axis=-1))\n");
}

TEST(OrderedInDdr, AWorkspaceBufferWithAHolderNeverStored) {
    expect_ordered_with_a_workspace("workspace_unstored",
                                    "import pypto as pypo\n"
                                    "q = pypo.input(\"q\", shape=(64, 64), dtype=\"float16\")\n"
                                    "extra = []\n"
                                    "for j in range(12):\n"
                                    "    k = pypo.input(\"k\" + str(j), shape=(64, 64), dtype=\"float16\")\n"
                                    "    s = pypo.op.matmul(q, k)\n"
                                    "    mj = pypo.op.reduce_max(s, axis=-1, keepdims=True, target='L1')\n"
                                    "    m = mj if j == 0 else pypo.op.maximum(m, mj, target='L1')\n"
                                    "    if j != 6:\n"
                                    "        extra.append(pypo.op.concat([mj, mj], axis=-1))\n"
                                    "pypo.output(\"y\", pypo.op.sub(q, m))\n"
                                    "pypo.output(\"z\", pypo.op.concat(extra, axis=-1))\n");
}

}  // namespace
