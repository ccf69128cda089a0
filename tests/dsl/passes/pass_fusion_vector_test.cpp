// The fusion pass's vector chains (dsl/passes/pass_fusion.h,
// docs/timing-model.md §10 "Fusion"): which operations head a chain, which
// join it, and where a chain stops.
#include <gtest/gtest.h>

#include "dsl/frontend/frontend.h"
#include "dsl/passes/pass_fusion.h"
#include "dsl/passes/pipeline.h"
#include "tests/dsl/lower_test_util.h"
#include "tests/dsl/passes/fusion_groups_util.h"

namespace {

using fusion_test::groups;

const char* kInputs =
    "x = pypo.input(\"x\", shape=(2, 4, 8, 8))\n"
    "r = pypo.input(\"r\", shape=(2, 4, 8, 8))\n"
    "b = pypo.input(\"b\", shape=(8,))\n";

}  // namespace

TEST(PassFusionVector, ElementWiseOperationsAfterAnElementWiseHead) {
    EXPECT_EQ(groups(std::string(kInputs) + "t = pypo.op.mul(pypo.op.sigmoid(pypo.op.relu(x)), 2.0)\n"
                                            "pypo.output(\"y\", pypo.op.add(pypo.op.batch_norm(t), r))\n"),
              "fusion groups: 1\n  y: relu -> sigmoid -> mul -> batch_norm -> add  (ops 0, 1, 2, 3, 4)\n");
}

TEST(PassFusionVector, AMemberMayReadTheHeadsOwnInput) {
    EXPECT_EQ(groups(std::string(kInputs) + "pypo.output(\"y\", pypo.op.mul(x, pypo.op.sigmoid(x)))\n"),
              "fusion groups: 1\n  y: sigmoid -> mul  (ops 0, 1)\n");
}

// A tensor computed after the head is not ready when the head's chunks
// are: the add still joins relu's chain, which then runs where the add is
// (after the exp, which is left alone); an update between them stops the
// chain (it could overwrite what the head reads), and the add joins the
// exp's.
TEST(PassFusionVector, AnOperandComputedAfterTheHeadDefersTheChain) {
    EXPECT_EQ(groups(std::string(kInputs) + "t = pypo.op.relu(x)\n"
                                            "u = pypo.op.exp(r)\n"
                                            "pypo.output(\"y\", pypo.op.add(t, u))\n"),
              "fusion groups: 1\n  y: relu -> add  (ops 0, 2)\n");
    EXPECT_EQ(groups(std::string(kInputs) + "k = pypo.input(\"k\", shape=(4, 8))\n"
                                            "t = pypo.op.relu(x)\n"
                                            "k[0:2] = pypo.op.exp(k[2:4])\n"
                                            "u = pypo.op.exp(r)\n"
                                            "pypo.output(\"y\", pypo.op.add(t, u))\n"
                                            "pypo.output(\"k2\", k)\n"),
              "fusion groups: 1\n  y: exp -> add  (ops 4, 5)\n");
}

// A chain whose head reads an on-chip tensor is not deferred: the buffer
// plan frees that tensor's L1 after its last reader in program order, and
// another (u) may be placed there before the chain would run.
TEST(PassFusionVector, AChainReadingOnChipIsNotDeferred) {
    EXPECT_EQ(groups("x = pypo.input(\"x\", shape=(64, 64))\n"
                     "w = pypo.input(\"w\", shape=(64, 64))\n"
                     "h = pypo.op.mul(pypo.op.relu(x, target='L1'), 2.0)\n"
                     "p = pypo.op.matmul(pypo.op.exp(x, target='L1'), w)\n"
                     "pypo.output(\"p\", p)\n"
                     "pypo.output(\"y\", pypo.op.add(h, p))\n"),
              "");
}

