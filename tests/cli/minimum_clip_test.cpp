// minimum and clip end to end through the CLI, on the (1, 64, 56, 56)
// float16 tensor of vector_ops_test.cpp's relu (default hardware): the same
// streams, blocks and DDR traffic; minimum is one one-pass instruction per
// chunk like relu, clip two (a maximum and a minimum with immediates), and
// ReLU6 written as 6 - relu(6 - relu(x)) four.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "fusion_figures.h"
#include "vector_op_report.h"

using namespace clitest;

namespace {

// With one DMA command in flight per engine, as relu's derivation assumes.
const char* const kOneInFlight = "--set dma.max_outstanding=1";
const char* const kRelu6ByHand = "pypo.op.sub(6.0, pypo.op.relu(pypo.op.sub(6.0, pypo.op.relu(x))))";

}  // namespace

// As for relu: 4 blocks of 2 chunks of 448 rows of 56 (50176 B each); a
// chunk is one minimum of 8 + 50176 / 128 = 400 cycles, hidden under the
// transfers: the run ends at relu's 25475 with 800 busy cycles per vector
// unit. The number needs no DDR data (an immediate).
TEST(MinimumClip, MinimumIsOneInstructionPerChunk) {
    nlohmann::json r = vector_op_report("minimum", "pypo.op.minimum(x, 0.0)", kOneInFlight);
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 25475u);
    EXPECT_EQ(unit_busy_cycles(r, "cluster0.vector0"), 800u);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "minimum");
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4u * (2 + 2 + 2));  // per block: 2 loads, 2 VECTORs, 2 stores
    EXPECT_EQ(r["ops"][0]["vector_cycles"].get<uint64_t>(), 4u * 800);
}

// clip: a maximum and a minimum per chunk, 2 * 400 cycles, still hidden.
TEST(MinimumClip, ClipIsTwoInstructionsPerChunk) {
    nlohmann::json r = vector_op_report("clip", "pypo.op.clip(x, 0, 6)", kOneInFlight);
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 25475u);
    EXPECT_EQ(unit_busy_cycles(r, "cluster0.vector0"), 1600u);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "clip");
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4u * (2 + 2 * 2 + 2));
}

// ReLU6 by hand is a vector chain of four one-pass instructions per chunk
// (the same bytes: fused), twice clip's vector time. On a vector unit of
// 16 B/cycle an instruction is 8 + 50176 / 16 = 3144 cycles: clip's 6288
// per chunk still hides under a transfer (6367), the hand-written form's
// 12576 does not: chunk 0 computes from 6369 + 2c (a cycle after its
// load's end) to 18945 + 2c and chunk 1 from there to 31521 + 2c; its
// store starts a cycle later (the flag), is eligible a cycle after that
// and takes 6266 + 100: 37895 for cluster 3 (c = 3).
TEST(MinimumClip, ClipHalvesTheHandWrittenRelu6sVectorTime) {
    nlohmann::json by_hand = vector_op_report("relu6_by_hand", kRelu6ByHand, kOneInFlight);
    EXPECT_EQ(by_hand["fusion_groups"].get<uint64_t>(), 1u);
    EXPECT_EQ(by_hand["ddr_bytes_read"].get<uint64_t>(), 401408u);
    EXPECT_EQ(by_hand["total_cycles"].get<uint64_t>(), 25475u);
    EXPECT_EQ(unit_busy_cycles(by_hand, "cluster0.vector0"), 3200u);
    const std::string slow = std::string(kOneInFlight) + " --set vector.bytes_per_cycle=16";
    nlohmann::json clip = vector_op_report("clip_slow", "pypo.op.clip(x, 0, 6)", slow);
    EXPECT_EQ(clip["total_cycles"].get<uint64_t>(), 25475u);
    EXPECT_EQ(unit_busy_cycles(clip, "cluster0.vector0"), 2u * 2 * 3144);
    nlohmann::json hand = vector_op_report("relu6_by_hand_slow", kRelu6ByHand, slow);
    EXPECT_EQ(hand["total_cycles"].get<uint64_t>(), 37895u);
    EXPECT_EQ(unit_busy_cycles(hand, "cluster0.vector0"), 2u * 4 * 3144);
}

// In a cube epilogue (fusion_test.cpp's 16 x 16 tile, 645 cycles alone):
// after the write-back's flag (1), the maximum and the minimum, 16 x 16
// float16 VECTORs of one pass (8 + 4 each), then the store: 645 + 1 + 12 +
// 12 = 670, the 512-byte result written once.
TEST(MinimumClip, ClipInAMatmulEpilogueMatchesTheHandDerivation) {
    const char* program = R"(import pypto as pypo
a = pypo.input("a", shape=(16, 16), dtype="float16")
b = pypo.weight("b", shape=(16, 16), dtype="float16")
pypo.output("y", pypo.op.clip(pypo.op.matmul(a, b, tile=(16, 16)), 0, 6))
)";
    const std::string one = std::string(kOneInFlight) + " ";
    const FusionFigures fused = measure_fusion(one + write_file("mm_clip.pto", program));
    EXPECT_EQ(fused.cycles, 645u + 1 + 2 * (8 + 4));
    EXPECT_EQ(fused.cycles, 670u);
    EXPECT_EQ(fused.read, 1024u);
    EXPECT_EQ(fused.written, 512u);
    EXPECT_EQ(fused.groups, 1u);
    const FusionFigures apart = measure_fusion(one + "--no-fusion " + write_file("mm_clip.pto", program));
    EXPECT_EQ(apart.written, 2u * 512);
    EXPECT_EQ(apart.cycles, 894u);
}
