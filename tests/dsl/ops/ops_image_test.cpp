#include "tests/dsl/ops_test_util.h"

using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

TEST(OpsImage, SlideAsTheDocumentsWriteIt) {
    dsl::TaskGraph g = run({input("img", "(32, 32)")}, "pypo.op.slide(img, window=(3,3), stride=1)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Slide);
    EXPECT_EQ(g.ops[0].attrs.at("window").ints, (std::vector<int64_t>{3, 3}));
    EXPECT_EQ(g.ops[0].attrs.at("stride").ints, (std::vector<int64_t>{1, 1}));
    // (out_h, out_w, kh, kw): one kh x kw patch per window position.
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{30, 30, 3, 3}));
    g = run({input("img", "(2, 3, 32, 16)")}, "pypo.op.slide(img, window=(4, 2), stride=(4, 2))");
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{2, 3, 8, 8, 4, 2}));
}

TEST(OpsImage, SlideErrors) {
    std::string e = "pypo.op.slide(img)";
    EXPECT_EQ(error({input("img", "(2, 8)")}, e),
              diag_in(1, e, "", "slide: the window (3, 3) is larger than the image: img is (2, 8) float16"));
    EXPECT_EQ(error({input("img", "(8,)")}, e),
              diag_in(1, e, "img)", "slide: img must be an image (H, W), (C, H, W) or (N, C, H, W), got (8,) float16"));
}

TEST(OpsImage, PixelShuffle) {
    dsl::TaskGraph g = run({input("x", "(1, 12, 8, 8)")}, "pypo.op.pixel_shuffle(x, 2)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::PixelShuffle);
    EXPECT_EQ(g.ops[0].attrs.at("factor").i, 2);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 3, 16, 16}));
    std::string e = "pypo.op.pixel_shuffle(x, factor=3)";
    EXPECT_EQ(error({input("x", "(1, 12, 8, 8)")}, e),
              diag_in(1, e, "",
                      "pixel_shuffle: channels are not a multiple of factor * factor = 9: x is (1, 12, 8, 8) float16"));
    e = "pypo.op.pixel_shuffle(x)";
    EXPECT_EQ(error({input("x", "(1, 12, 8, 8)")}, e),
              diag_in(1, e, "", "pixel_shuffle: missing required argument 'factor'"));
}

TEST(OpsImage, Upsample) {
    dsl::TaskGraph g = run({input("x", "(1, 3, 8, 8)")}, "pypo.op.upsample(x)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Upsample);
    EXPECT_EQ(g.ops[0].attrs.at("factor").ints, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(g.ops[0].attrs.at("mode").as<dsl::UpsampleMode>(), dsl::UpsampleMode::Nearest);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 3, 16, 16}));
    g = run({input("x", "(1, 3, 8, 8)")}, "pypo.op.upsample(x, factor=(2, 3), mode='bilinear')");
    EXPECT_EQ(g.ops[0].attrs.at("mode").as<dsl::UpsampleMode>(), dsl::UpsampleMode::Bilinear);
    EXPECT_EQ(g.tensors[1].shape, (std::vector<int64_t>{1, 3, 16, 24}));
    std::string e = "pypo.op.upsample(x, mode='cubic')";
    EXPECT_EQ(error({input("x", "(1, 3, 8, 8)")}, e),
              diag_in(1, e, "'cubic'", "upsample: mode must be 'nearest' or 'bilinear', got 'cubic'"));
}
