// Block dependencies narrowed to the DDR bytes each block uses
// (docs/timing-model.md §10, "Block dependencies"): an element-wise
// operation over rows split like its producer's waits for the block that
// wrote its rows and no other; one that reads every row waits for all; a
// reader of an updated tensor still waits for the writers of the rows the
// update left; an update waits for the earlier blocks that read the bytes
// it overwrites.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/dsl/lower_test_util.h"
#include "tests/support/ddr_races.h"

namespace {

// The blocks of the operation whose blocks are named after `name`.
std::vector<uint32_t> blocks_of(const arch::Program& p, const std::string& name) {
    std::vector<uint32_t> out;
    for (uint32_t b = 0; b < p.blocks.size(); ++b)
        if (p.blocks[b].name.rfind(name + "[", 0) == 0) out.push_back(b);
    return out;
}

TEST(BlockDependencies, RowsWaitForTheBlockThatWroteThem) {
    const arch::Program p = lower_test::lower(
        "import pypto as pypo\n"
        "pypo.config.FUSION = False\n"
        "a = pypo.input('a', shape=(512, 256))\n"
        "b = pypo.op.relu(a)\n"
        "c = pypo.op.sigmoid(b)\n"
        "pypo.output('c', c)\n");
    const std::vector<uint32_t> relu = blocks_of(p, "relu_1"), sigmoid = blocks_of(p, "c");
    ASSERT_GT(relu.size(), 1u);
    ASSERT_EQ(sigmoid.size(), relu.size());
    for (size_t k = 0; k < sigmoid.size(); ++k)
        EXPECT_EQ(p.blocks[sigmoid[k]].deps, std::vector<uint32_t>{relu[k]}) << p.blocks[sigmoid[k]].name;
}

TEST(BlockDependencies, AReductionOverColumnsWaitsForEveryRow) {
    const arch::Program p = lower_test::lower(
        "import pypto as pypo\n"
        "pypo.config.FUSION = False\n"
        "a = pypo.input('a', shape=(512, 256))\n"
        "b = pypo.op.relu(a)\n"
        "c = pypo.op.reduce_sum(b, axis=0)\n"
        "pypo.output('c', c)\n");
    // Each block of the reduction reads a band of columns of every row.
    const std::vector<uint32_t> relu = blocks_of(p, "relu_1"), sum = blocks_of(p, "c");
    ASSERT_GT(relu.size(), 1u);
    ASSERT_FALSE(sum.empty());
    for (uint32_t b : sum) EXPECT_EQ(p.blocks[b].deps, relu) << p.blocks[b].name;
}

// An update writes only its slice: the readers of the new version still
// wait (through it) for the blocks that wrote the other rows, and the
// update waits for the block whose rows it overwrites.
TEST(BlockDependencies, AnUpdatedTensorsOtherRowsAreStillWaitedFor) {
    const arch::Program p = lower_test::lower(
        "import pypto as pypo\n"
        "pypo.config.FUSION = False\n"
        "a = pypo.input('a', shape=(512, 256))\n"
        "v = pypo.input('v', shape=(16, 256))\n"
        "b = pypo.op.relu(a)\n"
        "b[0:16] = v\n"
        "c = pypo.op.sigmoid(b)\n"
        "pypo.output('c', c)\n");
    ASSERT_GT(blocks_of(p, "relu_1").size(), 1u);
    EXPECT_EQ(testraces::first_ddr_race(p), "");
}

// A second update of rows apart from the first's does not wait for the
// first's blocks, so it waits itself for the earlier blocks that read the
// rows it overwrites, whichever version they read: here the sigmoid's block
// of rows 0 to 128 (the sigmoid read the first version).
TEST(BlockDependencies, ASecondUpdateWaitsForTheReadersOfTheFirstVersion) {
    const arch::Program p = lower_test::lower(
        "import pypto as pypo\n"
        "pypo.config.FUSION = False\n"
        "b = pypo.input('b', shape=(512, 256))\n"
        "v = pypo.input('v', shape=(16, 256))\n"
        "w = pypo.input('w', shape=(16, 256))\n"
        "c = pypo.op.sigmoid(b)\n"
        "b[0:16] = v\n"
        "b[32:48] = w\n"
        "pypo.output('c', c)\n");
    const std::vector<uint32_t> sigmoid = blocks_of(p, "c");
    ASSERT_GT(sigmoid.size(), 1u);
    ASSERT_EQ(p.blocks.back().name, "b[32:48, :][0:1]");
    EXPECT_EQ(p.blocks.back().deps, std::vector<uint32_t>{sigmoid.front()});
    EXPECT_EQ(testraces::first_ddr_race(p), "");
}

}  // namespace
