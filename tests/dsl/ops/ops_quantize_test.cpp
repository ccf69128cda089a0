// quantize / dequantize: the graph they record (dtypes, shapes, operands);
// their diagnostics are tested end to end in tests/cli/quantize_test.cpp.
#include "tests/dsl/ops_test_util.h"

using ops_test::input;
using ops_test::run;

TEST(OpsQuantize, QuantizeMakesInt8WithAPerChannelOrOneScale) {
    dsl::TaskGraph g = run({input("x", "(2, 8, 96)"), input("s", "(96,)", "float32")}, "pypo.op.quantize(x, s)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Quantize);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1}));
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].dtype, arch::DType::Int8);
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].shape, (std::vector<int64_t>{2, 8, 96}));
    g = run({input("x", "(4, 5)", "bfloat16"), input("s", "(1,)")}, "pypo.op.quantize(x, s, dtype='int8')");
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].dtype, arch::DType::Int8);
}

TEST(OpsQuantize, DequantizeGivesFloat16OrTheDtypeAsked) {
    dsl::TaskGraph g = run({input("q", "(3, 40)", "int8"), input("s", "(40,)")}, "pypo.op.dequantize(q, s)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Dequantize);
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].dtype, arch::DType::Float16);
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].shape, (std::vector<int64_t>{3, 40}));
    g = run({input("q", "(3, 40)", "int8"), input("s", "(1,)")}, "pypo.op.dequantize(q, s, 'float32')");
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].dtype, arch::DType::Float32);
}
