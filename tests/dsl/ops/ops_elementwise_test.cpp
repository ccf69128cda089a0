#include "tests/dsl/ops_test_util.h"

using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

namespace {

const std::vector<std::string> kX{input("x", "(1, 64, 28, 28)")};

}  // namespace

TEST(OpsElementwise, UnaryKeepShapeAndDtype) {
    const std::pair<const char*, dsl::OpKind> ops[] = {
        {"relu", dsl::OpKind::Relu}, {"gelu", dsl::OpKind::Gelu}, {"sigmoid", dsl::OpKind::Sigmoid},
        {"tanh", dsl::OpKind::Tanh}, {"exp", dsl::OpKind::Exp},   {"sqrt", dsl::OpKind::Sqrt},
    };
    for (const auto& [name, kind] : ops) {
        dsl::TaskGraph g = run(kX, std::string("pypo.op.") + name + "(x)");
        ASSERT_EQ(g.ops.size(), 1u) << name;
        EXPECT_EQ(g.ops[0].kind, kind) << name;
        EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0}));
        EXPECT_TRUE(g.ops[0].attrs.empty());
        EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 28, 28})) << name;
        EXPECT_EQ(g.tensors[1].dtype, arch::DType::Float16) << name;
    }
    EXPECT_EQ(run(kX, "pypo.op.gelu(x, dtype='float32')").tensors[1].dtype, arch::DType::Float32);
    std::string e = "pypo.op.tanh(3)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "3", "tanh: x must be a tensor, got int"));
}

TEST(OpsElementwise, Cast) {
    dsl::TaskGraph g = run(kX, "pypo.op.cast(x, dtype='float32')");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Cast);
    EXPECT_EQ(g.tensors[1].dtype, arch::DType::Float32);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 28, 28}));
}

TEST(OpsElementwise, BinaryBroadcasts) {
    dsl::TaskGraph g = run({input("x", "(1, 64, 28, 28)"), input("b", "(64, 1, 1)")}, "pypo.op.add(x, b)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Add);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1}));
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 64, 28, 28}));
    g = run({input("u", "(8, 1)"), input("v", "(1, 16)")}, "pypo.op.mul(u, v)");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{8, 16}));
    g = run({input("u", "(8, 16)", "float32"), input("v", "(16,)", "float32")},
            "pypo.op.maximum(u, v, dtype='float16')");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Maximum);
    EXPECT_EQ(g.tensors[2].dtype, arch::DType::Float16);
    // The result keeps the first operand's layout, unless broadcasting
    // leaves it without the four axes an image layout names.
    std::vector<std::string> d{"x = pypo.input(\"x\", shape=(1, 28, 28, 64), layout='NHWC')",
                               input("s", "(2, 1, 1, 1, 64)")};
    EXPECT_EQ(run(d, "pypo.op.add(x, x)").tensors[2].layout, "NHWC");
    g = run(d, "pypo.op.add(x, s)");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{2, 1, 28, 28, 64}));
    EXPECT_EQ(g.tensors[2].layout, "");
}

TEST(OpsElementwise, ScalarOperand) {
    dsl::TaskGraph g = run(kX, "pypo.op.mul(x, 2)");
    ASSERT_EQ(g.ops[0].inputs, (std::vector<int>{0}));
    EXPECT_EQ(g.ops[0].attrs.size(), 1u);
    EXPECT_EQ(g.ops[0].attrs.at("scalar").kind, dsl::Attr::Kind::Float);
    EXPECT_EQ(g.ops[0].attrs.at("scalar").f, 2.0);
    // 1 - x is not x - 1: the order is kept.
    g = run(kX, "pypo.op.sub(1.5, x)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Sub);
    EXPECT_EQ(g.ops[0].attrs.at("scalar").f, 1.5);
    EXPECT_TRUE(g.ops[0].attrs.at("scalar_first").b);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 28, 28}));
}

TEST(OpsElementwise, BinaryErrors) {
    std::vector<std::string> d{input("x", "(1, 64, 56, 56)"), input("h", "(1, 64, 28, 28)")};
    std::string e = "pypo.op.add(pypo.op.relu(h), x)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "",
                                   "add: shapes do not broadcast: lhs is (1, 64, 28, 28) float16, "
                                   "x is (1, 64, 56, 56) float16"));
    d = {input("u", "(8, 16)"), input("v", "(8, 16)", "float32")};
    e = "pypo.op.sub(1, 2.0)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "", "sub: at least one operand must be a tensor, got int and float"));
    e = "pypo.op.mul(u, 'two')";
    EXPECT_EQ(error(d, e), diag_in(2, e, "'two'", "mul: rhs must be a tensor or a number, got str"));
    e = "pypo.op.div(u, 0)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "0)", "div: division by zero"));
}

TEST(OpsElementwise, Minimum) {
    dsl::TaskGraph g = run({input("u", "(8, 1)"), input("v", "(1, 16)")}, "pypo.op.minimum(u, v)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Minimum);
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{8, 16}));
    g = run(kX, "pypo.op.minimum(6, x)");
    EXPECT_EQ(g.ops[0].attrs.at("scalar").f, 6.0);
    EXPECT_TRUE(g.ops[0].attrs.at("scalar_first").b);
}