// A deferred chain takes no member after an update: the chain would read
// what its head reads after the update overwrote it. The add (op 2, its
// late member) joins; the multiply after the update (op 4) does not.
TEST(PassFusionVector, ADeferredChainStopsAtAnUpdate) {
    EXPECT_EQ(groups("x = pypo.input(\"x\", shape=(64, 64))\n"
                     "w = pypo.input(\"w\", shape=(64, 64))\n"
                     "k = pypo.input(\"k\", shape=(64,))\n"
                     "h = pypo.op.relu(x)\n"
                     "p = pypo.op.matmul(w, w)\n"
                     "pypo.output(\"p\", p)\n"
                     "a = pypo.op.add(h, p)\n"
                     "x[5, :] = k\n"
                     "pypo.output(\"y\", pypo.op.mul(a, 2.0))\n"),
              "fusion groups: 1\n  add_1: relu -> add  (ops 0, 2)\n");
}

// cast and silu head and join chains; a cast changes the chain's dtype,
// and an operand of a later member must have the new one.
TEST(PassFusionVector, CastAndSiluHeadAndJoin) {
    EXPECT_EQ(groups(std::string(kInputs) +
                     "pypo.output(\"y\", pypo.op.relu(pypo.op.cast(pypo.op.relu(x), dtype=\"float32\")))\n"),
              "fusion groups: 1\n  y: relu -> cast -> relu  (ops 0, 1, 2)\n");
    EXPECT_EQ(groups(std::string(kInputs) + "pypo.output(\"y\", pypo.op.tanh(pypo.op.silu(pypo.op.exp(x))))\n"),
              "fusion groups: 1\n  y: exp -> silu -> tanh  (ops 0, 1, 2)\n");
    EXPECT_EQ(groups(std::string(kInputs) +
                     "pypo.output(\"y\", pypo.op.silu(pypo.op.cast(pypo.op.silu(x), dtype=\"float32\")))\n"),
              "fusion groups: 1\n  y: silu -> cast -> silu  (ops 0, 1, 2)\n");
    EXPECT_EQ(groups(std::string(kInputs) + "c = pypo.input(\"c\", shape=(2, 4, 8, 8), dtype=\"float32\")\n"
                                            "pypo.output(\"y\", pypo.op.relu(pypo.op.cast(c, dtype=\"float16\")))\n"),
              "fusion groups: 1\n  y: cast -> relu  (ops 0, 1)\n");
}

// After a cast to float32 a member's operands have the new dtype: one in
// float32 (c) joins; r, float16, is promoted (a cast computed after the
// head, op 2, which is left alone), and its result joins relu's chain.
TEST(PassFusionVector, AfterACastOperandsHaveTheNewDtype) {
    EXPECT_EQ(groups(std::string(kInputs) +
                     "pypo.output(\"y\", pypo.op.add(pypo.op.cast(pypo.op.relu(x), dtype=\"float32\"), r))\n"),
              "fusion groups: 1\n  y: relu -> cast -> add  (ops 0, 1, 3)\n");
    EXPECT_EQ(groups(std::string(kInputs) + "c = pypo.input(\"c\", shape=(2, 4, 8, 8), dtype=\"float32\")\n"
                                            "pypo.output(\"y\", pypo.op.add(pypo.op.cast(pypo.op.relu(x), "
                                            "dtype=\"float32\"), c))\n"),
              "fusion groups: 1\n  y: relu -> cast -> add  (ops 0, 1, 2)\n");
}

// After a head that broadcasts a bias its rows are the last axis: a
// batch_norm does not join, and heads its own chain instead.
TEST(PassFusionVector, BatchNormDoesNotJoinAfterABroadcastingHead) {
    EXPECT_EQ(
        groups(std::string(kInputs) + "pypo.output(\"y\", pypo.op.relu(pypo.op.batch_norm(pypo.op.add(x, b))))\n"),
        "fusion groups: 1\n  y: batch_norm -> relu  (ops 1, 2)\n");
}

