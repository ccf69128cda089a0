#include "tests/dsl/ops_test_util.h"

using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

namespace {

const std::vector<std::string> kX{input("x", "(2, 3, 4)")};

}  // namespace

TEST(OpsLayout, TransposeDefaultsToSwappingTheLastTwoAxes) {
    dsl::TaskGraph g = run(kX, "pypo.op.transpose(x)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Transpose);
    EXPECT_EQ(g.ops[0].attrs.at("perm").ints, (std::vector<int64_t>{0, 2, 1}));
    EXPECT_EQ(g.ops[0].attrs.at("engine").as<dsl::Engine>(), dsl::Engine::Vector);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{2, 4, 3}));
}

TEST(OpsLayout, TransposeWithPermEngineAndLayout) {
    dsl::TaskGraph g =
        run({input("x", "(1, 64, 28, 28)")}, "pypo.op.transpose(x, (0, 2, -1, 1), engine='dma', layout='NHWC')");
    EXPECT_EQ(g.ops[0].attrs.at("perm").ints, (std::vector<int64_t>{0, 2, 3, 1}));
    EXPECT_EQ(g.ops[0].attrs.at("engine").as<dsl::Engine>(), dsl::Engine::Dma);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 28, 28, 64}));
    EXPECT_EQ(g.tensors[1].layout, "NHWC");
}

TEST(OpsLayout, TransposeErrors) {
    std::string e = "pypo.op.transpose(x, engine='cube')";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "'cube'", "transpose: engine must be 'vector' or 'dma', got 'cube'"));
    e = "pypo.op.transpose(x, perm=(1, 0))";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "(1, 0)",
                                    "transpose: perm must have one entry per axis: (1, 0) for x is (2, 3, 4) float16"));
    e = "pypo.op.transpose(x, perm=(1, 0, -2))";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "-2", "transpose: perm repeats axis 1"));
    std::vector<std::string> v{input("v", "(8,)")};
    e = "pypo.op.transpose(v)";
    EXPECT_EQ(error(v, e), diag_in(1, e, "v)", "transpose: v has no two axes to swap: (8,) float16"));
}

TEST(OpsLayout, Reshape) {
    dsl::TaskGraph g = run(kX, "pypo.op.reshape(x, (6, -1))");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Reshape);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{6, 4}));
    EXPECT_EQ(run(kX, "pypo.op.reshape(x, shape=[24])").tensors[1].shape, (std::vector<int64_t>{24}));
}

TEST(OpsLayout, ReshapeErrors) {
    std::string e = "pypo.op.reshape(x, (5, 5))";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "",
                                    "reshape: x is (2, 3, 4) float16 (24 elements), which does not fit shape (5, 5) "
                                    "(25 elements)"));
    e = "pypo.op.reshape(x, (5, -1))";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "",
                                    "reshape: x is (2, 3, 4) float16 (24 elements), which does not fit shape (5, -1) "
                                    "(a multiple of 5)"));
    e = "pypo.op.reshape(x, (-1, 4, -1))";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "-1))", "reshape: only one dimension may be -1"));
    e = "pypo.op.reshape(x, (24, 0))";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "0))", "reshape: shape[1] must be positive or -1, got 0"));
}

TEST(OpsLayout, Flatten) {
    std::vector<std::string> d{input("x", "(1, 64, 7, 7)")};
    dsl::TaskGraph g = run(d, "pypo.op.flatten(x)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Flatten);
    EXPECT_EQ(g.ops[0].attrs.at("start_axis").i, 1);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 3136}));
    g = run(d, "pypo.op.flatten(x, start_axis=-2)");
    EXPECT_EQ(g.ops[0].attrs.at("start_axis").i, 2);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 49}));
    std::string e = "pypo.op.flatten(x, 4)";
    EXPECT_EQ(error(d, e), diag_in(1, e, "4)", "flatten: axis 4 is out of range for x (1, 64, 7, 7) float16"));
    std::vector<std::string> v{input("v", "(8,)")};
    e = "pypo.op.flatten(v)";
    EXPECT_EQ(error(v, e), diag_in(1, e, "v)", "flatten: v has no axis 1 to flatten from: (8,) float16"));
}

TEST(OpsLayout, Concat) {
    std::vector<std::string> d{input("a", "(1, 32, 28, 28)"), input("b", "(1, 64, 28, 28)")};
    dsl::TaskGraph g = run(d, "pypo.op.concat((a, b), axis=1)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Concat);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1}));
    EXPECT_EQ(g.ops[0].attrs.at("axis").i, 1);
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 96, 28, 28}));
    g = run(d, "pypo.op.concat([a, a, a])");
    EXPECT_EQ(g.ops[0].attrs.at("axis").i, 0);
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{3, 32, 28, 28}));
}

TEST(OpsLayout, ConcatErrors) {
    std::vector<std::string> d{input("a", "(1, 32, 28, 28)"), input("c", "(1, 64, 14, 14)")};
    std::string e = "pypo.op.concat((a, c), axis=1)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "c)",
                                   "concat: shapes differ outside axis 1: a is (1, 32, 28, 28) float16, "
                                   "c is (1, 64, 14, 14) float16"));
    e = "pypo.op.concat(a, c)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "a,", "concat: tensors must be a list or tuple of tensors, got tensor"));
    e = "pypo.op.concat((a, 3))";
    EXPECT_EQ(error(d, e), diag_in(2, e, "3)", "concat: tensors[1] must be a tensor, got int"));
    e = "pypo.op.concat([])";
    EXPECT_EQ(error(d, e), diag_in(2, e, "[]", "concat: tensors must not be empty"));
    d = {input("a", "(4, 8)"), input("c", "(4, 8)", "float32"), input("v", "(4,)")};
    e = "pypo.op.concat((a, v))";
    EXPECT_EQ(error(d, e), diag_in(3, e, "v)", "concat: ranks differ: a is (4, 8) float16, v is (4,) float16"));
}
