// End to end through the CLI: conv2d as an implicit GEMM (exact DDR and
// L1 -> L0 bytes: the input is read once per block row band with its halo,
// the im2col tiles exist only on the L1 -> L0 link), and the DMA transpose
// against the vector unit's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& pto, const std::string& config_json = "") {
    std::string json = (scratch() / (pto + ".json")).string();
    std::string config = config_json.empty() ? "" : "--config '" + write_file(pto + ".config.json", config_json) + "' ";
    Outcome o = run("-q " + config + "--report-json '" + json + "' '" + (scratch() / pto).string() + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return nlohmann::json::parse(slurp(json));
}

std::string conv_program(const std::string& x, const std::string& w) {
    return "import pypto as pypo\n"
           "x = pypo.input(\"x\", shape=" + x + ", dtype=\"float16\")\n"
           "w = pypo.weight(\"w\", shape=" + w + ", dtype=\"float16\")\n"
           "y = pypo.op.conv2d(x, w, padding=1)\n"
           "pypo.output(\"y\", y)\n";
}

// (1, 4, 16, 16) * (8, 4, 3, 3), padding 1, with a 4 KiB L0: 64 x 8 x 4
// cube tiles, blocks of 128 pixels = 8 output rows (tests/dsl/
// lower_conv_test.cpp derives the tiling). Block 0 (output rows 0..7)
// loads input rows 0..8 (row -1 is padding: generated, not read), block 1
// (rows 8..15) loads rows 7..15: 2 x 4 channels x 9 rows x 32 B = 2304 B
// of input (2048 B plus a 2-row halo per channel), and each block reads the
// 8 x 36 weights once: 2 x 576 B. Written: 256 pixels x 8 channels x 2 B,
// in NHWC; the format conversion to the NCHW output (dsl/pass_layout.h)
// reads those 4096 B and writes them again.
TEST(ConvCli, SmallConvReadsEachRowBandOnceWithItsHalo) {
    write_file("conv_small.pto", conv_program("(1, 4, 16, 16)", "(8, 4, 3, 3)"));
    nlohmann::json r = report("conv_small.pto", R"({"cube": {"l0_kib": 4}})");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 2304u + 1152u + 4096u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 4096u + 4096u);
    EXPECT_EQ(r["format_conversions"].get<uint64_t>(), 1u);
    EXPECT_EQ(r["macs"].get<uint64_t>(), 256u * 36 * 8);
    // L1 -> L0: every cube (2 per block: N = 8 is two 4-wide cube columns,
    // 2 cube rows of 64 pixels) loads its 64 x 36 im2col tile (4608 B) and
    // its 36 x 4 weights (288 B), and writes back 64 x 4 x 2 B: 4 cubes per
    // block, 2 blocks.
    EXPECT_EQ(r["links"][1]["name"], "l1_l0");
    EXPECT_EQ(r["links"][1]["bytes"].get<uint64_t>(), 8u * (4608 + 288 + 512));
}

// The first convolution of models/resnet_block.pto on the default
// hardware. Tiling: 128 x 16 x 32 cube tiles (nt <= 64 / 2 cubes; 128 x 32
// needs 2 * (128*16 + 16*32) * 2 + 128*32*4 = 26624 B of L0, 256 x 32
// would need more than 32768), blocks of 256 pixels x 64 channels, panels
// of 32 channels (kb = 288; 64 channels would need 294912 B of L1).
//
// Input rows per block b (pixels 256b .. 256b+255 of 56 per output row,
// output rows oh_a..oh_b, input rows max(0, oh_a - 1) .. min(55, oh_b + 1)):
// 6, 8, 7, 8, 7, 8, 7, 7, 8, 7, 8, 7 and 3 for the last block (pixels
// 3072..3135): 91 rows of 64 channels x 112 B = 652288 B (the input is
// 401408 B: halos and bands sharing a row cost 1.625x). The weights,
// 73728 B, are read once per block: 13 x 73728 = 958464 B.
//
// L1 -> L0: each cube's im2col tile bytes are m x 576 x 2 (all of K); 12
// full blocks of 4 cubes x 128 pixels and a last block of 64 pixels on 2
// cubes: (48 x 128 + 2 x 64) x 1152 = 7225344 B. Weights: 50 cubes x 576 x
// 32 x 2 = 1843200 B; write-back 401408 B. The raw input crosses DDR once
// and a half; its expansion by 9 (and more) only crosses the L1 port.
// The NHWC -> NCHW conversion of the output adds 401408 B each way.
TEST(ConvCli, ResNetConvBytes) {
    write_file("conv_resnet.pto", conv_program("(1, 64, 56, 56)", "(64, 64, 3, 3)"));
    nlohmann::json r = report("conv_resnet.pto");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 652288u + 958464u + 401408u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 401408u + 401408u);
    EXPECT_EQ(r["macs"].get<uint64_t>(), 3136u * 576 * 64);
    EXPECT_EQ(r["links"][1]["bytes"].get<uint64_t>(), 7225344u + 1843200u + 401408u);
    // Compute bound: 115605504 MACs / 256 MAC per cycle = 451584 cycles.
    EXPECT_GT(r["total_cycles"].get<uint64_t>(), 451584u);
}

TEST(ConvCli, DumpProgramShowsTheIm2colDescriptor) {
    write_file("conv_dump.pto", conv_program("(1, 4, 8, 8)", "(8, 4, 3, 3)"));
    Outcome o = run("--dump-program '" + (scratch() / "conv_dump.pto").string() + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    // The conv2d writes NHWC into conv2d_1; a format_convert makes the NCHW y.
    EXPECT_NE(o.out.find("tensor conv2d_1 (1, 8, 8, 8) float16 intermediate, NHWC at DDR:"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("tensor y (1, 8, 8, 8) float16 output at DDR:"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("32x72B stride 0/72 im2col 3x3/s1/p1 of 4x8x8 ow 8 at pixel 0, k 0 2B"), std::string::npos)
        << o.out;
}

// The documents' transpose example, one program per engine. Both move the
// same bytes through DDR (8 MiB each way: the DDR bound is 524288 cycles);
// the vector version also makes vector.transpose_passes passes over each
// chunk in L1, which the DMA version does not need: it finishes first.
TEST(TransposeCli, DmaTransposeIsFasterThanTheVectorUnits) {
    const std::string head = "import pypto as pypo\nx = pypo.input(\"x\", shape=(2048, 2048), dtype=\"float16\")\n";
    write_file("t_vector.pto", head + "y = pypo.op.transpose(x)\npypo.output(\"y\", y)\n");
    write_file("t_dma.pto", head + "y = pypo.op.transpose(x, engine='dma')\npypo.output(\"y\", y)\n");
    nlohmann::json v = report("t_vector.pto"), d = report("t_dma.pto");
    for (const nlohmann::json* r : {&v, &d}) {
        EXPECT_EQ((*r)["ddr_bytes_read"].get<uint64_t>(), 8388608u);
        EXPECT_EQ((*r)["ddr_bytes_written"].get<uint64_t>(), 8388608u);
        EXPECT_GE((*r)["total_cycles"].get<uint64_t>(), 524288u);
    }
    EXPECT_LT(d["total_cycles"].get<uint64_t>(), v["total_cycles"].get<uint64_t>());
    EXPECT_EQ(d["ops"][0]["vector_cycles"].get<uint64_t>(), 0u);
    EXPECT_GT(v["ops"][0]["vector_cycles"].get<uint64_t>(), 0u);
}

}  // namespace
