#include "tests/dsl/ops_test_util.h"

using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

namespace {

const std::vector<std::string> kX{input("x", "(1, 64, 56, 56)")};

}  // namespace

TEST(OpsPool, DefaultsAreANonOverlappingTwoByTwoWindow) {
    dsl::TaskGraph g = run(kX, "pypo.op.max_pool(x)");
    const dsl::OpNode& op = g.ops[0];
    EXPECT_EQ(op.kind, dsl::OpKind::MaxPool);
    EXPECT_EQ(op.attrs.at("window").ints, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(op.attrs.at("stride").ints, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(op.attrs.at("padding").ints, (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 28, 28}));
}

TEST(OpsPool, WindowStridePadding) {
    // ResNet's stem pool: 3x3, stride 2, padding 1.
    dsl::TaskGraph g = run(kX, "pypo.op.max_pool(x, window=3, stride=2, padding=1)");
    EXPECT_EQ(g.ops[0].attrs.at("window").ints, (std::vector<int64_t>{3, 3}));
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 28, 28}));
    g = run(kX, "pypo.op.avg_pool(x, (2, 4), stride=1, dtype='float32')");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::AvgPool);
    EXPECT_EQ(g.ops[0].attrs.at("stride").ints, (std::vector<int64_t>{1, 1}));
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 55, 53}));
    EXPECT_EQ(g.tensors[1].dtype, arch::DType::Float32);
    g = run(kX, "pypo.op.avg_pool(x, 3, stride=None, padding='same')");
    EXPECT_EQ(g.ops[0].attrs.at("padding").ints, (std::vector<int64_t>{1, 1}));
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 19, 19}));
}

TEST(OpsPool, GlobalAvgPool) {
    dsl::TaskGraph g = run(kX, "pypo.op.global_avg_pool(x)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::GlobalAvgPool);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 64, 1, 1}));
    g = run({input("x", "(1, 7, 7, 512)")}, "pypo.op.global_avg_pool(x, layout='NHWC')");
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 1, 1, 512}));
}

TEST(OpsPool, Errors) {
    std::string e = "pypo.op.max_pool(x, window=3, padding=2)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "2)", "max_pool: padding (2, 2) must be at most half the window (3, 3)"));
    e = "pypo.op.max_pool(x, window=2, padding='same')";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "'same'", "max_pool: padding='same' needs an odd window, got (2, 2)"));
    std::vector<std::string> small{input("x", "(1, 1, 2, 2)")};
    e = "pypo.op.max_pool(x, window=3)";
    EXPECT_EQ(error(small, e), diag_in(1, e, "",
                                       "max_pool: the window (3, 3) is larger than the padded input: "
                                       "x is (1, 1, 2, 2) float16, padding (0, 0)"));
    std::vector<std::string> flat{input("v", "(64, 64)")};
    e = "pypo.op.avg_pool(v)";
    EXPECT_EQ(error(flat, e),
              diag_in(1, e, "v)", "avg_pool: v must be a 4-D image (N, C, H, W), got (64, 64) float16"));
    e = "pypo.op.global_avg_pool(v, layout='NHWC')";
    EXPECT_EQ(error(flat, e),
              diag_in(1, e, "v,", "global_avg_pool: v must be a 4-D image (N, H, W, C), got (64, 64) float16"));
    e = "pypo.op.max_pool(x, window=0)";
    EXPECT_EQ(error(kX, e), diag_in(1, e, "0)", "max_pool: window must be positive, got 0"));
}
