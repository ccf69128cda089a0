// rms_norm and swiglu end to end through the CLI (default hardware, one
// DMA command in flight per engine, as vector_ops_test.cpp's derivations
// assume).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "fusion_figures.h"
#include "tests/support/json_parse.h"
#include "vector_op_report.h"

using namespace clitest;

namespace {

const char* const kOneInFlight = "--set dma.max_outstanding=1";

nlohmann::json report(const std::string& name, const std::string& decls, const std::string& call,
                      const std::string& options = kOneInFlight) {
    std::string pto =
        write_file(name + ".pto", "import pypto as pypo\n" + decls + "pypo.output(\"y\", " + call + ")\n");
    std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q " + options + " --report-json '" + json + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

const char* const kRows =
    "x = pypo.input(\"x\", shape=(256, 1024))\n"
    "w = pypo.weight(\"w\", shape=(1024,))\n"
    "b = pypo.weight(\"b\", shape=(1024,))\n";

const char* const kGateUp =
    "g = pypo.input(\"g\", shape=(1, 64, 56, 56))\n"
    "u = pypo.input(\"u\", shape=(1, 64, 56, 56))\n";

}  // namespace

// rms_norm of (256, 1024) float16: 4 blocks of 64 rows (one per cluster),
// 4 chunks of 16 rows (32768 B) each; the weight (2048 B) is loaded once
// per block. A chunk is seven commands (lower_rms_norm.cpp): x * x,
// 8 + 32768 / 128 = 264; reduce_sum, 264 + 16 rows * log2(64 lanes) = 360;
// * 1/D and + eps on 16 x 1, 9 each; sqrt, 8 + 4 passes = 12; the divide,
// 8 + 4 * 256 = 1032; * weight, 264: 1950 cycles, 7800 per vector unit.
// DDR-bound: the bound is (532480 + 524288) / 32 = 33024.
TEST(RmsNorm, SevenInstructionsPerChunkWeightOncePerBlock) {
    nlohmann::json r = report("rms_norm", kRows, "pypo.op.rms_norm(x, w)");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 524288u + 4 * 2048);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 524288u);
    EXPECT_EQ(r["ddr_bound_cycles"].get<uint64_t>(), 33024u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 33886u);
    EXPECT_EQ(unit_busy_cycles(r, "cluster0.vector0"), 4u * 1950);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "rms_norm");
    // Per block: the weight, 4 loads, 4 x 7 VECTORs, 4 stores.
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4u * (1 + 4 + 28 + 4));
}

// layer_norm of the same rows reads a shift too and runs eleven commands
// per chunk: more vector time and bytes than rms_norm. Its difference
// buffer (x - mean) leaves L1 room for 5 chunks of 12 or 13 rows per block
// instead of 4 of 16.
TEST(RmsNorm, CheaperThanLayerNorm) {
    nlohmann::json l = report("layer_norm", kRows, "pypo.op.layer_norm(x, w, b)");
    EXPECT_EQ(l["ddr_bytes_read"].get<uint64_t>(), 524288u + 4 * 2 * 2048);
    EXPECT_EQ(l["total_cycles"].get<uint64_t>(), 34427u);
    EXPECT_EQ(unit_busy_cycles(l, "cluster0.vector0"), 11483u);
    EXPECT_EQ(l["ops"][0]["commands"].get<uint64_t>(), 4u * (2 + 5 + 5 * 11 + 5));
}

// A row that does not fit L1 is a capacity error at the call (rms_norm has
// no multi-pass form).
TEST(RmsNorm, ARowLargerThanL1IsAnError) {
    std::string pto = write_file("rms_norm_wide.pto",
                                 "import pypto as pypo\n"
                                 "x = pypo.input(\"x\", shape=(4, 65536))\n"
                                 "w = pypo.weight(\"w\", shape=(65536,))\n"
                                 "pypo.output(\"y\", pypo.op.rms_norm(x, w))\n");
    Outcome o = run("-q '" + pto + "'");
    EXPECT_EQ(o.status, 2);
    // One row is 131072 B: x and y double-buffered, the weight and the
    // per-row statistic's extent are each at least that.
    EXPECT_NE(o.err.find("rms_norm_wide.pto:4:18: error: rms_norm does not fit the hardware: one chunk needs 917568 "
                         "bytes of L1, a cluster has 262144\n"),
              std::string::npos)
        << o.err;
}

