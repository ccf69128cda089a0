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

using namespace clitest;

namespace {

arch::Program compiled(const std::string& args, const std::string& name) {
    const std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q --emit-program-json '" + json + "' " + args);
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    // The file's format version is the driver's (sim/cli/driver/program_file.h).
    nlohmann::json j = nlohmann::json::parse(slurp(json));
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

}  // namespace
