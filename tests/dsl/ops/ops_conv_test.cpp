#include "dsl/ir/op_attrs.h"
#include "tests/dsl/ops_test_util.h"

using ops_test::diag;
using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

namespace {

const std::vector<std::string> kImage{input("x", "(1, 3, 224, 224)"), input("w", "(64, 3, 7, 7)")};

// The user documents' residual block, flat: conv, batch_norm, conv, add.
std::string residual_block(const std::string& kernel, const std::string& conv1_options,
                           const std::string& conv2_options) {
    return "import pypto as pypo\n"
           "x = pypo.input(\"x\", shape=(1, 64, 56, 56))\n"
           "weights1 = pypo.input(\"weights1\", shape=(64, 64, " +
           kernel +
           "))\n"
           "weights2 = pypo.input(\"weights2\", shape=(64, 64, " +
           kernel +
           "))\n"
           "conv1 = pypo.op.conv2d(x, weights1" +
           conv1_options +
           ")\n"
           "bn1 = pypo.op.batch_norm(conv1)\n"
           "conv2 = pypo.op.conv2d(bn1, weights2" +
           conv2_options +
           ")\n"
           "y = pypo.op.add(conv2, x)\n"
           "pypo.output(\"y\", y)\n";
}

}  // namespace

TEST(OpsConv, ShapeAndNormalisedAttrs) {
    dsl::TaskGraph g = run(kImage, "pypo.op.conv2d(x, w, stride=2, padding=3)");
    ASSERT_EQ(g.ops.size(), 1u);
    const dsl::OpNode& op = g.ops[0];
    EXPECT_EQ(op.kind, dsl::OpKind::Conv2d);
    EXPECT_EQ(op.inputs, (std::vector<int>{0, 1}));
    EXPECT_EQ(op.attrs.at("stride").ints, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(op.attrs.at("padding").ints, (std::vector<int64_t>{3, 3}));
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 64, 112, 112}));
    EXPECT_EQ(g.tensors[2].dtype, arch::DType::Float16);

    // Defaults are recorded too, so the lowering never guesses.
    g = run(kImage, "pypo.op.conv2d(x, w, dtype='float32')");
    EXPECT_EQ(g.ops[0].attrs.at("stride").ints, (std::vector<int64_t>{1, 1}));
    EXPECT_EQ(g.ops[0].attrs.at("padding").ints, (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 64, 218, 218}));
    EXPECT_EQ(g.tensors[2].dtype, arch::DType::Float32);
}

TEST(OpsConv, Padding) {
    dsl::TaskGraph g = run(kImage, "pypo.op.conv2d(x, w, padding='same')");
    EXPECT_EQ(g.ops[0].attrs.at("padding").ints, (std::vector<int64_t>{3, 3}));
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 64, 224, 224}));
    // 'same' at stride s gives ceil(size / s).
    g = run({input("x", "(1, 3, 15, 15)"), input("w", "(8, 3, 3, 3)")},
            "pypo.op.conv2d(x, w, stride=(2, 1), padding='same')");
    EXPECT_EQ(g.ops[0].attrs.at("stride").ints, (std::vector<int64_t>{2, 1}));
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 8, 8, 15}));
    g = run(kImage, "pypo.op.conv2d(x, w, padding='valid')");
    EXPECT_EQ(g.ops[0].attrs.at("padding").ints, (std::vector<int64_t>{0, 0}));
    g = run(kImage, "pypo.op.conv2d(x, w, padding=(3, 0))");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 64, 224, 218}));
}

TEST(OpsConv, ChannelsLastLayout) {
    dsl::TaskGraph g = run({input("x", "(1, 56, 56, 64)"), input("w", "(32, 64, 3, 3)")},
                           "pypo.op.conv2d(x, w, padding=1, layout='NHWC')");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 56, 56, 32}));
    EXPECT_EQ(g.tensors[2].layout, "NHWC");
    // The next operation reads the layout from its input.
    g = run({input("x", "(1, 56, 56, 64)"), input("w", "(32, 64, 3, 3)")},
            "pypo.op.max_pool(pypo.op.conv2d(x, w, padding=1, layout='NHWC'))");
    EXPECT_EQ(g.tensors[3].shape, (std::vector<int64_t>{1, 28, 28, 32}));
    EXPECT_EQ(g.tensors[3].layout, "NHWC");
    // So does the first, from an input declared channels-last.
    g = run({"x = pypo.input(\"x\", shape=(1, 56, 56, 64), layout='NHWC')", input("w", "(32, 64, 3, 3)")},
            "pypo.op.conv2d(x, w, stride=2)");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 27, 27, 32}));
    EXPECT_EQ(g.tensors[2].layout, "NHWC");
}

