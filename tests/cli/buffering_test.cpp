// Single vs double buffering (pypo.config.BUFFERS, docs/timing-model.md
// §10) on a DMA-bound GEMM, end to end through the CLI.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

// C[128 x 128] = A[128 x 2048] @ B[2048 x 128], float16, on one cluster of
// four cubes with 16 x 16 MACs (256 MACs/cycle) behind an 8 B/cycle DDR
// link: one 128 x 128 block of four 64 x 64 C tiles, and the DDR link is
// the bottleneck (a panel pair takes twice as long to load as the cubes
// take to multiply it). One DMA command in flight per engine
// (dma.max_outstanding = 1), as the derivation below assumes: each panel
// load pays its latency before the next starts.
const char* kConfig = R"({"chip": {"clusters": 1}, "cube": {"mac_rows": 16, "mac_cols": 16},
                          "ddr": {"bytes_per_cycle": 8}, "dma": {"max_outstanding": 1}})";

std::string program(int buffers) {
    return "import pypto as pypo\n"
           "pypo.config.BUFFERS = " +
           std::to_string(buffers) +
           "\n"
           "a = pypo.input(\"a\", shape=(128, 2048), dtype=\"float16\")\n"
           "b = pypo.input(\"b\", shape=(2048, 128), dtype=\"float16\")\n"
           "pypo.output(\"c\", pypo.op.matmul(a, b))\n";
}

struct BufRun {
    uint64_t total = 0;
    std::vector<uint64_t> panel_start, panel_end;  // dma0's DDR -> L1 loads, A and B alternating
};

