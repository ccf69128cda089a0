// The operations' shared argument handling: the dispatch table, unknown
// operations and keywords, keyword-only options, dtype and layout.
#include "dsl/ops/op_rules.h"
#include "dsl/sema/call_args.h"
#include "dsl/sema/pypo_library.h"
#include "tests/dsl/ops_test_util.h"

using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

namespace {

const std::vector<std::string> kX{input("x", "(1, 64, 56, 56)")};
const std::vector<std::string> kXW{input("x", "(1, 64, 56, 56)"), input("w", "(64, 64, 3, 3)")};

}  // namespace

TEST(OpsArgs, EveryOperationHasARule) {
    for (const std::string& name : dsl::op_kind_names()) {
        EXPECT_NE(dsl::find_op_rule(name), nullptr) << name;
        EXPECT_TRUE(dsl::is_known_op(name)) << name;
    }
    EXPECT_EQ(dsl::find_op_rule("conv3d"), nullptr);
    EXPECT_FALSE(dsl::is_known_op("conv3d"));
}

// The list is the operation table's callable rows in table order (so a new
// row needs no edit here; docs/errors.md has the full text of a release),
// without the internal operations.
TEST(OpsArgs, UnknownOperationMessage) {
    std::string all;
    for (const std::string& name : dsl::op_kind_names()) all += (all.empty() ? "" : ", ") + name;
    EXPECT_EQ(dsl::valid_operations_text(), all);
    EXPECT_EQ(all.rfind("matmul, conv2d, relu, gelu, sigmoid, tanh, exp, sqrt, ", 0), 0u) << all;
    EXPECT_EQ(all.find("format_convert"), std::string::npos);
    EXPECT_EQ((", " + all + ",").find(", move,"), std::string::npos);
    EXPECT_EQ(dsl::unknown_op_message("conv3d"),
              "pypo.op has no operation 'conv3d' (did you mean 'conv2d'?); valid operations are: " + all);
    EXPECT_EQ(dsl::unknown_op_message("attention"),
              "pypo.op has no operation 'attention'; valid operations are: " + all);
}

TEST(OpsArgs, ClosestName) {
    EXPECT_EQ(dsl::closest_name("strides", {"stride", "padding"}), "stride");
    EXPECT_EQ(dsl::closest_name("pading", {"stride", "padding"}), "padding");
    EXPECT_EQ(dsl::closest_name("foo", {"tile", "target"}), "");
    // One edit is always allowed, even in a short name.
    EXPECT_EQ(dsl::closest_name("ax", {"axis"}), "");
    EXPECT_EQ(dsl::closest_name("axs", {"axis"}), "axis");
}

TEST(OpsArgs, UnknownKeywordListsTheValidOnesAndSuggests) {
    std::string e = "pypo.op.conv2d(x, w, strides=2)";
    EXPECT_EQ(error(kXW, e),
              diag_in(2, e, "strides",
                      "conv2d: unexpected keyword argument 'strides' (did you mean 'stride'?); valid keywords are: "
                      "stride, padding, groups, bias, dilation, rounding, dtype, layout, target"));
    e = "pypo.op.relu(x, foo=1)";
    EXPECT_EQ(
        error(kX, e),
        diag_in(1, e, "foo", "relu: unexpected keyword argument 'foo'; valid keywords are: dtype, layout, target"));
    // The suggestion considers every parameter, the list only the options.
    e = "pypo.op.softmax(xx=x)";
    EXPECT_EQ(error(kX, e),
              diag_in(1, e, "xx",
                      "softmax: unexpected keyword argument 'xx' (did you mean 'x'?); valid keywords are: "
                      "axis, dtype, layout, target"));
}

TEST(OpsArgs, OptionsAreKeywordOnly) {
    std::string e = "pypo.op.conv2d(x, w, 2)";
    EXPECT_EQ(error(kXW, e), diag_in(2, e, "2)", "conv2d: takes 2 positional arguments but 3 were given"));
    e = "pypo.op.relu(x, 'float32')";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "'float32'", "relu: takes 1 positional argument but 2 were given"));
}

