#include "tests/dsl/ops_test_util.h"

using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

namespace {

const std::vector<std::string> kAB{input("a", "(64, 32)"), input("b", "(32, 16)")};

}  // namespace

TEST(OpsMatmul, NoOptionsRecordsNoAttrs) {
    dsl::TaskGraph g = run(kAB, "pypo.op.matmul(a, b)");
    ASSERT_EQ(g.ops.size(), 1u);
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Matmul);
    EXPECT_TRUE(g.ops[0].attrs.empty());
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{64, 16}));
    EXPECT_EQ(g.tensors[2].placement, dsl::Placement::DDR);
}

TEST(OpsMatmul, Options) {
    dsl::TaskGraph g = run(
        kAB, "pypo.op.matmul(a, b, tile=64, prefetch=True, unroll=2, target='L1', dtype='float32', layout='fractal')");
    const dsl::OpNode& op = g.ops[0];
    EXPECT_EQ(op.attrs.size(), 3u);
    EXPECT_EQ(op.attrs.at("tile").ints, (std::vector<int64_t>{64, 64}));
    EXPECT_EQ(op.attrs.at("prefetch").kind, dsl::Attr::Kind::Bool);
    EXPECT_TRUE(op.attrs.at("prefetch").b);
    EXPECT_EQ(op.attrs.at("unroll").i, 2);
    const dsl::TensorNode& y = g.tensors[2];
    EXPECT_EQ(y.placement, dsl::Placement::L1);
    EXPECT_EQ(y.dtype, arch::DType::Float32);
    EXPECT_EQ(y.layout, "fractal");
    EXPECT_EQ(run(kAB, "pypo.op.matmul(a, b, tile=(128, 64, 32))").ops[0].attrs.at("tile").ints,
              (std::vector<int64_t>{128, 64, 32}));
    EXPECT_EQ(run(kAB, "pypo.op.matmul(a, b, target='L0')").tensors[2].placement, dsl::Placement::L0);
}

TEST(OpsMatmul, Batched) {
    // Attention's scores: (B, H, S, D) @ (B, H, D, S).
    dsl::TaskGraph g = run({input("q", "(2, 8, 128, 64)"), input("k", "(2, 8, 64, 128)")}, "pypo.op.matmul(q, k)");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{2, 8, 128, 128}));
    // A 2-D operand is shared by every batch; size-1 batch axes broadcast.
    g = run({input("x", "(4, 32, 16)"), input("w", "(16, 8)")}, "pypo.op.matmul(x, w)");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{4, 32, 8}));
    g = run({input("x", "(2, 1, 32, 16)"), input("w", "(3, 16, 8)")}, "pypo.op.matmul(x, w)");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{2, 3, 32, 8}));
}

TEST(OpsMatmul, ShapeErrors) {
    std::vector<std::string> d{input("a", "(2, 32, 16)"), input("b", "(3, 16, 8)")};
    std::string e = "pypo.op.matmul(a, b)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "",
                                   "matmul: batch dimensions do not broadcast: a is (2, 32, 16) float16, "
                                   "b is (3, 16, 8) float16"));
    d = {input("q", "(2, 8, 128, 64)"), input("k", "(2, 8, 128, 64)")};
    e = "pypo.op.matmul(q, k)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "",
                                   "matmul: inner dimensions differ: q is (2, 8, 128, 64) float16, "
                                   "k is (2, 8, 128, 64) float16"));
}

TEST(OpsMatmul, OptionErrors) {
    std::string e = "pypo.op.matmul(a, b, tile=(1, 2, 3, 4))";
    EXPECT_EQ(error(kAB, e), diag_in(2, e, "(1, 2", "matmul: tile must have 2 or 3 values, got 4"));
    e = "pypo.op.matmul(a, b, tile=(64, 0))";
    EXPECT_EQ(error(kAB, e), diag_in(2, e, "0)", "matmul: tile[1] must be positive, got 0"));
    e = "pypo.op.matmul(a, b, tile='big')";
    EXPECT_EQ(error(kAB, e),
              diag_in(2, e, "'big'", "matmul: tile must be an integer or a tuple of 2 or 3 integers, got str"));
    e = "pypo.op.matmul(a, b, target='L2')";
    EXPECT_EQ(error(kAB, e), diag_in(2, e, "'L2'", "matmul: target must be 'L0', 'L1' or 'DDR', got 'L2'"));
    e = "pypo.op.matmul(a, b, prefetch=1)";
    EXPECT_EQ(error(kAB, e), diag_in(2, e, "1)", "matmul: prefetch must be True or False, got 1"));
    e = "pypo.op.matmul(a, b, unroll=0)";
    EXPECT_EQ(error(kAB, e), diag_in(2, e, "0)", "matmul: unroll must be positive, got 0"));
    e = "pypo.op.matmul(a, b, dtype='float64')";
    EXPECT_EQ(error(kAB, e),
              diag_in(2, e, "'float64'",
                      "matmul: dtype must be 'float16', 'bfloat16', 'float32', 'int8' or 'int32', got 'float64'"));
}
