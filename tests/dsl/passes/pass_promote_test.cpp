// The promote pass (dsl/passes/pass_promote.h): mixed float dtypes promote to
// the wider one. Which operations promote, the casts inserted (names,
// dtypes, sharing, the promotion mark), the result dtype the program sees,
// and the case the precision pass leaves mixed.
#include <gtest/gtest.h>

#include "dsl/frontend/frontend.h"
#include "dsl/ir/graph_format.h"
#include "dsl/passes/pass_promote.h"
#include "dsl/passes/pipeline.h"
#include "tests/dsl/lower_test_util.h"

namespace {

dsl::TaskGraph elaborate(const std::string& body) {
    return dsl::elaborate_source(dsl_test::source("import pypto as pypo\n" + body));
}

dsl::TaskGraph passed(const std::string& body) { return dsl::run_graph_passes(elaborate(body)).graph(); }

const char* kInputs =
    "a = pypo.input(\"a\", shape=(64, 64))\n"
    "b = pypo.input(\"b\", shape=(64, 64), dtype=\"float32\")\n";

TEST(PassPromote, MatmulOfSoftmaxFloat32AndFloat16CastsTheNarrowerOperand) {
    const std::string body =
        "x = pypo.input(\"x\", shape=(64, 64))\n"
        "v = pypo.input(\"v\", shape=(64, 64))\n"
        "p = pypo.op.softmax(x, dtype=\"float32\")\n"
        "y = pypo.op.matmul(p, v)\n"
        "pypo.output(\"y\", y)\n";
    const dsl::TaskGraph e = elaborate(body);
    EXPECT_TRUE(e.ops[1].promotes_operands);
    EXPECT_EQ(e.tensors[size_t(e.ops[1].output)].dtype, arch::DType::Float32);  // what y.dtype says
    const dsl::TaskGraph g = passed(body);
    EXPECT_EQ(dsl_test::op_lines(g),
              "softmax_1 = softmax(x) float32\n"
              "cast_1 = cast(v) float32 *\n"
              "y = matmul(softmax_1, cast_1) float32\n");
    EXPECT_EQ(g.ops[1].attrs.at("dtype").s, "float32");
    EXPECT_EQ(g.ops[1].origin, -1);
    EXPECT_EQ(g.ops[1].loc.line, 5);  // the matmul's call
    EXPECT_EQ(dsl::count_promotions(g), 1u);
    EXPECT_EQ(dsl::format_promotions(g),
              "\npromotions (casts the compiler inserts where operand dtypes differ)\n"
              "  cast_1 = cast(v, dtype='float32')  -> (64, 64) float32  [vector, promotion]  @5:5  for op 1 matmul\n");
}

TEST(PassPromote, EveryOperationWhoseOperandsShareADtype) {
    const dsl::TaskGraph g = passed(std::string(kInputs) +
                                    "w = pypo.weight(\"w\", shape=(8, 64, 1, 1), dtype=\"float32\")\n"
                                    "img = pypo.input(\"img\", shape=(1, 64, 8, 8))\n"
                                    "pypo.output(\"s\", pypo.op.sub(a, b))\n"
                                    "pypo.output(\"m\", pypo.op.maximum(b, a))\n"
                                    "pypo.output(\"c\", pypo.op.concat((a, b), axis=0))\n"
                                    "pypo.output(\"k\", pypo.op.conv2d(img, w))\n");
    // a is cast once and shared by sub, maximum and concat; the result of
    // each is float32 whichever side was the narrower.
    EXPECT_EQ(dsl_test::op_lines(g),
              "cast_1 = cast(a) float32 *\n"
              "s = sub(cast_1, b) float32\n"
              "m = maximum(b, cast_1) float32\n"
              "c = concat(cast_1, b) float32\n"
              "cast_2 = cast(img) float32 *\n"
              "conv2d_1 = conv2d(cast_2, w) float32\n"
              "k = format_convert(conv2d_1) float32\n");
    EXPECT_EQ(dsl::count_promotions(g), 2u);
}

// float16 and bfloat16 promote to float32 (neither holds the other's
// values); bfloat16 with float32 to float32; bfloat16 with itself stays.
TEST(PassPromote, BFloat16AndFloat16PromoteToFloat32) {
    const dsl::TaskGraph g = passed(
        "h = pypo.input(\"h\", shape=(64, 64))\n"
        "b = pypo.input(\"b\", shape=(64, 64), dtype=\"bfloat16\")\n"
        "f = pypo.input(\"f\", shape=(64, 64), dtype=\"float32\")\n"
        "pypo.output(\"hb\", pypo.op.add(h, b))\n"
        "pypo.output(\"bf\", pypo.op.matmul(b, f))\n"
        "pypo.output(\"bb\", pypo.op.matmul(b, b))\n");
    EXPECT_EQ(dsl_test::op_lines(g),
              "cast_1 = cast(h) float32 *\n"
              "cast_2 = cast(b) float32 *\n"
              "hb = add(cast_1, cast_2) float32\n"
              "bf = matmul(cast_2, f) float32\n"
              "bb = matmul(b, b) bfloat16\n");
    EXPECT_EQ(dsl::count_promotions(g), 2u);
}

TEST(PassPromote, SameDtypesAndOperationsThatConvertAsTheyReadPromoteNothing) {
    const dsl::TaskGraph g = passed(std::string(kInputs) +
                                    "s = pypo.weight(\"s\", shape=(64,), dtype=\"float32\")\n"
                                    "t = pypo.weight(\"t\", shape=(64,), dtype=\"float32\")\n"
                                    "pypo.output(\"x\", pypo.op.add(a, a))\n"
                                    "pypo.output(\"y\", pypo.op.add(a, b, dtype=\"float16\"))\n"
                                    "pypo.output(\"z\", pypo.op.layer_norm(a, scale=s, shift=t))\n"
                                    "pypo.output(\"u\", pypo.op.mul(b, 2.0))\n");
    EXPECT_EQ(dsl_test::op_lines(g),
              "x = add(a, a) float16\n"
              "y = add(a, b) float16\n"
              "z = layer_norm(a, s, t) float16\n"
              "u = mul(b) float32\n");
    EXPECT_EQ(dsl::count_promotions(g), 0u);
}

TEST(PassPromote, MatmulWithDtypeComputesInTheWiderAndWritesTheGivenDtype) {
    const dsl::TaskGraph g =
        passed(std::string(kInputs) + "pypo.output(\"y\", pypo.op.matmul(a, b, dtype=\"float16\"))\n");
    EXPECT_EQ(dsl_test::op_lines(g),
              "cast_1 = cast(a) float32 *\n"
              "y = matmul(cast_1, b) float16\n");
}

// The precision pass makes softmax float32 (mode='mixed') after the rules
// saw float16, and leaves the matmul given dtype= alone: its operands then
// differ only after that pass. Before promotion the cube read v's float16
// bytes as float32 (--check failed).
TEST(PassPromote, OperandsTheMixedPrecisionPassWidenedArePromotedToo) {
    const dsl::TaskGraph g = passed(
        "x = pypo.input(\"x\", shape=(64, 64))\n"
        "v = pypo.input(\"v\", shape=(64, 64))\n"
        "with pypo.precision(mode='mixed'):\n"
        "    s = pypo.op.softmax(x)\n"
        "    m = pypo.op.matmul(s, v, dtype='float16')\n"
        "pypo.output(\"m\", m)\n");
    EXPECT_EQ(dsl_test::op_lines(g),
              "cast_1 = cast(x) float32\n"
              "softmax_1 = softmax(cast_1) float32\n"
              "cast_2 = cast(v) float32 *\n"
              "m = matmul(softmax_1, cast_2) float16\n");
}

TEST(PassPromote, UnderAPrecisionScopeThePrecisionPassDecidesInstead) {
    const dsl::TaskGraph g = passed(std::string(kInputs) +
                                    "with pypo.precision(mode='float16'):\n"
                                    "    y = pypo.op.add(a, b)\n"
                                    "pypo.output(\"y\", y)\n");
    // The rule promoted y to float32; the scope computes it in float16 and
    // the program output keeps its dtype with a final cast.
    EXPECT_EQ(dsl_test::op_lines(g),
              "cast_1 = cast(b) float16\n"
              "add_1 = add(a, cast_1) float16\n"
              "y = cast(add_1) float32\n");
    EXPECT_EQ(dsl::count_promotions(g), 0u);
}

}  // namespace