// clip(x, lo, hi): x's shape and dtype, the bounds as float attrs.
TEST(OpsElementwise, Clip) {
    dsl::TaskGraph g = run(kX, "pypo.op.clip(x, 0, 6)");
    ASSERT_EQ(g.ops.size(), 1u);
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Clip);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0}));
    EXPECT_EQ(g.ops[0].attrs.at("lo").kind, dsl::Attr::Kind::Float);
    EXPECT_EQ(g.ops[0].attrs.at("lo").f, 0.0);
    EXPECT_EQ(g.ops[0].attrs.at("hi").f, 6.0);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 28, 28}));
    EXPECT_EQ(g.tensors[1].dtype, arch::DType::Float16);
    EXPECT_EQ(run(kX, "pypo.op.clip(x, hi=1.5, lo=-1.5, dtype='float32')").tensors[1].dtype, arch::DType::Float32);
    // lo == hi is a constant, not an error.
    EXPECT_EQ(run(kX, "pypo.op.clip(x, 2, 2)").ops[0].attrs.at("hi").f, 2.0);
}

TEST(OpsElementwise, ClipErrors) {
    std::string e = "pypo.op.clip(x, 6, 0)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "0)", "clip: hi must not be below lo, got lo 6.0 and hi 0.0"));
    e = "pypo.op.clip(x, x, 6)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "x, 6", "clip: lo must be a number, got tensor"));
    e = "pypo.op.clip(x, 0, 'six')";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "'six'", "clip: hi must be a number, got str"));
    e = "pypo.op.clip(x, 0)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "", "clip: missing required argument 'hi'"));
    e = "pypo.op.clip(3, 0, 6)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "3", "clip: x must be a tensor, got int"));
}

TEST(OpsElementwise, Swiglu) {
    std::vector<std::string> d{input("g", "(16, 512)"), input("u", "(16, 512)", "float32"), input("b", "(16, 1)")};
    dsl::TaskGraph g = run(d, "pypo.op.swiglu(g, u)");
    ASSERT_EQ(g.ops.size(), 1u);
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Swiglu);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1}));
    EXPECT_TRUE(g.ops[0].promotes_operands);  // float16 and float32: float32
    EXPECT_EQ(g.tensors[3].dtype, arch::DType::Float32);
    EXPECT_EQ(g.tensors[3].shape, (std::vector<int64_t>{16, 512}));
    std::string e = "pypo.op.swiglu(g, b)";
    EXPECT_EQ(error(d, e), diag_in(3, e, "",
                                   "swiglu: gate and up must have the same shape: g is (16, 512) float16, "
                                   "b is (16, 1) float16"));
    e = "pypo.op.swiglu(g, 2.0)";
    EXPECT_EQ(error(d, e), diag_in(3, e, "2.0", "swiglu: up must be a tensor, got float"));
}

// where(cond, x, y): the three broadcast together; the result has x and
// y's wider dtype; cond must keep its zeros (and nonzeros) in it.
TEST(OpsElementwise, Where) {
    std::vector<std::string> d{input("c", "(16, 1)"), input("x", "(4, 16, 48)"), input("b", "(48,)", "float32"),
                               input("h", "(4, 16, 48)", "float32"), input("k", "(3, 48)")};
    dsl::TaskGraph g = run(d, "pypo.op.where(c, x, b)");
    ASSERT_EQ(g.ops.size(), 1u);
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Where);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1, 2}));
    EXPECT_FALSE(g.ops[0].promotes_operands);  // the lowering reads each operand in the result's dtype
    EXPECT_EQ(g.tensors[5].shape, (std::vector<int64_t>{4, 16, 48}));
    EXPECT_EQ(g.tensors[5].dtype, arch::DType::Float32);
    EXPECT_EQ(run(d, "pypo.op.where(c, x, x)").tensors[5].dtype, arch::DType::Float16);
    // A float32 cond with a float32 result; a float16 cond widens exactly.
    EXPECT_EQ(run(d, "pypo.op.where(h, x, b)").tensors[5].dtype, arch::DType::Float32);

    std::string e = "pypo.op.where(h, x, x)";
    EXPECT_EQ(error(d, e), diag_in(5, e, "h, x",
                                   "where: cond is float32 but the result is float16: reading cond as float16 "
                                   "could round a nonzero to 0 (cast x and y, or cond, explicitly)"));
    e = "pypo.op.where(k, x, b)";
    EXPECT_EQ(error(d, e), diag_in(5, e, "",
                                   "where: shapes do not broadcast: k is (3, 48) float16, x is (4, 16, 48) "
                                   "float16, b is (48,) float32"));
    e = "pypo.op.where(c, x, 0.0)";
    EXPECT_EQ(error(d, e), diag_in(5, e, "0.0", "where: y must be a tensor, got float"));
    e = "pypo.op.where(c, x)";
    EXPECT_EQ(error(d, e), diag_in(5, e, "", "where: missing required argument 'y'"));
}
