#include "tests/dsl/ops_test_util.h"

using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

namespace {

const std::vector<std::string> kX{input("x", "(1, 64, 28, 28)")};
const std::vector<std::string> kSeq{input("x", "(2, 128, 768)")};

}  // namespace

TEST(OpsNorm, BatchNormWithImplicitParameters) {
    dsl::TaskGraph g = run(kX, "pypo.op.batch_norm(x)");
    const dsl::OpNode& op = g.ops[0];
    EXPECT_EQ(op.kind, dsl::OpKind::BatchNorm);
    EXPECT_EQ(op.attrs.at("eps").f, 1e-5);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 28, 28}));
    // The undeclared scale and shift become per-channel weights of the op.
    ASSERT_EQ(op.inputs, (std::vector<int>{0, 2, 3}));
    for (int p : {2, 3}) {
        EXPECT_EQ(g.tensors[size_t(p)].role, dsl::TensorRole::Weight);
        EXPECT_EQ(g.tensors[size_t(p)].shape, (std::vector<int64_t>{64}));
    }
    // Named after the op's generated output name (the program may rename
    // the output itself later, as this one does with pypo.output).
    EXPECT_EQ(g.tensors[2].name, "batch_norm_1.scale");
    EXPECT_EQ(g.tensors[3].name, "batch_norm_1.shift");
    // Channels are last under NHWC.
    g = run({input("x", "(1, 28, 28, 32)")}, "pypo.op.batch_norm(x, layout='NHWC')");
    EXPECT_EQ(g.tensors[size_t(g.ops[0].inputs[1])].shape, (std::vector<int64_t>{32}));
}

TEST(OpsNorm, BatchNormWithExplicitParameters) {
    dsl::TaskGraph g = run({kX[0], input("s", "(64,)"), input("b", "(64,)", "float32")},
                           "pypo.op.batch_norm(x, s, shift=b, eps=1e-3)");
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(g.ops[0].attrs.at("eps").f, 1e-3);
    EXPECT_EQ(g.tensors.size(), 4u);  // no implicit parameters
}

TEST(OpsNorm, BatchNormErrors) {
    std::vector<std::string> d{kX[0], input("s", "(32,)")};
    std::string e = "pypo.op.batch_norm(x, scale=s)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "", "batch_norm: give both scale and shift, or neither"));
    e = "pypo.op.batch_norm(x, s, s)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "s,",
                                   "batch_norm: scale must have shape (64,), one value per channel: "
                                   "s is (32,) float16, x is (1, 64, 28, 28) float16"));
    e = "pypo.op.batch_norm(x, eps=0)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "0)", "batch_norm: eps must be a positive number, got 0"));
    e = "pypo.op.batch_norm(s)";
    EXPECT_EQ(error(d, e),
              diag_in(2, e, "s)", "batch_norm: s must have a channel axis (N, C, ...), got (32,) float16"));
}

TEST(OpsNorm, LayerNorm) {
    dsl::TaskGraph g = run(kSeq, "pypo.op.layer_norm(x)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::LayerNorm);
    EXPECT_EQ(g.ops[0].attrs.at("axis").i, 2);
    EXPECT_EQ(g.ops[0].attrs.at("eps").f, 1e-5);
    EXPECT_EQ(g.tensors[size_t(g.ops[0].inputs[1])].shape, (std::vector<int64_t>{768}));
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{2, 128, 768}));
    // From axis -2 on, the parameters cover both trailing axes.
    g = run({kSeq[0], input("g", "(128, 768)"), input("b", "(128, 768)")}, "pypo.op.layer_norm(x, g, b, axis=-2)");
    EXPECT_EQ(g.ops[0].attrs.at("axis").i, 1);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1, 2}));
}

TEST(OpsNorm, LayerNormErrors) {
    std::vector<std::string> d{kSeq[0], input("g", "(128,)")};
    std::string e = "pypo.op.layer_norm(x, g, g)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "g,",
                                   "layer_norm: scale must have shape (768,), the shape of the normalised axes: "
                                   "g is (128,) float16, x is (2, 128, 768) float16"));
    e = "pypo.op.layer_norm(x, axis=3)";
    EXPECT_EQ(error(d, e), diag_in(2, e, "3)", "layer_norm: axis 3 is out of range for x (2, 128, 768) float16"));
}

TEST(OpsNorm, Softmax) {
    dsl::TaskGraph g = run(kSeq, "pypo.op.softmax(x, dtype='float32')");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Softmax);
    EXPECT_EQ(g.ops[0].attrs.at("axis").i, 2);
    EXPECT_EQ(g.tensors[1].dtype, arch::DType::Float32);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{2, 128, 768}));
    EXPECT_EQ(run(kSeq, "pypo.op.softmax(x, 1)").ops[0].attrs.at("axis").i, 1);
    std::string e = "pypo.op.softmax(x, axis=-4)";
    EXPECT_EQ(error(kSeq, e), diag_in(1, e, "-4", "softmax: axis -4 is out of range for x (2, 128, 768) float16"));
    e = "pypo.op.softmax(x, axis=1.0)";
    EXPECT_EQ(error(kSeq, e), diag_in(1, e, "1.0", "softmax: axis must be an integer, got float"));
}

TEST(OpsNorm, RmsNorm) {
    dsl::TaskGraph g = run({kSeq[0], input("w", "(768,)")}, "pypo.op.rms_norm(x, w)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::RmsNorm);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1}));
    EXPECT_EQ(g.ops[0].attrs.size(), 1u);
    EXPECT_EQ(g.ops[0].attrs.at("eps").f, 1e-6);
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{2, 128, 768}));
    g = run({kSeq[0], input("w", "(768,)")}, "pypo.op.rms_norm(x, weight=w, eps=1e-5, dtype='float32')");
    EXPECT_EQ(g.ops[0].attrs.at("eps").f, 1e-5);
    EXPECT_EQ(g.tensors[2].dtype, arch::DType::Float32);
}

TEST(OpsNorm, RmsNormErrors) {
    std::vector<std::string> d{kSeq[0], input("g", "(128, 768)"), input("w", "(768,)")};
    std::string e = "pypo.op.rms_norm(x, g)";
    EXPECT_EQ(error(d, e), diag_in(3, e, "g)",
                                   "rms_norm: weight must have shape (768,), the last axis of x: "
                                   "g is (128, 768) float16, x is (2, 128, 768) float16"));
    e = "pypo.op.rms_norm(x)";
    EXPECT_EQ(error(d, e), diag_in(3, e, "", "rms_norm: missing required argument 'weight'"));
    e = "pypo.op.rms_norm(x, w, eps=0)";
    EXPECT_EQ(error(d, e), diag_in(3, e, "0)", "rms_norm: eps must be a positive number, got 0"));
}