TEST(OpsArgs, MissingAndRepeatedArguments) {
    std::string e = "pypo.op.cast(x)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "", "cast: missing required argument 'dtype'"));
    e = "pypo.op.relu(x, x=x)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "x=", "relu: got multiple values for argument 'x'"));
}

TEST(OpsArgs, DtypeSpellings) {
    EXPECT_EQ(run(kX, "pypo.op.cast(x, 'fp32')").tensors.back().dtype, arch::DType::Float32);
    EXPECT_EQ(run(kX, "pypo.op.cast(x, dtype='float32')").tensors.back().dtype, arch::DType::Float32);
    EXPECT_EQ(run({input("x", "(4,)", "fp32")}, "pypo.op.relu(x, dtype='fp16')").tensors.back().dtype,
              arch::DType::Float16);
    EXPECT_EQ(run(kX, "pypo.op.cast(x, 'bf16')").tensors.back().dtype, arch::DType::BFloat16);
    EXPECT_EQ(run(kX, "pypo.op.cast(x, dtype='bfloat16')").tensors.back().dtype, arch::DType::BFloat16);
    EXPECT_EQ(run(kX, "pypo.op.cast(x, dtype=pypo.DT_BF16)").tensors.back().dtype, arch::DType::BFloat16);
    std::string e = "pypo.op.cast(x, 'int4')";
    EXPECT_EQ(
        error(kX, e),
        diag_in(1, e, "'int4'", "cast: dtype must be 'float16', 'bfloat16', 'float32', 'int8' or 'int32', got 'int4'"));
}

TEST(OpsArgs, LayoutIsCheckedAndStored) {
    dsl::TaskGraph g = run(kX, "pypo.op.relu(x, layout='NHWC')");
    EXPECT_EQ(g.tensors.back().layout, "NHWC");
    // Element-wise results keep their input's layout.
    g = run(kX, "pypo.op.exp(pypo.op.relu(x, layout='fractal'))");
    EXPECT_EQ(g.tensors.back().layout, "fractal");
    EXPECT_EQ(run(kX, "pypo.op.relu(x)").tensors.back().layout, "");

    std::string e = "pypo.op.relu(x, layout='NCWH')";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "'NCWH'", "relu: layout must be 'NCHW', 'NHWC' or 'fractal', got 'NCWH'"));
    std::vector<std::string> v{input("v", "(64, 32)")};
    e = "pypo.op.sigmoid(v, layout='NCHW')";
    EXPECT_EQ(error(v, e), diag_in(1, e, "'NCHW'", "sigmoid: layout 'NCHW' needs a 4-D tensor, got (64, 32)"));
    e = "pypo.op.reduce_sum(v, 1, layout='fractal')";
    EXPECT_EQ(error(v, e),
              diag_in(1, e, "'fractal'", "reduce_sum: layout 'fractal' needs at least 2 dimensions, got (64,)"));
}

TEST(OpsArgs, ShapeArithmeticDoesNotOverflow) {
    std::string e = "pypo.op.upsample(x, factor=2 ** 61)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "", "upsample: the result is too large"));
    // Each dimension fits; the elements of the result (its bytes) do not.
    e = "pypo.op.upsample(x, factor=2 ** 29)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "", "upsample: the result is too large"));
    e = "pypo.op.upsample(x, factor=2 ** 20)";
    EXPECT_EQ(error(kX, e), "<no error>");
}

TEST(OpsArgs, UnknownOperationInAProgram) {
    std::string e = "pypo.op.conv3d(x)";
    EXPECT_EQ(error(kX, e),
              diag_in(1, e, "",
                      "pypo.op has no operation 'conv3d' (did you mean 'conv2d'?); valid operations are: " +
                          dsl::valid_operations_text()));
}

TEST(OpsArgs, LayoutNoneMeansNotGiven) { EXPECT_EQ(run(kX, "pypo.op.relu(x, layout=None)").tensors.back().layout, ""); }