BufRun simulate(int buffers) {
    const std::string tag = "buf" + std::to_string(buffers);
    const std::string cfg = write_file(tag + ".json", kConfig), pto = write_file(tag + ".pto", program(buffers));
    const std::string json = (scratch() / (tag + ".report.json")).string();
    const std::string csv = (scratch() / (tag + ".csv")).string();
    Outcome o = run("-q -c '" + cfg + "' --report-json '" + json + "' --timing-csv '" + csv + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    BufRun r;
    r.total = testjson::parse(slurp(json))["total_cycles"].get<uint64_t>();
    for (const TimingRow& row : read_timing_csv(csv)) {
        if (row.engine != "dma0" || row.tag.find("panel -> L1") == std::string::npos) continue;
        r.panel_start.push_back(row.start);
        r.panel_end.push_back(row.end);
    }
    return r;
}

// Why double buffering wins, in cycles (the numbers below are the run's).
//
// Tiling (§10), chosen by estimated cost for the actual depth B: 64 x 64 C
// tiles (their float32 accumulators take 16 KiB of the 32 KiB L0); at
// B = 1 k-steps kt = 64 with panels kb = 64 deep (32 steps, one tile
// each), at B = 2 kt = 32 with panels kb = 128 deep (16 steps, 4 tiles
// each).
//
// A panel load (DDR -> L1) is one DMA command: a cycle to start, the bytes
// at 8 B/cycle and 100 cycles of latency: 16 KiB (B = 1) takes 1 + 2048 +
// 100 = 2149 cycles, 32 KiB (B = 2) 1 + 4096 + 100 = 4197. Each k-step
// loads an A and a B panel on dma0: load = 4298 (B = 1) or 8394 (B = 2).
//
// Loop control (§5, §10): the matmul has no unroll=, so every step of an
// engine's k-loop starts an iteration, and its first command (dma0: the A
// panel; a cube's DMA engine: the A tile; a cube: the MATMUL) is issued
// cluster.loop_overhead_cycles = 8 cycles after the previous command ends,
// in parallel with its flag waits. It costs time only where nothing is
// awaited. The block starts at cycle 1, so A panel 0 starts at 1 + 8 = 9
// for both depths.
//
// B = 1: panel s + 1 reuses panel s's buffer, so it waits until all four
// cubes have copied panel s's A tile to L0; and with one L0 buffer that
// copy waits for the previous MATMUL (64*64*64 / 256 + 7 = 1031 cycles).
// With one tile per panel neither wait costs anything: the A tile (258
// cycles, the four cubes sharing the 128 B/cycle L1 port) is copied while
// dma0 loads the B panel (2149), and the MATMUL of the step before ended
// 1031 cycles after its B tile, long before. The cost model picked the
// panel depth at which one buffer serialises nothing but a tile copy that
// hides behind DDR. dma0 awaits nothing, so its loop control is exposed:
// each A panel starts 8 cycles after the previous B panel ends. Step time
// = 8 + load = 4306, and the last B panel ends at 1 + 32 * 4306 = 137793.
//
// B = 2: panel s + 1 goes to the other buffer and needs only panel s - 1
// released, which happened long ago: per step the cubes need 4 MATMULs of
// 519 cycles (64*64*32 / 256 + 7) and their tile copies, well under the
// 8394 of the load. dma0 awaits nothing here either: step time = 8 + load
// = 8402, and the last B panel ends at 1 + 16 * 8402 = 134433.
//
// Per 128 elements of K: 2 * 4306 = 8612 (B = 1) vs 8402 (B = 2): single
// buffering pays one more command latency pair and one more loop control
// per 128 of K, 16 x 210 = 3360 cycles in all.
//
// The tails, from the last B panel's end to the last store's, on cube 0
// (first on the L1 port, whose write-back dma0 stores first):
//   B = 1: flag 1 + B tile 258 + flag 1 + MATMUL 1031 (its loop control
//     hidden behind the flag), flag 1 + write-back 258 (64 x 64 float16
//     over the shared L1 port), flag 1 + four C stores of 1125 (8 KiB: 1 +
//     1024 + 100): 1291 + 259 + 4501 = 6051.
//   B = 2: flag 1 + B tile 130 + flag 1, four MATMULs of 519 of which the
//     last three start 8 cycles after the previous one ends (their tiles
//     are already in L0: the loop control is exposed), flag 1 + write-back
//     258, flag 1 + 4 * 1125: 132 + 4 * 519 + 3 * 8 + 259 + 4501 = 6992.
// The totals: 137793 + 6051 = 143844 (B = 1) and 134433 + 6992 = 141425
// (B = 2): double buffering wins by 3360 - 941 = 2419. (With deeper
// single-buffered panels, several tiles each, the copy of a panel's last
// tile waits for MATMULs and the step takes load + compute: the tiling
// the compiler chose before the cost model, kb = 256, took 175959 here.)
TEST(Buffering, DoubleBeatsSingleOnADmaBoundGemm) {
    BufRun single = simulate(1), dbl = simulate(2);
    ASSERT_EQ(single.panel_start.size(), 64u);  // 32 steps x (A, B)
    ASSERT_EQ(dbl.panel_start.size(), 32u);     // 16 steps x (A, B)

    for (size_t i = 0; i < single.panel_start.size(); ++i)
        EXPECT_EQ(single.panel_end[i] - single.panel_start[i], 2149u);
    for (size_t i = 0; i < dbl.panel_start.size(); ++i) EXPECT_EQ(dbl.panel_end[i] - dbl.panel_start[i], 4197u);
    // Loop control before the first A panel: block start 1 + 8.
    EXPECT_EQ(single.panel_start[0], 9u);
    EXPECT_EQ(dbl.panel_start[0], 9u);
    // Both: each B panel follows its A panel at once, and each A panel
    // starts after the 8 cycles of loop control (B = 1: step = 8 + 4298 =
    // 4306; B = 2: step = 8 + 8394 = 8402).
    for (size_t i = 0; i + 1 < single.panel_start.size(); ++i)
        EXPECT_EQ(single.panel_start[i + 1], single.panel_end[i] + (i % 2 == 1 ? 8 : 0)) << i;
    for (size_t i = 0; i + 1 < dbl.panel_start.size(); ++i)
        EXPECT_EQ(dbl.panel_start[i + 1], dbl.panel_end[i] + (i % 2 == 1 ? 8 : 0)) << i;
    EXPECT_EQ(single.panel_start[2] - single.panel_start[0], 4306u);
    EXPECT_EQ(dbl.panel_start[2] - dbl.panel_start[0], 8402u);
    EXPECT_EQ(single.panel_end.back(), 137793u);
    EXPECT_EQ(dbl.panel_end.back(), 134433u);

    EXPECT_EQ(single.total, 143844u);
    EXPECT_EQ(dbl.total, 141425u);
    EXPECT_LT(dbl.total, single.total);
}

}  // namespace
