// End to end through the CLI: models/gemm_256.pto on the default hardware.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"

using namespace clitest;

namespace {

// The cycle count, derived by hand from docs/timing-model.md. Tiling (§10):
// cube tiles 64x32x64, 128x128 blocks (one per cluster, 4 blocks), panels
// kb = 128 deep (2 steps), so each cube runs 8 MATMULs of 8199 cycles. All
// four clusters start at cycle 1 (dispatch_cycles = 1). DDR: 32 B/cycle,
// 64 B bursts (2 cycles), latency 100. L1 port: 128 B/cycle, 128 B bursts
// (1 cycle), latency 4. Flag latency 1. Loop control (§5, §10): without
// unroll= every step of an engine's k-loop is an iteration, whose first
// command (dma0's A panel, a cube DMA's A tile, a cube's MATMUL) is issued
// cluster.loop_overhead_cycles = 8 cycles after the engine is ready, in
// parallel with its flag waits.
//
// DDR, A panel 0 (32 KiB = 512 bursts per cluster): issued at 1 + 8 = 9 (no
// flags to wait for), all four eligible at 10, round-robin from requester
// 0, round of 8 cycles; cluster c's last burst is [4098+2c, 4100+2c): it
// ends at 4200+2c. B panel 0 (same iteration: no loop control) is then
// requested at 4200+2c (eligible 4201+2c): the link serves c = 0,1,2,3,0,...
// one burst every 2 cycles from 4201, the last of cluster c at
// [8289+2c, 8291+2c): ends 8391+2c.
//
// Cluster c, cube q (only B panel 0 binds; A tile 0 was loaded long before):
// B tile 0 (4 KiB = 32 bursts) waits for the panel (8392+2c), eligible
// 8393+2c, the four cube DMAs take turns every cycle: ends 8522+2c+q.
// MATMUL 0 starts one cycle later, 8523+2c+q (its loop control, from the
// block's start, long done), ends 16722+2c+q. MATMULs 1-7 each start 8
// cycles of loop control after the previous one ends (their tiles are in
// L0 in time: each tile pair takes 130 cycles once its buffer frees, and
// the A tile's own loop control overlaps that wait), so MATMUL 7 ends
// 8523+8*8199+7*8+2c+q = 74171+2c+q. The write-back to L1 (8 KiB = 64
// bursts, after the loop: no loop control) starts at 74172+2c+q, the four
// cubes interleave from 74173+2c: ends 74426+2c+q+4 = 74430+2c+q.
//
// dma0 stores the four C tiles (8 KiB = 128 DDR bursts each) in cube order,
// after the loop. Tile 0: waits for cube 0 (74431+2c), eligible 74432+2c;
// the clusters, 2 cycles apart, interleave: last burst [75448+2c,
// 75450+2c), ends 75550+2c. Each further tile starts at the previous one's
// end, is eligible a cycle later, gets one burst per 8-cycle round (128
// bursts: the last ends 1 + 127*8 + 2 = 1019 cycles after the start) and
// 100 cycles of latency: +1119 each, ending 76669+2c, 77788+2c, 78907+2c.
//
// The last block (c = 3) ends at 78907 + 6 = 78913: the 78849 of free loop
// control plus 8 (A panel 0) + 7 * 8 (MATMULs 1-7) on the critical path.
constexpr uint64_t kGemm256Cycles = 78913;

TEST(Gemm256, CycleCountMatchesTheHandDerivation) {
    std::string json = (scratch() / "gemm256.json").string();
    Outcome o = run("--report-json '" + json + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    nlohmann::json r = nlohmann::json::parse(slurp(json));
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), kGemm256Cycles);
    // Each of the 4 blocks reads 2 steps x (32 KiB of A + 32 KiB of B): 512 KiB;
    // C is written once: 128 KiB.
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 524288u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 131072u);
    EXPECT_EQ(r["macs"].get<uint64_t>(), 256u * 256 * 256);
    EXPECT_NE(o.out.find("total cycles       78,913"), std::string::npos) << o.out;
}

TEST(Gemm256, TwoRunsGiveIdenticalOutput) {
    std::string j1 = (scratch() / "a.json").string(), j2 = (scratch() / "b.json").string();
    std::string c1 = (scratch() / "a.csv").string(), c2 = (scratch() / "b.csv").string();
    Outcome a = run("--report-json '" + j1 + "' --timing-csv '" + c1 + "' models/gemm_256.pto");
    Outcome b = run("--report-json '" + j2 + "' --timing-csv '" + c2 + "' models/gemm_256.pto");
    ASSERT_EQ(a.status, 0) << a.err;
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(slurp(j1), slurp(j2));
    EXPECT_EQ(slurp(c1), slurp(c2));
    EXPECT_FALSE(slurp(c1).empty());
}

TEST(Gemm256, ReportJsonHasTheDocumentedKeys) {
    std::string json = (scratch() / "keys.json").string();
    ASSERT_EQ(run("-q --report-json '" + json + "' models/gemm_256.pto").status, 0);
    nlohmann::json r = nlohmann::json::parse(slurp(json));
    for (const char* key : {"total_cycles", "clock_ghz", "cube_utilization", "ddr_bytes_read", "ddr_bytes_written",
                            "units", "links"})
        EXPECT_TRUE(r.contains(key)) << key;
    EXPECT_TRUE(r["total_cycles"].is_number_unsigned());
    EXPECT_EQ(r["units"].size(), 4u * (1 + 4 + 4 + 1));  // per cluster: dma0, 4 cube DMAs, 4 cubes, vector0
    ASSERT_EQ(r["links"].size(), 3u);
    EXPECT_EQ(r["links"][0]["name"], "ddr_l1");
    EXPECT_EQ(r["links"][0]["bytes"].get<uint64_t>(), 524288u + 131072u);
    EXPECT_EQ(r["links"][1]["name"], "l1_l0");
    EXPECT_EQ(r["links"][2]["name"], "l0_cube");
    // One program operation, charged with every command it became.
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["name"], "c");
    EXPECT_EQ(r["ops"][0]["kind"], "matmul");
    EXPECT_EQ(r["ops"][0]["task"], "");
    EXPECT_EQ(r["ops"][0]["start"].get<uint64_t>(), 9u);  // A panel 0, after its loop control
    EXPECT_EQ(r["ops"][0]["end"].get<uint64_t>(), kGemm256Cycles);
    EXPECT_EQ(r["ops"][0]["macs"].get<uint64_t>(), 256u * 256 * 256);
    EXPECT_EQ(r["ops"][0]["cube_cycles"].get<uint64_t>(), 16u * 8 * 8199);  // 16 cubes x 8 MATMULs x 8199
    ASSERT_EQ(r["tasks"].size(), 1u);
    EXPECT_EQ(r["tasks"][0]["name"], "");
    double u = r["cube_utilization"].get<double>();
    EXPECT_DOUBLE_EQ(u, double(256 * 256 * 256) / (16.0 * 16.0 * double(kGemm256Cycles)));
}

}  // namespace
