#include "tests/dsl/ops_test_util.h"

using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

namespace {

const std::vector<std::string> kX{input("x", "(2, 3, 4)")};

}  // namespace

TEST(OpsReduce, OneAxis) {
    dsl::TaskGraph g = run(kX, "pypo.op.reduce_sum(x, axis=1)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::ReduceSum);
    EXPECT_EQ(g.ops[0].attrs.at("axis").ints, (std::vector<int64_t>{1}));
    EXPECT_FALSE(g.ops[0].attrs.at("keepdims").b);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{2, 4}));
    g = run(kX, "pypo.op.reduce_max(x, -1, keepdims=True)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::ReduceMax);
    EXPECT_EQ(g.ops[0].attrs.at("axis").ints, (std::vector<int64_t>{2}));
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{2, 3, 1}));
}

TEST(OpsReduce, SeveralAxesAreNormalisedAndSorted) {
    dsl::TaskGraph g = run(kX, "pypo.op.reduce_mean(x, (-1, 0), dtype='float32')");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::ReduceMean);
    EXPECT_EQ(g.ops[0].attrs.at("axis").ints, (std::vector<int64_t>{0, 2}));
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{3}));
    EXPECT_EQ(g.tensors[1].dtype, arch::DType::Float32);
    // Reducing everything leaves one element.
    EXPECT_EQ(run(kX, "pypo.op.reduce_sum(x, [0, 1, 2])").tensors[1].shape, (std::vector<int64_t>{1}));
}

TEST(OpsReduce, Errors) {
    std::string e = "pypo.op.reduce_sum(x, (1, -2))";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "-2", "reduce_sum: axis 1 is repeated"));
    e = "pypo.op.reduce_sum(x, (0, 3))";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "3)", "reduce_sum: axis 3 is out of range for x (2, 3, 4) float16"));
    e = "pypo.op.reduce_max(x)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "", "reduce_max: missing required argument 'axis'"));
    e = "pypo.op.reduce_sum(x, '1')";
    EXPECT_EQ(error(kX, e),
              diag_in(1, e, "'1'", "reduce_sum: axis must be an integer or a tuple of integers, got str"));
    e = "pypo.op.reduce_sum(x, ())";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "()", "reduce_sum: axis must name at least one axis"));
    e = "pypo.op.reduce_sum(x, 0, keepdims=1)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "1)", "reduce_sum: keepdims must be True or False, got 1"));
}

TEST(OpsReduce, ArgmaxGivesInt32IndicesAlongOneAxis) {
    dsl::TaskGraph g = run(kX, "pypo.op.argmax(x)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Argmax);
    EXPECT_EQ(g.ops[0].attrs.at("axis").i, 2);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(g.tensors[1].dtype, arch::DType::Int32);
    g = run(kX, "pypo.op.argmax(x, -3, keepdims=True)");
    EXPECT_EQ(g.ops[0].attrs.at("axis").i, 0);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 3, 4}));
    // Integers are compared as they are.
    g = run({input("q", "(5,)", "int8")}, "pypo.op.argmax(q)");
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1}));
    EXPECT_EQ(g.tensors[1].dtype, arch::DType::Int32);
}

TEST(OpsReduce, ArgmaxErrors) {
    std::string e = "pypo.op.argmax(x, (0, 1))";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "(0", "argmax: axis must be an integer, got tuple"));
    e = "pypo.op.argmax(x, 3)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "3)", "argmax: axis 3 is out of range for x (2, 3, 4) float16"));
    e = "pypo.op.argmax(x, 0, True)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "True", "argmax: takes 2 positional arguments but 3 were given"));
}