TEST(OpsConv, OperandErrors) {
    std::vector<std::string> d{input("x", "(1, 64, 56, 56)"), input("w", "(64, 32, 3, 3)")};
    std::string e = "pypo.op.conv2d(x, w)";
    EXPECT_EQ(error(d, e),
              diag_in(2, e, "", "conv2d: channels differ: x is (1, 64, 56, 56) float16, w is (64, 32, 3, 3) float16"));
    d = {input("x", "(3, 8, 8)"), input("w", "(8, 3, 3, 3)")};
    e = "pypo.op.conv2d(x, w)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "x,", "conv2d: x must be a 4-D image (N, C, H, W), got (3, 8, 8) float16"));
    d = {input("x", "(1, 3, 8, 8)"), input("w", "(8, 3, 3)")};
    EXPECT_EQ(error(d, e), diag_in(2, e, "w)", "conv2d: w must be 4-D weights (O, C, kh, kw), got (8, 3, 3) float16"));
    d = {input("x", "(1, 3, 2, 2)"), input("w", "(8, 3, 3, 3)")};
    EXPECT_EQ(error(d, e), diag_in(2, e, "",
                                   "conv2d: the kernel is larger than the padded input: x is (1, 3, 2, 2) float16, "
                                   "w is (8, 3, 3, 3) float16, padding (0, 0)"));
}

// rounding='ceil', SCALE-Sim's output size: ceil((H + 2p - k) / s) + 1, one
// more than floor where the stride does not divide H + 2p - k: 224 - 7 =
// 217 at stride 2 gives 110 (floor: 109); 56 - 1 = 55 at stride 2 gives 29
// (floor 28), its last window starting past the input; with padding 3,
// 223 at stride 2 gives 113 (floor 112); at stride 1 both are 218.
// Recorded only when 'ceil'.
TEST(OpsConv, RoundingCeil) {
    dsl::TaskGraph g = run(kImage, "pypo.op.conv2d(x, w, stride=2, rounding='ceil')");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 64, 110, 110}));
    EXPECT_EQ(g.ops[0].attrs.at("rounding").as<dsl::Rounding>(), dsl::Rounding::Ceil);
    g = run({input("x", "(1, 8, 56, 56)"), input("w", "(16, 8, 1, 1)")},
            "pypo.op.conv2d(x, w, stride=(2, 1), rounding='ceil')");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 16, 29, 56}));
    g = run(kImage, "pypo.op.conv2d(x, w, stride=2, padding=3, rounding='ceil')");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 64, 113, 113}));
    g = run(kImage, "pypo.op.conv2d(x, w, rounding='ceil')");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 64, 218, 218}));
    g = run(kImage, "pypo.op.conv2d(x, w, stride=2, rounding='floor')");
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 64, 109, 109}));
    EXPECT_EQ(g.ops[0].attrs.count("rounding"), 0u);
    const std::string e = "pypo.op.conv2d(x, w, rounding='up')";
    EXPECT_EQ(error(kImage, e), diag_in(2, e, "'up'", "conv2d: rounding must be 'floor' or 'ceil', got 'up'"));
}

TEST(OpsConv, OptionErrors) {
    std::string e = "pypo.op.conv2d(x, w, stride=(2, 0))";
    EXPECT_EQ(error(kImage, e), diag_in(2, e, "0)", "conv2d: stride[1] must be positive, got 0"));
    e = "pypo.op.conv2d(x, w, stride=(1, 2, 3))";
    EXPECT_EQ(error(kImage, e), diag_in(2, e, "(1, 2, 3)", "conv2d: stride must have 2 values, got 3"));
    e = "pypo.op.conv2d(x, w, padding=-1)";
    EXPECT_EQ(error(kImage, e), diag_in(2, e, "-1", "conv2d: padding must be non-negative, got -1"));
    e = "pypo.op.conv2d(x, w, padding='full')";
    EXPECT_EQ(error(kImage, e), diag_in(2, e, "'full'", "conv2d: padding must be 'same' or 'valid', got 'full'"));
    std::vector<std::string> d{input("x", "(1, 3, 8, 8)"), input("w", "(8, 3, 2, 2)")};
    e = "pypo.op.conv2d(x, w, padding='same')";
    EXPECT_EQ(error(d, e),
              diag_in(2, e, "'same'", "conv2d: padding='same' needs an odd kernel: w is (8, 3, 2, 2) float16"));
}

