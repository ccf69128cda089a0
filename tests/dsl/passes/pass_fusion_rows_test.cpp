// The fusion pass's row groups (dsl/passes/pass_fusion.h,
// docs/timing-model.md §10 "Fusion"): a row reduction and the row-wise
// operations after it that read its result, which operands they may
// read, and where a group stops.
#include <gtest/gtest.h>

#include "dsl/frontend/frontend.h"
#include "dsl/passes/pass_fusion.h"
#include "dsl/passes/pipeline.h"
#include "tests/dsl/lower_test_util.h"
#include "tests/dsl/passes/fusion_groups_util.h"

namespace {

using fusion_test::groups;

const char* kRows =
    "x = pypo.input(\"x\", shape=(64, 256))\n"
    "w = pypo.input(\"w\", shape=(256, 128))\n";

// A softmax written out of its steps: the row maximum, its broadcast
// subtraction, the exponentials, their row sum and the division, in one
// group.
TEST(PassFusionRows, ASoftmaxOutOfItsStepsIsOneGroup) {
    EXPECT_EQ(groups(std::string(kRows) + "m = pypo.op.reduce_max(x, axis=-1, keepdims=True)\n"
                                          "e = pypo.op.exp(pypo.op.sub(x, m))\n"
                                          "s = pypo.op.reduce_sum(e, axis=-1, keepdims=True)\n"
                                          "pypo.output(\"y\", pypo.op.div(e, s))\n"),
              "fusion groups: 1\n  y: reduce_max -> sub -> exp -> reduce_sum -> div  (ops 0, 1, 2, 3, 4)\n");
}

// A layer norm written out of its steps, with means and a number.
TEST(PassFusionRows, ALayerNormOutOfItsStepsIsOneGroup) {
    EXPECT_EQ(groups(std::string(kRows) + "d = pypo.op.sub(x, pypo.op.reduce_mean(x, axis=-1, keepdims=True))\n"
                                          "v = pypo.op.reduce_mean(pypo.op.mul(d, d), axis=-1, keepdims=True)\n"
                                          "pypo.output(\"y\", pypo.op.div(d, pypo.op.sqrt(pypo.op.add(v, 1e-5))))\n"),
              "fusion groups: 1\n  y: reduce_mean -> sub -> mul -> reduce_mean -> add -> sqrt -> div  "
              "(ops 0, 1, 2, 3, 4, 5, 6)\n");
}

// A flash-attention step: the second block's statistics join the first's
// (m, computed before the group's head), but not the output's rescaling,
// whose operand o is computed from the first block's probabilities
// through a matmul: a group reading it would wait for that matmul. The
// multiply is left alone.
TEST(PassFusionRows, AnOperandComputedFromAnotherOperandIsLeftOut) {
    EXPECT_EQ(groups(std::string(kRows) + "k = pypo.input(\"k\", shape=(64, 256))\n"
                                          "m = pypo.op.reduce_max(x, axis=-1, keepdims=True)\n"
                                          "p = pypo.op.exp(pypo.op.sub(x, m))\n"
                                          "o = pypo.op.matmul(p, w)\n"
                                          "m2 = pypo.op.maximum(m, pypo.op.reduce_max(k, axis=-1, keepdims=True))\n"
                                          "r = pypo.op.exp(pypo.op.sub(m, m2))\n"
                                          "pypo.output(\"o2\", pypo.op.mul(o, r))\n"
                                          "pypo.output(\"m2\", m2)\n"),
              "fusion groups: 2\n  exp_1: reduce_max -> sub -> exp  (ops 0, 1, 2)\n"
              "  exp_2: reduce_max -> maximum -> sub -> exp  (ops 4, 5, 6, 7)\n");
}

// No group: a reduction over another axis, or without keepdims; after a
// print(...) that drains, the operations run apart; an operand of another
// dtype, or of other rows, does not join.
TEST(PassFusionRows, WhereGroupsStop) {
    EXPECT_EQ(groups(std::string(kRows) + "m = pypo.op.reduce_max(x, axis=0, keepdims=True)\n"
                                          "pypo.output(\"y\", pypo.op.sub(x, m))\n"),
              "");
    EXPECT_EQ(groups(std::string(kRows) + "m = pypo.op.reduce_sum(x, axis=-1)\n"
                                          "pypo.output(\"y\", pypo.op.exp(m))\n"),
              "");
    EXPECT_EQ(groups(std::string(kRows) + "m = pypo.op.reduce_max(x, axis=-1, keepdims=True)\n"
                                          "print(m)\n"
                                          "pypo.output(\"y\", pypo.op.sub(x, m))\n"),
              "");
    EXPECT_EQ(groups(std::string(kRows) + "h = pypo.input(\"h\", shape=(64, 256), dtype=\"float32\")\n"
                                          "m = pypo.op.reduce_max(x, axis=-1, keepdims=True)\n"
                                          "pypo.output(\"y\", pypo.op.sub(h, m, dtype=\"float32\"))\n"),
              "");
    EXPECT_EQ(groups(std::string(kRows) + "m = pypo.op.reduce_max(x, axis=-1, keepdims=True)\n"
                                          "pypo.output(\"y\", pypo.op.add(pypo.op.transpose(m, perm=(1, 0)), 1.0))\n"),
              "");
}

// Without fusion (pypo.config.FUSION = False, --no-fusion) there is none.
TEST(PassFusionRows, NoFusionNoGroups) {
    EXPECT_EQ(groups(std::string("pypo.config.FUSION = False\n") + kRows +
                     "m = pypo.op.reduce_max(x, axis=-1, keepdims=True)\n"
                     "pypo.output(\"y\", pypo.op.sub(x, m))\n"),
              "");
}

}  // namespace
