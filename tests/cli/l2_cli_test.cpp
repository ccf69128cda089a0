// The L2 cache from the command line (docs/timing-model.md §6.1): README's
// example, the 2048^3 GEMM on the Ascend-class preset with and without its
// L2, and what the report, the JSON and the traces say about it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_report.h"
#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

// README "The hardware model": the operands come from DDR once, the rest
// of their re-reads hit the L2 (24 MiB of operands and result in a
// 192 MiB L2), and C stays in it to the end, as the flush.
TEST(L2Cli, ReadmeExampleGemm2048OnTheAscendPreset) {
    const nlohmann::json with = run_report("--config configs/ascend_910b_class.json models/gemm_2048.pto", "with");
    const nlohmann::json without =
        run_report("--config configs/ascend_910b_class.json --set l2.kib=0 models/gemm_2048.pto", "without");
    EXPECT_EQ(without["total_cycles"], 247292);
    EXPECT_EQ(without["ddr_bytes_read"], 201326592);
    EXPECT_FALSE(without.contains("l2"));
    EXPECT_EQ(with["total_cycles"], 129363);
    EXPECT_EQ(with["ddr_bytes_read"], 2ull * 2048 * 2048 * 2);  // A and B, once
    EXPECT_EQ(with["ddr_bytes_written"], 2048ull * 2048 * 2);   // C, as the flush
    const nlohmann::json& l2 = with["l2"];
    EXPECT_EQ(l2["kib"], 196608);
    EXPECT_EQ(l2["line_bytes"], 512);
    EXPECT_EQ(l2["read_misses"], 32768);  // 16 MiB of operands in 512-byte lines
    EXPECT_EQ(l2["read_hits"], 491520);
    EXPECT_EQ(l2["writebacks"], 0);
    EXPECT_EQ(l2["flush_bytes"], 2048ull * 2048 * 2);
    EXPECT_EQ(with["memory"]["l2"]["read"], without["memory"]["ddr"]["read"]);
    // The link kinds: the DMA commands cross the L2's read and write ports,
    // DDR serves the L2 (the preset's vector cores load into their Unified
    // Buffers over it too).
    ASSERT_EQ(with["links"][0]["name"], "l2_l1_ub_read");
    EXPECT_EQ(with["links"][0]["label"], "L2 -> L1/UB");
    EXPECT_EQ(with["links"][0]["peak_bytes_per_cycle"], 2640);
    EXPECT_EQ(with["links"][0]["bytes"], without["memory"]["ddr"]["read"]);
    ASSERT_EQ(with["links"][1]["name"], "l2_l1_ub_write");
    EXPECT_EQ(with["links"][1]["label"], "L1/UB -> L2");
    EXPECT_EQ(with["links"][1]["peak_bytes_per_cycle"], 2064);
    EXPECT_EQ(with["links"][1]["bytes"], 2048ull * 2048 * 2);  // C
    ASSERT_EQ(with["links"][1]["directions"].size(), 1u);
    EXPECT_EQ(with["links"][1]["directions"][0]["from"], "L1/UB");
    ASSERT_EQ(with["links"][2]["name"], "ddr_l2");
    EXPECT_EQ(with["links"][2]["label"], "DDR <-> L2");
    EXPECT_EQ(with["links"][2]["bytes"], 2ull * 2048 * 2048 * 2);  // the flush is not link traffic
}

// README: the L2's write port of its own, on flash attention at S = 8,192
// (as the vendor's kernel runs, docs/validation.md): every step writes its
// scores and probabilities through the L2, beside the reads of the next.
TEST(L2Cli, ReadmeExampleWritePortOnFlashAttention) {
    const std::string fa =
        "--config configs/ascend_910b2.json --shape q=8192,128 --shape kt=128,8192 --shape v=8192,128 "
        "--param qblock=128 --param block=256 --param tm=128 --param tn=128 --param parallel=48 "
        "models/flash_attention.pto";
    const nlohmann::json two = run_report(fa, "fa_two_ports");
    const nlohmann::json one = run_report("--set l2.write_bytes_per_cycle=0 " + fa, "fa_one_port");
    EXPECT_EQ(two["total_cycles"], 472188);
    EXPECT_EQ(one["total_cycles"], 512634);
    EXPECT_EQ(two["links"][0]["name"], "l2_l1_ub_read");
    EXPECT_EQ(two["links"][1]["name"], "l2_l1_ub_write");
    EXPECT_EQ(one["links"][0]["name"], "l2_l1_ub");
    // The same bytes cross the two ports as the one.
    EXPECT_EQ(two["links"][0]["bytes"].get<uint64_t>() + two["links"][1]["bytes"].get<uint64_t>(),
              one["links"][0]["bytes"].get<uint64_t>());
}

TEST(L2Cli, TextReportShowsLookupsAndTheFlush) {
    Outcome o = run("--config configs/ascend_910b_class.json models/gemm_2048.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("DDR bytes          read 16,777,216, written 8,388,608 (8,388,608 of them the L2's flush at "
                         "the end)\n"),
              std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("L2 cache           196,608 KiB, 512 B lines, 16 ways: 0 write-backs\n"
                         "  read lookups     491,520 hits / 32,768 misses (93.8 % hits)\n"
                         "  write lookups    16,384 hits / 16,384 misses (50.0 % hits)\n"),
              std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("  L2 -> L1/UB "), std::string::npos);
    EXPECT_NE(o.out.find("  L1/UB -> L2 "), std::string::npos);
    EXPECT_NE(o.out.find("  DDR <-> L2 "), std::string::npos);
}

// The VCD names the port links.l2 and shows the L2's DDR transfers on
// links.ddr; without an L2 there is only links.ddr, the DMA commands.
TEST(L2Cli, VcdShowsBothLinks) {
    const std::string with = (scratch() / "l2.vcd").string(), without = (scratch() / "nol2.vcd").string();
    ASSERT_EQ(run("-q --set l2.kib=64 --vcd '" + with + "' models/gemm_256.pto").status, 0);
    ASSERT_EQ(run("-q --vcd '" + without + "' models/gemm_256.pto").status, 0);
    const std::string a = slurp(with), b = slurp(without);
    EXPECT_NE(a.find("$scope module l2 $end"), std::string::npos);
    EXPECT_NE(a.find("$scope module ddr $end"), std::string::npos);
    EXPECT_EQ(b.find("$scope module l2 $end"), std::string::npos);
    EXPECT_NE(b.find("$scope module ddr $end"), std::string::npos);
}

TEST(L2Cli, ChromeTraceCountsDdrBytesInFlight) {
    const std::string trace = (scratch() / "l2.json").string();
    ASSERT_EQ(run("-q --set l2.kib=64 --trace '" + trace + "' models/gemm_256.pto").status, 0);
    const std::string t = slurp(trace);
    EXPECT_NE(t.find("\"name\":\"L2 port bytes in flight\""), std::string::npos);
    EXPECT_NE(t.find("\"name\":\"DDR bytes in flight\""), std::string::npos);
    EXPECT_NO_THROW((void)testjson::parse(t));
}

TEST(L2Cli, BadGeometryIsAConfigError) {
    Outcome o = run("--set l2.kib=100 --set l2.line_bytes=512 models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(
        o.err,
        "davinci-sim: error: --set: l2.kib: 100 KiB is not a whole number of sets of l2.ways x l2.line_bytes = 16 "
        "x 512 bytes\n");
}