// The documents' residual block as written: the stride-2 convolution halves
// the image, so the skip connection cannot be added. The error is at the add
// and names both shapes.
TEST(OpsConv, DocumentResidualBlockFailsAtTheAdd) {
    std::string text = residual_block("1, 1", ", stride=2", "");
    EXPECT_EQ(dsl_test::error_of([&] { dsl::elaborate_source(dsl_test::source(text)); }),
              diag(8, 5, "add: shapes do not broadcast: conv2 is (1, 64, 28, 28) float16, x is (1, 64, 56, 56) float16",
                   "y = pypo.op.add(conv2, x)"));
}

TEST(OpsConv, ResidualBlockWithSamePaddingElaborates) {
    dsl::TaskGraph g =
        dsl::elaborate_source(dsl_test::source(residual_block("3, 3", ", stride=1, padding=1", ", padding=1")));
    ASSERT_EQ(g.ops.size(), 4u);
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Conv2d);
    EXPECT_EQ(g.ops[1].kind, dsl::OpKind::BatchNorm);
    EXPECT_EQ(g.ops[2].kind, dsl::OpKind::Conv2d);
    EXPECT_EQ(g.ops[3].kind, dsl::OpKind::Add);
    // The skip connection reads the block's input.
    EXPECT_EQ(g.ops[3].inputs, (std::vector<int>{g.ops[2].output, 0}));
    const dsl::TensorNode& y = g.tensors[size_t(g.ops[3].output)];
    EXPECT_EQ(y.name, "y");
    EXPECT_EQ(y.shape, (std::vector<int64_t>{1, 64, 56, 56}));
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].name, "conv2d_1");
    EXPECT_EQ(g.tensors[size_t(g.ops[2].output)].name, "conv2d_2");
}

// groups = C = O is a depthwise convolution, recorded as depthwise_conv2d
// (a vector operation) with its bias as a third input; a bias on an
// ordinary convolution is an add after it, viewed (O, 1, 1) under NCHW
// before the convolution (so that it is ready when the GEMM starts).
TEST(OpsConv, GroupsAndBias) {
    dsl::TaskGraph g = run({input("x", "(1, 8, 12, 12)"), input("w", "(8, 1, 3, 3)"), input("b", "(8,)")},
                           "pypo.op.conv2d(x, w, stride=2, padding=1, groups=8, bias=b)");
    ASSERT_EQ(g.ops.size(), 1u);
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::DepthwiseConv2d);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(g.ops[0].attrs.at("groups").i, 8);
    EXPECT_EQ(g.tensors[3].shape, (std::vector<int64_t>{1, 8, 6, 6}));

    g = run({input("x", "(1, 8, 12, 12)"), input("w", "(16, 8, 1, 1)"), input("b", "(16,)")},
            "pypo.op.conv2d(x, w, bias=b)");
    ASSERT_EQ(g.ops.size(), 3u);
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Reshape);
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].shape, (std::vector<int64_t>{16, 1, 1}));
    EXPECT_EQ(g.ops[1].kind, dsl::OpKind::Conv2d);
    EXPECT_EQ(g.ops[2].kind, dsl::OpKind::Add);
    EXPECT_EQ(g.ops[2].inputs, (std::vector<int>{g.ops[1].output, g.ops[0].output}));

    g = run({"x = pypo.input(\"x\", shape=(1, 12, 12, 8), layout='NHWC')", input("w", "(16, 8, 1, 1)"),
             input("b", "(16,)")},
            "pypo.op.conv2d(x, w, bias=b)");
    ASSERT_EQ(g.ops.size(), 2u);
    EXPECT_EQ(g.ops[1].kind, dsl::OpKind::Add);
    EXPECT_EQ(g.ops[1].inputs, (std::vector<int>{g.ops[0].output, 2}));
}