// A pooling head takes numbers, functions and batch_norm, not a tensor operand.
TEST(PassFusionVector, PoolingHeadsTakeNoTensorOperand) {
    EXPECT_EQ(
        groups(std::string(kInputs) + "p = pypo.op.max_pool(x, window=2, stride=2)\n"
                                      "q = pypo.input(\"q\", shape=(2, 4, 4, 4))\n"
                                      "pypo.output(\"y\", pypo.op.add(pypo.op.relu(pypo.op.batch_norm(p)), q))\n"),
        "fusion groups: 1\n  relu_1: max_pool -> batch_norm -> relu  (ops 0, 1, 2)\n");
}

TEST(PassFusionVector, APrintDrainOrASecondReaderStopsTheChain) {
    EXPECT_EQ(groups(std::string(kInputs) + "t = pypo.op.relu(x)\n"
                                            "print(t)\n"
                                            "pypo.output(\"y\", pypo.op.exp(t))\n"),
              "");
    EXPECT_EQ(groups(std::string(kInputs) + "t = pypo.op.relu(x)\n"
                                            "pypo.output(\"y\", pypo.op.exp(t))\n"
                                            "pypo.output(\"z\", pypo.op.tanh(t))\n"),
              "");
}

// An element-wise operation in a cube operation's group heads no chain of
// its own; one the cube group does not take (an add broadcasting a column,
// one value per row) heads the rest; a row vector (a bias, one value per
// GEMM column) the cube group takes.
TEST(PassFusionVector, CubeGroupsComeFirst) {
    EXPECT_EQ(groups("a = pypo.input(\"a\", shape=(64, 64))\n"
                     "w = pypo.weight(\"w\", shape=(64, 64))\n"
                     "bias = pypo.input(\"bias\", shape=(64,))\n"
                     "pypo.output(\"y\", pypo.op.exp(pypo.op.relu(pypo.op.add(pypo.op.matmul(a, w), bias))))\n"),
              "fusion groups: 1\n  y: matmul -> add -> relu -> exp  (ops 0, 1, 2, 3)\n");
    EXPECT_EQ(groups("a = pypo.input(\"a\", shape=(64, 64))\n"
                     "w = pypo.weight(\"w\", shape=(64, 64))\n"
                     "bias = pypo.input(\"bias\", shape=(64, 1))\n"
                     "pypo.output(\"y\", pypo.op.exp(pypo.op.relu(pypo.op.add(pypo.op.matmul(a, w), bias))))\n"),
              "fusion groups: 1\n  y: add -> relu -> exp  (ops 1, 2, 3)\n");
    EXPECT_EQ(groups("a = pypo.input(\"a\", shape=(64, 64))\n"
                     "w = pypo.weight(\"w\", shape=(64, 64))\n"
                     "pypo.output(\"y\", pypo.op.exp(pypo.op.relu(pypo.op.matmul(a, w))))\n"),
              "fusion groups: 1\n  y: matmul -> relu -> exp  (ops 0, 1, 2)\n");
}

TEST(PassFusionVector, ConfigFusionFalseLeavesTheGraphAlone) {
    EXPECT_EQ(groups(std::string("pypo.config.FUSION = False\n") + kInputs +
                     "pypo.output(\"y\", pypo.op.exp(pypo.op.relu(x)))\n"),
              "");
}

// A head reading an on-chip tensor may stream over its parts (windows of
// rows and columns), which batch_norm's per-channel operands do not
// follow: batch_norm heads its own chain; numbers and functions join.
TEST(PassFusionVector, BatchNormDoesNotJoinAfterAHeadReadingAnOnChipTensor) {
    EXPECT_EQ(groups("x = pypo.input(\"x\", shape=(128, 256))\n"
                     "w = pypo.weight(\"w\", shape=(256, 256))\n"
                     "h = pypo.op.matmul(x, w, target='L1')\n"
                     "pypo.output(\"y\", pypo.op.exp(pypo.op.batch_norm(pypo.op.relu(h))))\n"
                     "pypo.output(\"z\", pypo.op.tanh(pypo.op.mul(pypo.op.sigmoid(h), 3.0)))\n"),
              "fusion groups: 2\n  y: batch_norm -> exp  (ops 2, 3)\n  z: sigmoid -> mul -> tanh  (ops 4, 5, 6)\n");
}

