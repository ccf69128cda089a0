// pypo.config.MAX_PARALLEL above chip.clusters (timing-model §4, §5, §10):
// several blocks share a cluster, each compiled into one slot's share of L1
// and L0. Performance degrades through the model's own mechanisms -- smaller
// tiles re-read more of A and B from DDR, the co-resident blocks queue for
// the same engines and DMA queues -- never through a penalty term. The
// figures are exact (the simulation is deterministic); the comments say
// which mechanism moves them.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

std::string gemm_512(int max_parallel) {
    return "import pypto as pypo\n"
           "pypo.config.MAX_PARALLEL = " +
           std::to_string(max_parallel) +
           "\n"
           "a = pypo.input(\"a\", shape=(512, 512), dtype=\"float16\")\n"
           "b = pypo.input(\"b\", shape=(512, 512), dtype=\"float16\")\n"
           "c = pypo.op.matmul(a, b)\n"
           "pypo.output(\"c\", c)\n";
}

struct Figures {
    uint64_t cycles = 0, blocks = 0, ddr_read = 0;
};

Figures simulate(int max_parallel, const std::string& config_json = "") {
    const std::string name = "mp_" + std::to_string(max_parallel) + (config_json.empty() ? "" : "_cfg");
    const std::string pto = write_file(name + ".pto", gemm_512(max_parallel));
    std::string extra;
    if (!config_json.empty()) extra = "--config '" + write_file(name + ".json", config_json) + "' ";
    const std::string json = (scratch() / (name + ".report.json")).string();
    Outcome o = run("-q " + extra + "--report-json '" + json + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    const nlohmann::json r = testjson::parse(slurp(json));
    return {r["total_cycles"].get<uint64_t>(), r["blocks"].get<uint64_t>(), r["ddr_bytes_read"].get<uint64_t>()};
}

// Up to chip.clusters (4) nothing is shared: one block per cluster with the
// whole L1 (256 KiB) and L0 (32 KiB). MAX_PARALLEL = 8 puts two blocks on
// each cluster, each compiled for 128 KiB of L1 and 16 KiB of L0; the
// program says so, and the work is cut into twice as many blocks.
TEST(MaxParallel, AboveTheClustersBlocksShareL1AndL0) {
    const std::string p4 = write_file("mp_dump4.pto", gemm_512(4));
    const std::string p8 = write_file("mp_dump8.pto", gemm_512(8));
    Outcome o4 = run("--dump-program '" + p4 + "'");
    Outcome o8 = run("--dump-program '" + p8 + "'");
    ASSERT_EQ(o4.status, 0) << o4.err;
    ASSERT_EQ(o8.status, 0) << o8.err;
    EXPECT_EQ(o4.out.substr(0, o4.out.find('\n')), "program " + p4 + ": 16 blocks, max_parallel 4");
    EXPECT_EQ(o8.out.substr(0, o8.out.find('\n')),
              "program " + p8 + ": 32 blocks, max_parallel 8, slots of 131072 B of L1 and 16384 B of L0");
}

// The timing CSV shows the sharing: with MAX_PARALLEL = 8 some cluster runs
// two blocks at once and none ever runs three; with 4, never two.
TEST(MaxParallel, ClustersHoldCeilOfMaxParallelOverClustersBlocks) {
    for (int mp : {4, 8}) {
        const std::string pto = write_file("mp_csv" + std::to_string(mp) + ".pto", gemm_512(mp));
        const std::string csv = (scratch() / ("mp_csv" + std::to_string(mp) + ".csv")).string();
        Outcome o = run("-q --timing-csv '" + csv + "' '" + pto + "'");
        ASSERT_EQ(o.status, 0) << o.err;
        // Per block: its cluster and the span of its commands.
        std::map<uint64_t, std::pair<uint64_t, std::pair<uint64_t, uint64_t>>> span;
        for (const TimingRow& row : read_timing_csv(csv)) {
            auto [it, fresh] = span.try_emplace(row.block, row.cluster, std::make_pair(row.start, row.end));
            if (!fresh) {
                it->second.second.first = std::min(it->second.second.first, row.start);
                it->second.second.second = std::max(it->second.second.second, row.end);
            }
        }
        size_t most = 0;  // blocks of one cluster running at the same cycle
        for (const auto& [b, info] : span) {
            const uint64_t t = info.second.first;
            size_t here = 0;
            for (const auto& [b2, other] : span)
                here += other.first == info.first && other.second.first <= t && t < other.second.second;
            most = std::max(most, here);
        }
        EXPECT_EQ(most, mp == 4 ? 1u : 2u) << "MAX_PARALLEL = " << mp;
    }
}

// DDR-bound (ddr.bytes_per_cycle 8): each halving of a block's L1 share
// halves the panels of A and B it keeps, so more of them are read again
// from DDR (4 -> 6 -> 8 -> 12 MiB), and the run slows in step: a cliff, as
// the user documents describe, from the mechanism alone.
TEST(MaxParallel, OversubscribingADdrBoundGemmReadsMoreAndSlowsDown) {
    const std::string ddr8 = R"({"ddr": {"bytes_per_cycle": 8}})";
    const Figures f4 = simulate(4, ddr8), f8 = simulate(8, ddr8), f16 = simulate(16, ddr8), f32 = simulate(32, ddr8);
    EXPECT_EQ(f4.ddr_read, 4194304u);
    EXPECT_EQ(f8.ddr_read, 6291456u);
    EXPECT_EQ(f16.ddr_read, 8388608u);
    EXPECT_EQ(f32.ddr_read, 12582912u);
    EXPECT_EQ(f4.cycles, 603684u);
    EXPECT_EQ(f8.cycles, 852078u);
    EXPECT_EQ(f16.cycles, 1114222u);
    EXPECT_EQ(f32.cycles, 1638510u);
}

// Compute-bound (the default 32 B/cycle DDR): two blocks per cluster even
// gain a little -- one block's first loads overlap the other's MATMULs,
// filling the start-up and drain a lone block leaves idle -- but beyond
// that the smaller L0 tiles (4 KiB at 32, 1 KiB at 128 blocks in flight)
// spend ever more of the cube's time on MATMUL start-up (pipeline_cycles per
// command) and on re-reading panels, and the cycles climb.
TEST(MaxParallel, OversubscribingAComputeBoundGemmFirstFillsBubblesThenDegrades) {
    const Figures f4 = simulate(4), f8 = simulate(8), f32 = simulate(32), f64 = simulate(64), f128 = simulate(128);
    EXPECT_EQ(f4.blocks, 16u);
    EXPECT_EQ(f8.blocks, 32u);
    EXPECT_EQ(f4.cycles, 548770u);
    EXPECT_EQ(f8.cycles, 540525u);
    EXPECT_EQ(f32.cycles, 565225u);
    EXPECT_EQ(f64.cycles, 594633u);
    EXPECT_EQ(f128.cycles, 805360u);
}

// When a block's share would be under 1 KiB the program is refused, at the
// assignment, with the arithmetic.
TEST(MaxParallel, AShareUnderOneKibIsAnError) {
    const std::string pto = write_file("mp_200.pto", gemm_512(200));
    Outcome o = run("'" + pto + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.out, "");
    EXPECT_EQ(o.err, pto +
                         ":2:28: error: pypo.config.MAX_PARALLEL = 200 puts 50 blocks on each of the 4 clusters "
                         "at once, and a block's share of L1 (256 KiB) or L0 (32 KiB) would be under 1 KiB\n"
                         "pypo.config.MAX_PARALLEL = 200\n"
                         "                           ^\n");
}

}  // namespace