// dilation=(dh, dw): the window spans (k - 1) * d + 1, which the output
// size and padding='same' use; recorded only when not (1, 1).
TEST(OpsConv, Dilation) {
    const std::vector<std::string> d{input("x", "(1, 16, 64, 64)"), input("w", "(32, 16, 3, 3)")};
    dsl::TaskGraph g = run(d, "pypo.op.conv2d(x, w, dilation=2)");
    EXPECT_EQ(g.ops[0].attrs.at("dilation").ints, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 32, 60, 60}));
    g = run(d, "pypo.op.conv2d(x, w, dilation=(4, 2), padding='same', stride=2)");
    EXPECT_EQ(g.ops[0].attrs.at("padding").ints, (std::vector<int64_t>{4, 2}));
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{1, 32, 32, 32}));
    g = run(d, "pypo.op.conv2d(x, w, dilation=1)");
    EXPECT_EQ(g.ops[0].attrs.count("dilation"), 0u);
    EXPECT_EQ(error(d, "pypo.op.conv2d(x, w, dilation=0)"),
              diag_in(2, "pypo.op.conv2d(x, w, dilation=0)", "0)", "conv2d: dilation must be positive, got 0"));
    EXPECT_EQ(error(d, "pypo.op.conv2d(x, w, dilation=40)"),
              diag_in(2, "pypo.op.conv2d(x, w, dilation=40)", "",
                      "conv2d: the kernel is larger than the padded input: x is (1, 16, 64, 64) float16, w is "
                      "(32, 16, 3, 3) float16, padding (0, 0)"));
    const std::vector<std::string> even{input("x", "(1, 16, 64, 64)"), input("w", "(32, 16, 2, 2)")};
    EXPECT_EQ(error(even, "pypo.op.conv2d(x, w, dilation=3, padding='same')"),
              diag_in(2, "pypo.op.conv2d(x, w, dilation=3, padding='same')", "'same'",
                      "conv2d: padding='same' needs an odd dilated kernel: (4, 4)"));
}

TEST(OpsConv, GroupsAndBiasErrors) {
    std::vector<std::string> d{input("x", "(1, 8, 12, 12)"), input("w", "(8, 1, 3, 3)"), input("b", "(4,)")};
    std::string e = "pypo.op.conv2d(x, w, groups=3)";
    EXPECT_EQ(error(d, e), diag_in(3, e, "",
                                   "conv2d: groups=3 does not divide the input's channels: x is (1, 8, 12, 12) "
                                   "float16, w is (8, 1, 3, 3) float16"));
    d[1] = input("w", "(6, 2, 3, 3)");
    e = "pypo.op.conv2d(x, w, groups=4)";
    EXPECT_EQ(error(d, e), diag_in(3, e, "",
                                   "conv2d: groups=4 does not divide the filters: x is (1, 8, 12, 12) float16, w is "
                                   "(6, 2, 3, 3) float16"));
    e = "pypo.op.conv2d(x, w, groups=2)";
    d[1] = input("w", "(8, 2, 3, 3)");
    EXPECT_EQ(error(d, e), diag_in(3, e, "",
                                   "conv2d: with groups=2 the weights must be (O, C/groups, kh, kw) with C/groups = "
                                   "4: x is (1, 8, 12, 12) float16, w is (8, 2, 3, 3) float16"));
    d[1] = input("w", "(8, 4, 3, 3)");
    EXPECT_EQ(error(d, e), diag_in(3, e, "",
                                   "conv2d: groups=2 is not lowered yet (only groups=1, and depthwise: groups = "
                                   "channels = filters): x is (1, 8, 12, 12) float16, w is (8, 4, 3, 3) float16"));
    d[1] = input("w", "(8, 1, 3, 3)");
    e = "pypo.op.conv2d(x, w, groups=8, bias=b)";
    EXPECT_EQ(error(d, e),
              diag_in(3, e, "b)", "conv2d: bias must be (O,) = (8,), one value per filter, got (4,) float16"));
    e = "pypo.op.conv2d(x, w, groups=8, rounding='ceil')";
    EXPECT_EQ(error(d, e), diag_in(3, e, "", "conv2d: rounding='ceil' is not lowered for depthwise (groups > 1)"));
    e = "pypo.op.conv2d(x, w, groups=0)";
    EXPECT_EQ(error(d, e), diag_in(3, e, "0)", "conv2d: groups must be positive, got 0"));
}
