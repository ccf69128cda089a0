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
