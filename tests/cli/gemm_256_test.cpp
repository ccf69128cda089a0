// End to end through the CLI: models/gemm_256.pto on the default hardware.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"

using namespace clitest;

namespace {

// The cycle count, derived by hand from docs/timing-model.md. Tiling (§10,
// the cheapest estimate; tests/dsl/gemm_cost_test.cpp): 64 x 64 C tiles
// with kt = 4, 128x128 blocks (one per cluster, 4 blocks), panels kb = 4
// deep (64 k-steps), so each cube runs 64 MATMULs 64x4x64 of 16*16*4 + 7 =
// 1031 cycles (operands: 16384 B at 512 B/cycle, 32 cycles). All four
// clusters start at cycle 1 (dispatch_cycles = 1). DDR: 32 B/cycle, 64 B
// bursts (2 cycles), latency 100. L1 port: 128 B/cycle, 128 B bursts
// (1 cycle), latency 4. Flag latency 1.
//
// DDR, A panel 0 (128 rows x 4 elements = 1 KiB = 16 bursts per cluster):
// all four eligible at 2, round-robin from requester 0, rounds of 8
// cycles: cluster c's last burst is [122+2c, 124+2c), it ends at 224+2c.
// B panel 0 (1 KiB) is requested at 224+2c (eligible 225+2c); again one
// burst per cluster per 8 cycles: the last [345+2c, 347+2c), ends 447+2c.
//
// Cluster c, cube q: A tile 0 (64 x 4 x 2 = 512 B = 4 L1 bursts) loaded
// after the A panel's flag, long before B tile 0, which waits for the B
// panel (448+2c), is eligible at 449+2c and, the four cube DMAs taking
// turns every cycle, has its last burst at 461+2c+q: ends 466+2c+q.
// MATMUL 0 starts one cycle later, 467+2c+q.
//
// Steady state: the tiles of step u wait for MATMUL u - 2 to free their
// L0 buffer (+1) and take 18 to 21 cycles each, in L0 long before MATMUL
// u - 1 ends; dma0 loads a panel pair in 446 cycles and may run two
// panels ahead of the cubes. Nothing waits for data: the MATMULs run back
// to back and MATMUL 63 ends 467+2c+q + 64*1031 = 66451+2c+q.
//
// Write-back: the accumulator to L1 (8 KiB = 64 bursts) starts at
// 66452+2c+q, the four cubes interleave: ends 66710+2c+q. dma0 stores the
// four C tiles (8 KiB = 128 DDR bursts each) in cube order. Tile 0 starts
// at 66711+2c, eligible 66712+2c; the clusters, 2 cycles apart,
// interleave: last burst [67728+2c, 67730+2c), ends 67830+2c. Each further
// tile starts at the previous one's end, is eligible a cycle later, gets
// one burst per 8-cycle round (the last ends 1 + 127*8 + 2 = 1019 cycles
// after the start) and 100 cycles of latency: +1119 each, ending
// 68949+2c, 70068+2c, 71187+2c.
//
// The last block (c = 3) ends at 71187 + 6 = 71193. (With the tiling the
// compiler chose before the cost model, 64x64x32 and 128-deep panels, it
// took 78,849: its first panel pair, 32 times larger, kept the cubes idle
// until cycle 8,515 instead of 467.)
constexpr uint64_t kGemm256Cycles = 71193;

TEST(Gemm256, CycleCountMatchesTheHandDerivation) {
    std::string json = (scratch() / "gemm256.json").string();
    Outcome o = run("--report-json '" + json + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    nlohmann::json r = nlohmann::json::parse(slurp(json));
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), kGemm256Cycles);
    // Each of the 4 blocks reads 64 steps x (1 KiB of A + 1 KiB of B): 512 KiB;
    // C is written once: 128 KiB.
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 524288u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 131072u);
    EXPECT_EQ(r["macs"].get<uint64_t>(), 256u * 256 * 256);
    EXPECT_NE(o.out.find("total cycles       71,193"), std::string::npos) << o.out;
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
    EXPECT_EQ(r["ops"][0]["start"].get<uint64_t>(), 1u);
    EXPECT_EQ(r["ops"][0]["end"].get<uint64_t>(), kGemm256Cycles);
    EXPECT_EQ(r["ops"][0]["macs"].get<uint64_t>(), 256u * 256 * 256);
    EXPECT_EQ(r["ops"][0]["cube_cycles"].get<uint64_t>(), 16u * 64 * 1031);  // 16 cubes x 64 MATMULs x 1031
    ASSERT_EQ(r["tasks"].size(), 1u);
    EXPECT_EQ(r["tasks"][0]["name"], "");
    double u = r["cube_utilization"].get<double>();
    EXPECT_DOUBLE_EQ(u, double(256 * 256 * 256) / (16.0 * 16.0 * double(kGemm256Cycles)));
}

}  // namespace
