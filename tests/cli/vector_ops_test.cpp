// Vector operations end to end through the CLI: relu and batch_norm of a
// (1, 64, 56, 56) float16 tensor on the default hardware (4 clusters, DDR
// 32 B/cycle in 64 B bursts, latency 100; vector 128 B/cycle, pipeline 8).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "vector_op_report.h"

using namespace clitest;

namespace {

// The relu streams 4 blocks (one per cluster) of 2 chunks of 448 rows:
// dma0 runs load 0, load 1, store 0, store 1, each 50176 B = 784 bursts.
// All four clusters start at 1, request at 1, eligible at 2, and take turns
// one burst (2 cycles) each: cluster c's last burst of load 0 starts at
// 2 + 783 * 8 + 2c, so load 0 ends at 6270 + 2c + 100 = 6368 + 2c. Each
// later transfer is eligible one cycle after the previous one ends, the
// clusters still 2 cycles apart, so each adds 1 + 6266 + 100 = 6367 cycles:
// load 1 ends 12735 + 2c, store 0 19102 + 2c, store 1 25469 + 2c. The
// vector work (408 cycles per chunk) hides under the transfers: relu 0
// runs in [6369 + 2c, 6769 + 2c), relu 1 in [12736 + 2c, 13136 + 2c).
// The run ends with cluster 3's last store: 25475, against a DDR bound of
// 2 * 401408 / 32 = 25088. (With one DMA command in flight per engine, as
// derived: each transfer starts when the previous one ends.)
const char* const kOneInFlight = "--set dma.max_outstanding=1";

TEST(VectorOps, ReluIsBoundByDdr) {
    nlohmann::json r = vector_op_report("relu", "pypo.op.relu(x)", kOneInFlight);
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 401408u);
    EXPECT_EQ(r["ddr_bound_cycles"].get<uint64_t>(), 25088u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 25475u);
    // Two relus of 448 x 56 float16: 8 + 50176 / 128 = 400 cycles each.
    EXPECT_EQ(unit_busy_cycles(r, "cluster0.vector0"), 800u);
    EXPECT_GT(r["vector_busy"].get<double>(), 0.0);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "relu");
    EXPECT_EQ(r["ops"][0]["vector_cycles"].get<uint64_t>(), 4u * 800);
}

// batch_norm: per cluster 16 planes in chunks of 5, 5 and 6 planes, each a
// mul and an add of 8 + ceil(planes * 3136 * 2 / 128) cycles: 4 * 253 +
// 2 * 302 = 1616. DDR reads the input and, once per block, the 128-byte
// scale and shift.
TEST(VectorOps, BatchNormReadsParametersOncePerBlock) {
    nlohmann::json r = vector_op_report("bn", "pypo.op.batch_norm(x)");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 401408u + 4 * 2 * 128);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 401408u);
    EXPECT_EQ(unit_busy_cycles(r, "cluster0.vector0"), 1616u);
    const uint64_t total = r["total_cycles"].get<uint64_t>();
    EXPECT_GE(total, r["ddr_bound_cycles"].get<uint64_t>());
    EXPECT_EQ(r["ddr_bound_cycles"].get<uint64_t>(), (2u * 401408 + 1024) / 32);
}

// A chain without fusion: each of relu's blocks waits for the block of
// add(x, x) that wrote its rows (timing model §10, "Block dependencies");
// the clusters' equal shares of add end together, so relu starts as add
// ends. Fused (a vector chain), relu
// runs on add's chunks: add reads its two operands, relu's result alone is
// written.
TEST(VectorOps, ChainedOpsRunInOrder) {
    nlohmann::json r = vector_op_report("chain", "pypo.op.relu(pypo.op.add(x, x))", "--no-fusion");
    ASSERT_EQ(r["ops"].size(), 2u);
    EXPECT_GE(r["ops"][1]["start"].get<uint64_t>(), r["ops"][0]["end"].get<uint64_t>());
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 3u * 401408);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 2u * 401408);
    nlohmann::json f = vector_op_report("chain_fused", "pypo.op.relu(pypo.op.add(x, x))");
    EXPECT_EQ(f["fusion_groups"].get<uint64_t>(), 1u);
    EXPECT_EQ(f["ddr_bytes_read"].get<uint64_t>(), 2u * 401408);
    EXPECT_EQ(f["ddr_bytes_written"].get<uint64_t>(), 401408u);
}

}  // namespace
