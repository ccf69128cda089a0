// The reference executor behind --check on hand-computed values: it must be
// right on its own, since --check compares the compiled program with it.
#include <gtest/gtest.h>

#include <cmath>

#include "dsl/passes/pass_moves.h"
#include "dsl/reference/reference.h"
#include "tests/dsl/dsl_test_util.h"

namespace {

// Runs `text`, whose inputs are given in order of declaration.
std::vector<dsl::RefValues> run(const std::string& text, const std::vector<dsl::RefValues>& values) {
    const dsl::TaskGraph g = dsl::apply_moves(dsl_test::elaborate(text));
    std::vector<dsl::RefValues> in(g.tensors.size());
    size_t next = 0;
    for (size_t t = 0; t < g.tensors.size(); ++t)
        if (g.tensors[t].role == dsl::TensorRole::Input || g.tensors[t].role == dsl::TensorRole::Weight)
            in[t] = values.at(next++);
    std::vector<dsl::RefValues> out = dsl::run_reference(g, in);
    std::vector<dsl::RefValues> outputs;
    for (size_t t = 0; t < g.tensors.size(); ++t)
        if (g.tensors[t].role == dsl::TensorRole::Output) outputs.push_back(out[t]);
    return outputs;
}

TEST(Reference, Conv2dWithStrideAndPadding) {
    // 1 channel 3 x 3 image 1..9, a 3x3 filter of ones, stride 2, padding 1:
    // each output sums the image under its (padded) window.
    auto y = run(R"(import pypto as pypo
x = pypo.input("x", shape=(1, 1, 3, 3))
w = pypo.weight("w", shape=(1, 1, 3, 3))
pypo.output("y", pypo.op.conv2d(x, w, stride=2, padding=1))
)",
                 {{1, 2, 3, 4, 5, 6, 7, 8, 9}, dsl::RefValues(9, 1.0)});
    EXPECT_EQ(y.at(0), (dsl::RefValues{1 + 2 + 4 + 5, 2 + 3 + 5 + 6, 4 + 5 + 7 + 8, 5 + 6 + 8 + 9}));
}

TEST(Reference, PoolingPaddingAndSoftmax) {
    auto y = run(R"(import pypto as pypo
x = pypo.input("x", shape=(1, 1, 2, 2))
pypo.output("m", pypo.op.max_pool(x, window=3, stride=1, padding=1))
pypo.output("a", pypo.op.avg_pool(x, window=3, stride=1, padding=1))
pypo.output("s", pypo.op.softmax(x))
)",
                 {{-1, -2, -3, -4}});
    // Max ignores the padding (all values are negative, 0 would win otherwise).
    EXPECT_EQ(y.at(0), (dsl::RefValues{-1, -1, -1, -1}));
    // The average counts the padding as zeros: every window holds all four.
    EXPECT_EQ(y.at(1), (dsl::RefValues{-2.5 * 4 / 9, -2.5 * 4 / 9, -2.5 * 4 / 9, -2.5 * 4 / 9}));
    const double e = std::exp(1.0);
    EXPECT_NEAR(y.at(2)[0], e / (e + 1), 1e-15);
    EXPECT_NEAR(y.at(2)[1], 1 / (e + 1), 1e-15);
}

TEST(Reference, BroadcastTransposeAndSlide) {
    auto y = run(R"(import pypto as pypo
x = pypo.input("x", shape=(2, 3))
b = pypo.input("b", shape=(3,))
pypo.output("s", pypo.op.sub(1.0, pypo.op.add(x, b)))
pypo.output("t", pypo.op.transpose(x))
img = pypo.input("img", shape=(3, 3))
pypo.output("r", pypo.op.reduce_sum(pypo.op.slide(img, window=(2, 2), stride=1), axis=(-2, -1)))
)",
                 {{1, 2, 3, 4, 5, 6}, {10, 20, 30}, {1, 2, 3, 4, 5, 6, 7, 8, 9}});
    EXPECT_EQ(y.at(0), (dsl::RefValues{-10, -21, -32, -13, -24, -35}));
    EXPECT_EQ(y.at(1), (dsl::RefValues{1, 4, 2, 5, 3, 6}));
    EXPECT_EQ(y.at(2), (dsl::RefValues{12, 16, 24, 28}));
}

TEST(Reference, PixelShuffleMovesChannelsIntoSpace) {
    auto y = run(R"(import pypto as pypo
x = pypo.input("x", shape=(1, 4, 1, 1))
pypo.output("y", pypo.op.pixel_shuffle(x, 2))
)",
                 {{1, 2, 3, 4}});
    EXPECT_EQ(y.at(0), (dsl::RefValues{1, 2, 3, 4}));  // channel i * 2 + j -> row i, column j
}

}  // namespace
