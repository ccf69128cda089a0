// Single-operation mode (dsl/single_op.h): --op matmul|conv2d --shape ...
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"

using namespace clitest;

namespace {

nlohmann::json single(const std::string& args) {
    std::string json = (scratch() / "single_op.json").string();
    Outcome o = run("-q --report-json '" + json + "' " + args);
    EXPECT_EQ(o.status, 0) << o.err;
    return nlohmann::json::parse(slurp(json));
}

// One 4x4x4 MATMUL on the 4x4 cube: pipeline 7 + 1 block x 4 steps (§7;
// its 64 operand bytes take 1 cycle of the L0 path).
TEST(SingleOp, MatmulOneTile) {
    nlohmann::json r = single("--op matmul --shape 4,4,4");
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "matmul");
    EXPECT_EQ(r["ops"][0]["cube_cycles"].get<uint64_t>(), 11u);
    EXPECT_EQ(r["macs"].get<uint64_t>(), 64u);
    EXPECT_EQ(r["program"], "<--op matmul 4x4x4 float16>");
}

// float32 takes cube.fp32_passes (2) passes: 7 + 2 x 4.
TEST(SingleOp, MatmulFloat32) {
    nlohmann::json r = single("--op matmul --shape 4,4,4 --dtype float32");
    EXPECT_EQ(r["ops"][0]["cube_cycles"].get<uint64_t>(), 15u);
    EXPECT_EQ(r["program"], "<--op matmul 4x4x4 float32>");
}

// A 3x3 input, one channel, one 3x3 filter, stride 1: one output pixel,
// K = 9, N = 1: a 1x9x1 MATMUL, 7 + 9 cycles; no format conversion.
TEST(SingleOp, Conv2dOnePixel) {
    nlohmann::json r = single("--op conv2d --shape 3,3,1,3,3,1,1");
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "conv2d");
    EXPECT_EQ(r["ops"][0]["cube_cycles"].get<uint64_t>(), 16u);
    EXPECT_EQ(r["macs"].get<uint64_t>(), 9u);
    EXPECT_EQ(r["format_conversions"].get<uint64_t>(), 0u);
}

TEST(SingleOp, BadCommandLines) {
    struct Case {
        std::string args, error;
    } cases[] = {
        {"--op conv2d --shape 5,5", "davinci-sim: error: --op conv2d needs --shape H,W,C,R,S,F,stride (7 numbers), got 2\n"},
        {"--op matmul", "davinci-sim: error: --op needs --shape with the operation's sizes\n"},
        {"--op softmax --shape 4,4", "davinci-sim: error: --op: expected matmul or conv2d, got 'softmax'\n"},
        {"--op matmul --shape 4,4,4 --dtype int8", "davinci-sim: error: --dtype: expected float16 or float32, got 'int8'\n"},
        {"--op matmul --shape 4,x,4", "davinci-sim: error: --shape: expected numbers separated by commas, got '4,x,4'\n"},
        {"--op conv2d --shape 2,2,1,3,3,1,1", "davinci-sim: error: --op conv2d: the 3x3 filter is larger than the 2x2 input\n"},
        {"--op matmul --shape 4,4,4 models/gemm_256.pto", "davinci-sim: error: --op takes the place of a program\n"},
        {"--dtype float32 models/gemm_256.pto", "davinci-sim: error: --dtype is for --op\n"},
    };
    for (const Case& c : cases) {
        Outcome o = run(c.args);
        EXPECT_EQ(o.status, 2) << c.args;
        EXPECT_EQ(o.err.substr(0, c.error.size()), c.error) << c.args;
    }
}

}  // namespace
