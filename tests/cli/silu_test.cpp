// silu end to end through the CLI, on the (1, 64, 56, 56) float16 tensor of
// vector_ops_test.cpp's relu (default hardware): the same streams, blocks
// and DDR traffic, each chunk a sigmoid and a multiply in place instead of
// one relu, and the intermediate never leaves L1.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "vector_op_report.h"

using namespace clitest;

// As for relu: 4 blocks (one per cluster) of 2 chunks of 448 rows of 56,
// 50176 B each. A chunk is a sigmoid, 8 + 4 passes * 50176 / 128 = 1576
// cycles, and a mul, 8 + 392 = 400: 1976 cycles, still under the 6367
// cycles each DDR transfer takes, so the run ends at relu's 25475 (the
// last store of cluster 3) with 2 * 1976 = 3952 busy cycles per vector unit.
// With one DMA command in flight per engine, as relu's derivation assumes.
const char* const kOneInFlight = "--set dma.max_outstanding=1";

TEST(Silu, TwoInstructionsPerChunkHiddenUnderDdr) {
    nlohmann::json r = vector_op_report("silu", "pypo.op.silu(x)", kOneInFlight);
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 25475u);
    EXPECT_EQ(unit_busy_cycles(r, "cluster0.vector0"), 3952u);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "silu");
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(),
              4u * (2 + 2 * 2 + 2));  // per block: 2 loads, 2 x 2 VECTORs, 2 stores
    EXPECT_EQ(r["ops"][0]["vector_cycles"].get<uint64_t>(), 4u * 3952);
}

// Written as the composition it replaces, without fusion sigmoid's result
// goes to DDR and comes back: x is read twice, the intermediate written and
// read once. With fusion the two are a vector chain (docs/timing-model.md
// §10 "Fusion"): sigmoid, then mul reading x again from the same chunk, as
// silu's own lowering does: the same bytes and cycles.
TEST(Silu, TheCompositionMovesTheIntermediateThroughDdr) {
    const std::string apart = std::string(kOneInFlight) + " --no-fusion";
    nlohmann::json r = vector_op_report("silu_composed", "pypo.op.mul(x, pypo.op.sigmoid(x))", apart);
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 3u * 401408);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 2u * 401408);
    EXPECT_GT(r["total_cycles"].get<uint64_t>(), 25475u);
    nlohmann::json f = vector_op_report("silu_fused", "pypo.op.mul(x, pypo.op.sigmoid(x))", kOneInFlight);
    EXPECT_EQ(f["ddr_bytes_read"].get<uint64_t>(), 401408u);
    EXPECT_EQ(f["ddr_bytes_written"].get<uint64_t>(), 401408u);
    EXPECT_EQ(f["total_cycles"].get<uint64_t>(), 25475u);
    EXPECT_EQ(unit_busy_cycles(f, "cluster0.vector0"), 3952u);
}
