// End to end through the CLI: conv2d as an implicit GEMM (exact DDR and
// L1 -> L0 bytes: each block reads its row band of the input with the halo,
// the im2col tiles exist only on the L1 -> L0 link), and the DMA transpose
// against the vector unit's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& pto, const std::string& config_json = "") {
    std::string json = (scratch() / (pto + ".json")).string();
    std::string config = config_json.empty() ? "" : "--config '" + write_file(pto + ".config.json", config_json) + "' ";
    Outcome o = run("-q " + config + "--report-json '" + json + "' '" + (scratch() / pto).string() + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

std::string conv_program(const std::string& x, const std::string& w) {
    return "import pypto as pypo\n"
           "x = pypo.input(\"x\", shape=" +
           x +
           ", dtype=\"float16\")\n"
           "w = pypo.weight(\"w\", shape=" +
           w +
           ", dtype=\"float16\")\n"
           "y = pypo.op.conv2d(x, w, padding=1)\n"
           "pypo.output(\"y\", y)\n";
}

// (1, 4, 16, 16) * (8, 4, 3, 3), padding 1, with a 4 KiB L0. Tiling (the
// cheapest estimate): C tiles of 32 pixels x 4 channels (kt = 16), blocks
// of 64 pixels = 4 output rows x 8 channels, one per cluster, panels of all
// 4 channels. Block b (output rows 4b..4b+3) loads input rows 4b-1..4b+4
// clipped to the image (rows -1 and 16 are padding: generated, not read):
// 5, 6, 6 and 5 rows of 32 B for 4 channels = 2816 B (2048 B plus the
// halos), and each block reads the 8 x 36 weights once: 4 x 576 B.
// Written: 256 pixels x 8 channels x 2 B, once: the format conversion to
// the NCHW output (dsl/passes/pass_layout.h) is fused into the convolution
// (dsl/passes/pass_fusion.h), each tile transposed in L1 and stored NCHW
// (with --no-fusion it would read those 4096 B back and write them again).
TEST(ConvCli, SmallConvReadsEachRowBandOnceWithItsHalo) {
    write_file("conv_small.pto", conv_program("(1, 4, 16, 16)", "(8, 4, 3, 3)"));
    nlohmann::json r = report("conv_small.pto", R"({"cube": {"l0_kib": 4}})");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 2816u + 2304u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 4096u);
    EXPECT_EQ(r["format_conversions"].get<uint64_t>(), 1u);
    EXPECT_EQ(r["macs"].get<uint64_t>(), 256u * 36 * 8);
    // L1 -> L0: every cube (4 per block: 2 cube rows of 32 pixels, 2 cube
    // columns of 4 channels) loads its 32 x 36 im2col tile (2304 B, in
    // k-steps of 16, 16 and 4) and its 36 x 4 weights (288 B), and writes
    // back 32 x 4 x 2 B: 4 cubes per block, 4 blocks.
    EXPECT_EQ(r["links"][1]["name"], "l1_l0");
    EXPECT_EQ(r["links"][1]["bytes"].get<uint64_t>(), 16u * (2304 + 288 + 256));
}

