// A strand's workspace in DDR (dsl/lower/ddr_workspace.h, timing model
// §10 "Workspace"): the results of one operation of a loop body, step after
// step, take five buffers in turn; a writer waits for the blocks that used
// its bytes last; strands keep their own buffers.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;

arch::Config separate_vector_cores() {
    return config(R"({"cluster": {"vector_units": 2, "dma_engines": 2}, "vector": {"buffer_kib": 192}})");
}

// Query blocks (strands) of 8 steps: each step's scores are a matmul's
// result in DDR, read by a row maximum whose running value is kept in the
// Unified Buffers.
std::string steps(int blocks) {
    return "import pypto as pypo\n"
           "for b in range(" +
           std::to_string(blocks) +
           "):\n"
           "    q = pypo.input(\"q\" + str(b), shape=(64, 64), dtype=\"float16\")\n"
           "    for j in range(8):\n"
           "        k = pypo.input(\"k\" + str(b) + str(j), shape=(64, 64), dtype=\"float16\")\n"
           "        s = pypo.op.matmul(q, k)\n"
           "        mj = pypo.op.reduce_max(s, axis=-1, keepdims=True, target='L1')\n"
           "        m = mj if j == 0 else pypo.op.maximum(m, mj, target='L1')\n"
           "    pypo.output(\"y\" + str(b), pypo.op.sub(q, m))\n";
}

std::map<std::string, const arch::TensorPlacement*> by_name(const arch::Program& p) {
    std::map<std::string, const arch::TensorPlacement*> t;
    for (const arch::TensorPlacement& x : p.tensors) t[x.name] = &x;
    return t;
}

TEST(DdrWorkspace, ALoopsResultsTakeFiveBuffersInTurn) {
    const arch::Program p = lower(steps(1), separate_vector_cores());
    auto t = by_name(p);
    std::set<uint64_t> first_five;
    for (int j = 1; j <= 5; ++j) first_five.insert(t.at("matmul_" + std::to_string(j))->ddr_addr);
    EXPECT_EQ(first_five.size(), 5u);
    EXPECT_EQ(t.at("matmul_6")->ddr_addr, t.at("matmul_1")->ddr_addr);
    EXPECT_EQ(t.at("matmul_7")->ddr_addr, t.at("matmul_2")->ddr_addr);
    EXPECT_EQ(t.at("matmul_8")->ddr_addr, t.at("matmul_3")->ddr_addr);
    EXPECT_EQ(t.at("matmul_6")->role, "intermediate, in its strand's workspace: the bytes of matmul_1");
    EXPECT_EQ(t.at("matmul_5")->role, "intermediate");
    // The program's input and output keep bytes of their own.
    EXPECT_EQ(t.at("y0")->role, "output");
    // The functional run reads matmul_1 as it was after the block that
    // completed it; the last holder too (nothing rewrites it).
    ASSERT_EQ(p.complete_after_block.size(), p.tensors.size());
    for (const std::string name : {"matmul_1", "matmul_8"}) {
        const size_t i = size_t(t.at(name) - p.tensors.data());
        ASSERT_GE(p.complete_after_block[i], 0) << name;
        EXPECT_EQ(p.blocks[size_t(p.complete_after_block[i])].name.rfind(name + "[", 0), 0u) << name;
    }
    EXPECT_EQ(p.complete_after_block[size_t(t.at("q0") - p.tensors.data())], -1);
    // A row maximum computed inside its fusion group (with the running
    // maximum) is never stored: its bytes hold nothing of it.
    EXPECT_EQ(t.at("reduce_max_7")->role, "intermediate, in its strand's workspace: the bytes of reduce_max_2");
    EXPECT_EQ(p.complete_after_block[size_t(t.at("reduce_max_7") - p.tensors.data())], arch::Program::kNotWritten);
}

// matmul_6 writes matmul_1's bytes: its blocks wait for the blocks that
// read them (reduce_max_1, the first step's row maximum).
TEST(DdrWorkspace, AWriterWaitsForTheLastHoldersReaders) {
    const arch::Program p = lower(steps(1), separate_vector_cores());
    std::set<std::string> waited;
    for (const arch::Block& b : p.blocks) {
        if (b.name.rfind("matmul_6[", 0) != 0) continue;
        for (uint32_t d : b.deps) waited.insert(p.blocks[d].name.substr(0, p.blocks[d].name.find('[')));
    }
    EXPECT_EQ(waited.count("reduce_max_1"), 1u);
}

// Two independent query blocks run at once on their own clusters: each
// keeps its own buffers (the second's sixth scores take its first's bytes,
// not the first block's).
TEST(DdrWorkspace, StrandsKeepTheirOwnBuffers) {
    const arch::Program p = lower(steps(2), separate_vector_cores());
    auto t = by_name(p);
    EXPECT_EQ(t.at("matmul_14")->ddr_addr, t.at("matmul_9")->ddr_addr);
    EXPECT_EQ(t.at("matmul_14")->role, "intermediate, in its strand's workspace: the bytes of matmul_9");
    for (int j = 9; j <= 16; ++j)
        for (int i = 1; i <= 8; ++i)
            EXPECT_NE(t.at("matmul_" + std::to_string(j))->ddr_addr, t.at("matmul_" + std::to_string(i))->ddr_addr);
}

// Without Unified Buffers of their own there are no strands, and every
// intermediate keeps its bytes.
TEST(DdrWorkspace, NoStrandsNoWorkspace) {
    const arch::Program p = lower(steps(1));
    EXPECT_TRUE(p.complete_after_block.empty());
    for (const arch::TensorPlacement& x : p.tensors) EXPECT_EQ(x.role.find("workspace"), std::string::npos) << x.name;
}

// pypo.config.WORKSPACE_BUFFERS sets the buffers an operation's results
// take in turn (2: the third step's scores take the first's bytes); 0
// gives every intermediate bytes of its own.
TEST(DdrWorkspace, TheProgramSetsHowManyBuffers) {
    std::string two = steps(1);
    two.insert(two.find('\n') + 1, "pypo.config.WORKSPACE_BUFFERS = 2\n");
    const arch::Program p = lower(two, separate_vector_cores());
    auto t = by_name(p);
    EXPECT_NE(t.at("matmul_2")->ddr_addr, t.at("matmul_1")->ddr_addr);
    EXPECT_EQ(t.at("matmul_3")->ddr_addr, t.at("matmul_1")->ddr_addr);
    EXPECT_EQ(t.at("matmul_4")->ddr_addr, t.at("matmul_2")->ddr_addr);
    std::string none = steps(1);
    none.insert(none.find('\n') + 1, "pypo.config.WORKSPACE_BUFFERS = 0\n");
    const arch::Program q = lower(none, separate_vector_cores());
    EXPECT_TRUE(q.complete_after_block.empty());
    for (const arch::TensorPlacement& x : q.tensors) EXPECT_EQ(x.role.find("workspace"), std::string::npos) << x.name;
}

}  // namespace