// minimum, clip and swiglu head and join vector chains; swiglu joins as a
// binary operation does, whichever of its inputs the chain computed.
TEST(PassFusionVector, MinimumClipAndSwigluHeadAndJoin) {
    EXPECT_EQ(groups(std::string(kInputs) + "t = pypo.op.clip(pypo.op.batch_norm(x), 0, 6)\n"
                                            "pypo.output(\"y\", pypo.op.minimum(t, r))\n"),
              "fusion groups: 1\n  y: batch_norm -> clip -> minimum  (ops 0, 1, 2)\n");
    EXPECT_EQ(groups(std::string(kInputs) + "pypo.output(\"y\", pypo.op.relu(pypo.op.minimum(x, 0.5)))\n"),
              "fusion groups: 1\n  y: minimum -> relu  (ops 0, 1)\n");
    EXPECT_EQ(groups(std::string(kInputs) + "pypo.output(\"y\", pypo.op.clip(pypo.op.swiglu(x, r), -1, 1))\n"),
              "fusion groups: 1\n  y: swiglu -> clip  (ops 0, 1)\n");
    EXPECT_EQ(groups(std::string(kInputs) + "pypo.output(\"y\", pypo.op.swiglu(x, pypo.op.exp(r)))\n"),
              "fusion groups: 1\n  y: exp -> swiglu  (ops 0, 1)\n");
}

// A cube epilogue takes clip, minimum and a swiglu whose gate is the tile;
// a swiglu whose gate was computed before the GEMM while the tile is up
// does not join (the epilogue would need silu of a streamed operand).
TEST(PassFusionVector, CubeEpiloguesTakeClipMinimumAndAGateSwiglu) {
    const std::string mm =
        "a = pypo.input(\"a\", shape=(32, 64))\n"
        "w = pypo.weight(\"w\", shape=(64, 48))\n"
        "v = pypo.weight(\"v\", shape=(64, 48))\n";
    EXPECT_EQ(groups(mm + "pypo.output(\"y\", pypo.op.minimum(pypo.op.clip(pypo.op.matmul(a, w), 0, 6), 1.0))\n"),
              "fusion groups: 1\n  y: matmul -> clip -> minimum  (ops 0, 1, 2)\n");
    EXPECT_EQ(groups(mm + "u = pypo.op.matmul(a, v)\n"
                          "pypo.output(\"y\", pypo.op.swiglu(pypo.op.matmul(a, w), u))\n"),
              "fusion groups: 1\n  y: matmul -> swiglu  (ops 1, 2)\n");
    EXPECT_EQ(groups(mm + "g = pypo.op.matmul(a, v)\n"
                          "pypo.output(\"y\", pypo.op.swiglu(g, pypo.op.matmul(a, w)))\n"),
              "");
}

// On-chip results (target='L1') are not grouped; on a target whose vector
// units compute in Unified Buffers of their own (TaskGraph::vector_buffers)
// the lowering keeps in DDR what they touch, and the pass groups those as
// the DDR tensors they will be, keeping the graph's placements.
TEST(PassFusionVector, OnChipResultsChainWhenTheVectorUnitsHaveTheirOwnBuffers) {
    const std::string body = std::string(kInputs) +
                             "t = pypo.op.relu(x, target='L1')\n"
                             "pypo.output(\"y\", pypo.op.exp(pypo.op.sigmoid(t, target='L1')))\n";
    dsl::TaskGraph e = dsl::elaborate_source(dsl_test::source("import pypto as pypo\n" + body));
    EXPECT_EQ(dsl::format_fusion_groups(dsl::run_graph_passes(e).graph()), "");
    e.vector_buffers = true;
    const dsl::TaskGraph passed = dsl::run_graph_passes(e).graph();
    EXPECT_EQ(dsl::format_fusion_groups(passed), "fusion groups: 1\n  y: relu -> sigmoid -> exp  (ops 0, 1, 2)\n");
    EXPECT_EQ(passed.tensors[size_t(passed.ops[0].output)].placement, dsl::Placement::L1);
}