// The first convolution of models/resnet_block.pto on the default
// hardware. Tiling (the cheapest estimate, tests/dsl/gemm_cost_test.cpp):
// C tiles of 256 pixels x 8 channels (kt = 16), blocks of 512 pixels x 16
// channels (7 block rows, the last of 64 pixels, x 4 block columns), panels
// of one channel (kb = 9). The cubes bound this run, so the tiling trades
// bytes for cube time: narrow block columns read the input four times.
//
// Input rows per block row b (pixels 512b .. 512b+511 of 56 per output row,
// output rows oh_a..oh_b, input rows max(0, oh_a - 1) .. min(55, oh_b + 1)):
// 11, 12, 12, 12, 12, 12 and 3 for the last (pixels 3072..3135): 74 rows of
// 64 channels x 112 B = 530432 B, read by each of the 4 block columns:
// 2121728 B (the input is 401408 B). Each of the 28 blocks reads the
// weights of its 16 channels, 16 x 576 x 2 = 18432 B: 516096 B.
//
// L1 -> L0: each cube's im2col tile bytes are m x 576 x 2 (all of K); 24
// full blocks of 4 cubes x 256 pixels and 4 last blocks of 64 pixels on 2
// cubes: (96 x 256 + 8 x 64) x 1152 = 28901376 B. Weights: 104 cubes x 576
// x 8 x 2 = 958464 B; write-back 401408 B. The raw input crosses DDR about
// five times; its expansion by 9 only crosses the L1 port.
// The NHWC -> NCHW conversion of the output is fused into the convolution
// (dsl/passes/pass_fusion.h): each C tile is transposed in L1 and stored
// NCHW, so the output is written once (--no-fusion: 401408 B more each way).
TEST(ConvCli, ResNetConvBytes) {
    write_file("conv_resnet.pto", conv_program("(1, 64, 56, 56)", "(64, 64, 3, 3)"));
    nlohmann::json r = report("conv_resnet.pto");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 2121728u + 516096u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["macs"].get<uint64_t>(), 3136u * 576 * 64);
    EXPECT_EQ(r["links"][1]["bytes"].get<uint64_t>(), 28901376u + 958464u + 401408u);
    // Compute bound: 115605504 MACs / 256 MAC per cycle = 451584 cycles.
    EXPECT_GT(r["total_cycles"].get<uint64_t>(), 451584u);
}

// The compiler's tiling of this small convolution has C tiles of 8 pixels:
// blocks of 16 pixels (two output rows) read three input rows (4x3x8).
TEST(ConvCli, DumpProgramShowsTheIm2colDescriptor) {
    write_file("conv_dump.pto", conv_program("(1, 4, 8, 8)", "(8, 4, 3, 3)"));
    Outcome o = run("--dump-program '" + (scratch() / "conv_dump.pto").string() + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    // The conv2d writes NHWC into conv2d_1; a format_convert makes the NCHW y.
    EXPECT_NE(o.out.find("tensor conv2d_1 (1, 8, 8, 8) float16 intermediate, NHWC at DDR:"), std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("tensor y (1, 8, 8, 8) float16 output at DDR:"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("8x72B stride 0/72 im2col 3x3/s1/p1 of 4x3x8 ow 8 at pixel 0, k 0 2B"), std::string::npos)
        << o.out;
}

// The documents' transpose example, one program per engine. Both move the
// same bytes through DDR (8 MiB each way: the DDR bound is 524288 cycles);
// the vector version also spends vector.transpose.cycles_per_repeat cycles per repeat over each
// chunk in L1, which the DMA version does not need. With one DMA command in
// flight per engine the DMA version finishes first (527,335 against
// 536,455 cycles); with the default 8 in flight both hide everything but
// DDR under its transfers and end together, 102 cycles after the DDR bound.
TEST(TransposeCli, DmaTransposeIsFasterThanTheVectorUnits) {
    const std::string head = "import pypto as pypo\nx = pypo.input(\"x\", shape=(2048, 2048), dtype=\"float16\")\n";
    write_file("t_vector.pto", head + "y = pypo.op.transpose(x)\npypo.output(\"y\", y)\n");
    write_file("t_dma.pto", head + "y = pypo.op.transpose(x, engine='dma')\npypo.output(\"y\", y)\n");
    const char* one = R"({"dma": {"max_outstanding": 1}})";
    nlohmann::json v = report("t_vector.pto", one), d = report("t_dma.pto", one);
    for (const nlohmann::json* r : {&v, &d}) {
        EXPECT_EQ((*r)["ddr_bytes_read"].get<uint64_t>(), 8388608u);
        EXPECT_EQ((*r)["ddr_bytes_written"].get<uint64_t>(), 8388608u);
        EXPECT_GE((*r)["total_cycles"].get<uint64_t>(), 524288u);
    }
    EXPECT_LT(d["total_cycles"].get<uint64_t>(), v["total_cycles"].get<uint64_t>());
    EXPECT_EQ(d["ops"][0]["vector_cycles"].get<uint64_t>(), 0u);
    EXPECT_GT(v["ops"][0]["vector_cycles"].get<uint64_t>(), 0u);
    nlohmann::json v8 = report("t_vector.pto"), d8 = report("t_dma.pto");
    EXPECT_EQ(d8["total_cycles"].get<uint64_t>(), 524390u);
    EXPECT_EQ(v8["total_cycles"].get<uint64_t>(), 524390u);
}

}  // namespace
