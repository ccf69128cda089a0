// Single-operation mode (dsl/frontend/single_op.h): --op matmul|conv2d --shape ...
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json single(const std::string& args) {
    std::string json = (scratch() / "single_op.json").string();
    Outcome o = run("-q --report-json '" + json + "' " + args);
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
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

// SCALE-Sim's output size: 8x8 input, 1x1 filters, stride 2:
// ceil((8 - 1 + 2) / 2) = 5 (a program's conv2d: 4). The last output row
// and column start past the input and read zeros; the values agree with
// the reference on the fractal cube (whose second block, pixels 16..24,
// starts its slab a row early, timing model §10) and on both stationary
// arrays.
TEST(SingleOp, Conv2dRoundsUpAsScaleSim) {
    Outcome o = run("--op conv2d --shape 8,8,2,1,1,4,2 --dump-graph");
    EXPECT_NE(o.out.find("y  output  (1, 5, 5, 4) float16 NHWC"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("rounding='ceil'"), std::string::npos) << o.out;
    for (const char* dataflow : {"fractal", "ws", "is"}) {
        o = run(std::string("-q --set cube.dataflow=") + dataflow + " --op conv2d --shape 8,8,2,1,1,4,2 --check");
        EXPECT_EQ(o.status, 0) << dataflow << ": " << o.out << o.err;
        EXPECT_NE(o.out.find("-> pass"), std::string::npos) << dataflow << ": " << o.out;
    }
}

// A SCALE-Sim-style 32x32 weight-stationary array (§7.2): a 32x32x32 GEMM
// is one fold, (Sr, Sc, T) = (K, N, M) = (32, 32, 32):
// 2*32 + 32 + 32 - 2 = 126 cycles, minus 1: 125, SCALE-Sim v2's figure. It
// fits one L0 tile, so it is one MATMUL. K = 64 is two folds along Sr:
// 2 * 126 - 1 = 251. The 512 B/cycle L0 path is not the bound.
TEST(SingleOp, MatmulWeightStationaryMatchesScaleSim) {
    const std::string config =
        write_file("ws32.json", R"({"cube": {"dataflow": "ws", "mac_rows": 32, "mac_cols": 32}})");
    nlohmann::json r = single("--config '" + config + "' --op matmul --shape 32,32,32");
    EXPECT_EQ(r["ops"][0]["cube_cycles"].get<uint64_t>(), 125u);
    r = single("--config '" + config + "' --op matmul --shape 32,64,32");
    EXPECT_EQ(r["ops"][0]["cube_cycles"].get<uint64_t>(), 251u);
    Outcome o = run("--config '" + config + "' --op matmul --shape 32,32,32");
    EXPECT_NE(o.out.find("32x32 MAC ws systolic each"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("at 16384 MAC/cycle"), std::string::npos) << o.out;  // 16 cubes x 32 x 32
}

// A fractal cube with a K depth: 16x16 MACs taking 16 K elements per cycle,
// 16x16x16 float16 is one MAC step, but its operands, 16*(16*1 + 16*1)*2 =
// 1024 B, take 2 cycles of the 512 B/cycle L0 path: 7 + max(1, 2) = 9.
// The peak is 16 cubes x 16 x 16 x 16 = 65536 MAC/cycle.
TEST(SingleOp, MatmulFractalKPerCycle) {
    const std::string config =
        write_file("fractal16.json", R"({"cube": {"mac_rows": 16, "mac_cols": 16, "k_per_cycle": 16}})");
    nlohmann::json r = single("--config '" + config + "' --op matmul --shape 16,16,16");
    EXPECT_EQ(r["ops"][0]["cube_cycles"].get<uint64_t>(), 9u);
    Outcome o = run("--config '" + config + "' --op matmul --shape 16,16,16");
    EXPECT_NE(o.out.find("16x16x16 MAC each"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("at 65536 MAC/cycle"), std::string::npos) << o.out;
}

TEST(SingleOp, BadCommandLines) {
    struct Case {
        std::string args, error;
    } cases[] = {
        {"--op conv2d --shape 5,5",
         "davinci-sim: error: --op conv2d needs --shape H,W,C,R,S,F,stride (7 numbers), got 2\n"},
        {"--op matmul", "davinci-sim: error: --op needs --shape with the operation's sizes\n"},
        {"--op softmax --shape 4,4", "davinci-sim: error: --op: expected matmul or conv2d, got 'softmax'\n"},
        {"--op matmul --shape 4,4,4 --dtype int4",
         "davinci-sim: error: --dtype: expected float16, bfloat16, float32 or int8, got 'int4'\n"},
        {"--op matmul --shape 4,x,4",
         "davinci-sim: error: --shape: expected numbers separated by commas, got '4,x,4'\n"},
        {"--op matmul --shape 0,4,4",
         "davinci-sim: error: --shape: the operation's sizes must be positive, got '0,4,4'\n"},
        {"--op conv2d --shape 2,2,1,3,3,1,1",
         "davinci-sim: error: --op conv2d: the 3x3 filter is larger than the 2x2 input\n"},
        {"--op matmul --shape 4,4,4 models/gemm_256.pto", "davinci-sim: error: --op takes the place of a program\n"},
        {"--dtype float32 models/gemm_256.pto", "davinci-sim: error: --dtype is for --op and --topology\n"},
    };
    for (const Case& c : cases) {
        Outcome o = run(c.args);
        EXPECT_EQ(o.status, 2) << c.args;
        EXPECT_EQ(o.err.substr(0, c.error.size()), c.error) << c.args;
    }
}

}  // namespace
