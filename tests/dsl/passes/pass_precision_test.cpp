// The precision pass (dsl/passes/pass_precision.h): which casts it inserts, where,
// their names and dtypes, and that the rewritten graph stays a valid DAG.
#include <gtest/gtest.h>

#include "dsl/frontend/frontend.h"
#include "dsl/passes/pass_precision.h"
#include "tests/dsl/lower_test_util.h"

namespace {

dsl::TaskGraph precise(const std::string& text) {
    return dsl::apply_precision(dsl::elaborate_source(dsl_test::source(text)));
}

const char* kHeader = "import pypto as pypo\n";

TEST(PassPrecision, NoScopeLeavesTheGraphAlone) {
    std::string text = std::string(kHeader) +
                       "x = pypo.input(\"x\", shape=(4, 8), dtype=\"float32\")\n"
                       "y = pypo.op.softmax(pypo.op.relu(x))\n"
                       "pypo.output(\"y\", y)\n";
    dsl::TaskGraph before = dsl::elaborate_source(dsl_test::source(text));
    dsl::TaskGraph after = dsl::apply_precision(before);
    EXPECT_EQ(dsl_test::op_lines(after), dsl_test::op_lines(before));
    EXPECT_EQ(after.tensors.size(), before.tensors.size());
}

TEST(PassPrecision, MixedAttentionComputesSoftmaxInFloat32WithCastsAround) {
    dsl::TaskGraph g = precise(std::string(kHeader) +
                               "q = pypo.input(\"q\", shape=(64, 32), dtype=\"float16\")\n"
                               "k = pypo.input(\"k\", shape=(32, 64), dtype=\"float16\")\n"
                               "v = pypo.input(\"v\", shape=(64, 32), dtype=\"float16\")\n"
                               "with pypo.precision(mode='mixed'):\n"
                               "    s = pypo.op.matmul(q, k)\n"
                               "    p = pypo.op.softmax(s)\n"
                               "    o = pypo.op.matmul(p, v)\n"
                               "pypo.output(\"o\", o)\n");
    EXPECT_EQ(dsl_test::op_lines(g),
              "matmul_1 = matmul(q, k) float16\n"
              "cast_1 = cast(matmul_1) float32\n"
              "softmax_1 = softmax(cast_1) float32\n"
              "cast_2 = cast(softmax_1) float16\n"
              "o = matmul(cast_2, v) float16\n");
    EXPECT_EQ(g.ops[1].attrs.at("dtype").s, "float32");
    EXPECT_EQ(g.ops[3].attrs.at("dtype").s, "float16");
    EXPECT_EQ(g.ops[1].precision, "mixed");
    EXPECT_NO_THROW(dsl::check_dag(g));
    for (size_t i = 0; i < g.ops.size(); ++i) EXPECT_EQ(g.tensors[size_t(g.ops[i].output)].producer, int(i));
}

TEST(PassPrecision, MixedFloat32InputIsCastOnceForTwoConsumersAndOutputKeepsItsDtype) {
    dsl::TaskGraph g = precise(std::string(kHeader) +
                               "x = pypo.input(\"x\", shape=(4, 8), dtype=\"float32\")\n"
                               "with pypo.precision(mode='mixed'):\n"
                               "    a = pypo.op.relu(x)\n"
                               "    b = pypo.op.add(x, a)\n"
                               "    y = pypo.op.reduce_sum(b, axis=1)\n"
                               "pypo.output(\"y\", y)\n");
    // relu/add in float16 (x cast once), reduce_sum in float32; y was
    // declared float32, which the reduction already computes in.
    EXPECT_EQ(dsl_test::op_lines(g),
              "cast_1 = cast(x) float16\n"
              "relu_1 = relu(cast_1) float16\n"
              "add_1 = add(cast_1, relu_1) float16\n"
              "cast_2 = cast(add_1) float32\n"
              "y = reduce_sum(cast_2) float32\n");
}

TEST(PassPrecision, OutputKeepsDeclaredDtypeThroughAFinalCast) {
    dsl::TaskGraph g = precise(std::string(kHeader) +
                               "x = pypo.input(\"x\", shape=(4, 8), dtype=\"float16\")\n"
                               "with pypo.precision(mode='float32'):\n"
                               "    y = pypo.op.exp(x)\n"
                               "pypo.output(\"y\", y)\n");
    EXPECT_EQ(dsl_test::op_lines(g),
              "cast_1 = cast(x) float32\n"
              "exp_1 = exp(cast_1) float32\n"
              "y = cast(exp_1) float16\n");
    EXPECT_EQ(g.tensors[size_t(g.ops[2].output)].role, dsl::TensorRole::Output);
    EXPECT_EQ(g.tensors[size_t(g.ops[1].output)].role, dsl::TensorRole::Intermediate);
}

TEST(PassPrecision, ExplicitDtypeWinsAndViewsFollowTheirSource) {
    dsl::TaskGraph g = precise(std::string(kHeader) +
                               "x = pypo.input(\"x\", shape=(4, 8), dtype=\"float32\")\n"
                               "with pypo.precision(mode='float16'):\n"
                               "    a = pypo.op.relu(x)\n"
                               "    r = pypo.op.reshape(a, (32,))\n"
                               "    b = pypo.op.sqrt(x, dtype='float32')\n"
                               "    y = pypo.op.add(r, pypo.op.reshape(b, (32,)))\n"
                               "pypo.output(\"y\", y)\n");
    EXPECT_EQ(dsl_test::op_lines(g),
              "cast_1 = cast(x) float16\n"
              "relu_1 = relu(cast_1) float16\n"
              "reshape_1 = reshape(relu_1) float16\n"
              "sqrt_1 = sqrt(x) float32\n"
              "reshape_2 = reshape(sqrt_1) float32\n"
              "cast_2 = cast(reshape_2) float16\n"
              "add_1 = add(reshape_1, cast_2) float16\n"
              "y = cast(add_1) float32\n");
}

TEST(PassPrecision, TasksLogsAndCachesFollowTheNewNumbering) {
    dsl::TaskGraph g = precise(std::string(kHeader) +
                               "x = pypo.input(\"x\", shape=(4, 8), dtype=\"float32\")\n"
                               "@pypo.task(placement='vector')\n"
                               "def f(t):\n"
                               "    return pypo.op.relu(t)\n"
                               "with pypo.precision(mode='float16'):\n"
                               "    a = f(x)\n"
                               "    pypo.log('after f')\n"
                               "    y = pypo.op.exp(a)\n"
                               "pypo.output(\"y\", y)\n");
    ASSERT_EQ(g.tasks.size(), 1u);
    // The cast feeding relu is inserted inside the task, before relu.
    ASSERT_EQ(g.tasks[0].ops.size(), 2u);
    EXPECT_EQ(dsl::op_kind_name(g.ops[size_t(g.tasks[0].ops[0])].kind), std::string("cast"));
    EXPECT_EQ(dsl::op_kind_name(g.ops[size_t(g.tasks[0].ops[1])].kind), std::string("relu"));
    ASSERT_EQ(g.logs.size(), 1u);
    EXPECT_EQ(g.logs[0].after_op, 1);  // after relu, now op 1
}

TEST(PassPrecision, LoweringRunsThePassAndEmitsTheCasts) {
    arch::Program p = lower_test::lower(std::string(kHeader) +
                                        "x = pypo.input(\"x\", shape=(64, 64), dtype=\"float16\")\n"
                                        "with pypo.precision(mode='mixed'):\n"
                                        "    y = pypo.op.softmax(x)\n"
                                        "pypo.output(\"y\", y)\n");
    std::string kinds;
    for (const arch::ProgramOp& o : p.ops) kinds += o.name + ":" + o.kind + " ";
    EXPECT_EQ(kinds, "cast_1:cast softmax_1:softmax y:cast ");
}

}  // namespace