// swiglu of two (1, 64, 56, 56) float16 tensors: 4 blocks of 896 rows of
// 56, in chunks of 298, 299 and 299 rows (g, u and y double-buffered).
// A chunk is a sigmoid (8 + 4 passes * ceil(298 * 112 / 128) = 1052, or
// 1056 for 299 rows) and two multiplies (269, or 270): 1590 + 2 * 1596 =
// 4782 cycles per vector unit, under the DDR traffic (bound 1204224 / 32 =
// 37632).
TEST(Swiglu, ReadsBothInputsOnceAndWritesTheProduct) {
    nlohmann::json r = report("swiglu", kGateUp, "pypo.op.swiglu(g, u)");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 2u * 401408);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 38528u);
    EXPECT_EQ(unit_busy_cycles(r, "cluster0.vector0"), 4782u);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "swiglu");
    // Per block: 3 chunks of 2 loads, 3 VECTORs and a store.
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4u * 3 * (2 + 3 + 1));
}

// Written by hand, mul(silu(g), u) is a vector chain (silu, then the mul
// reading u, ready before the head) with swiglu's commands, bytes and
// cycles. Without fusion silu's result goes to DDR and comes back: one
// more write and read of 401408 B, and 63997 cycles instead of 38528.
TEST(Swiglu, TheHandWrittenFormCostsTheSameFusedAndMoreApart) {
    const std::string by_hand = "pypo.op.mul(pypo.op.silu(g), u)";
    nlohmann::json f = report("swiglu_by_hand", kGateUp, by_hand);
    EXPECT_EQ(f["fusion_groups"].get<uint64_t>(), 1u);
    EXPECT_EQ(f["ddr_bytes_read"].get<uint64_t>(), 2u * 401408);
    EXPECT_EQ(f["ddr_bytes_written"].get<uint64_t>(), 401408u);
    EXPECT_EQ(f["total_cycles"].get<uint64_t>(), 38528u);
    EXPECT_EQ(unit_busy_cycles(f, "cluster0.vector0"), 4782u);
    nlohmann::json a = report("swiglu_by_hand_apart", kGateUp, by_hand, std::string(kOneInFlight) + " --no-fusion");
    EXPECT_EQ(a["ddr_bytes_read"].get<uint64_t>(), 3u * 401408);
    EXPECT_EQ(a["ddr_bytes_written"].get<uint64_t>(), 2u * 401408);
    EXPECT_EQ(a["total_cycles"].get<uint64_t>(), 63997u);
}

// In the gate matmul's epilogue (fusion_test.cpp's 16 x 16 tile, 645
// cycles alone): after the write-back's flag (1), silu of the tile as a
// fused silu is (sigmoid 8 + 4 passes * 4 = 24, mul 8 + 4 = 12), then the
// tile times up (12), whose 512 B are loaded on dma0 behind the
// panels: 645 + 1 + 24 + 12 + 12 = 694; up is read and the result written
// once.
TEST(Swiglu, InTheGateMatmulsEpilogueMatchesTheHandDerivation) {
    const char* program = R"(import pypto as pypo
a = pypo.input("a", shape=(16, 16), dtype="float16")
b = pypo.weight("b", shape=(16, 16), dtype="float16")
u = pypo.input("u", shape=(16, 16), dtype="float16")
pypo.output("y", pypo.op.swiglu(pypo.op.matmul(a, b, tile=(16, 16)), u))
)";
    const std::string one = std::string(kOneInFlight) + " ";
    const FusionFigures fused = measure_fusion(one + write_file("mm_swiglu.pto", program));
    EXPECT_EQ(fused.cycles, 645u + 1 + (8 + 4 * 4) + 2 * (8 + 4));
    EXPECT_EQ(fused.cycles, 694u);
    EXPECT_EQ(fused.read, 1024u + 512);
    EXPECT_EQ(fused.written, 512u);
    EXPECT_EQ(fused.groups, 1u);
    const FusionFigures apart = measure_fusion(one + "--no-fusion " + write_file("mm_swiglu.pto", program));
    EXPECT_EQ(apart.read, 1024u + 2 * 512);  // a, b; then the gate and up
    EXPECT_EQ(apart.written, 2u * 512);
    EXPECT_EQ(apart.cycles, 1017u);
}
