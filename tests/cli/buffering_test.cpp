// Single vs double buffering (pypo.config.BUFFERS, docs/timing-model.md
// §10) on a DMA-bound GEMM, end to end through the CLI.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.h"

using namespace clitest;

namespace {

// C[128 x 128] = A[128 x 2048] @ B[2048 x 128], float16, on one cluster of
// four cubes with 16 x 16 MACs (256 MACs/cycle) behind an 8 B/cycle DDR
// link: one 128 x 128 block of four 64 x 64 C tiles, and the DDR link is
// the bottleneck (a panel pair takes twice as long to load as the cubes
// take to multiply it).
const char* kConfig = R"({"chip": {"clusters": 1}, "cube": {"mac_rows": 16, "mac_cols": 16},
                          "ddr": {"bytes_per_cycle": 8}})";

std::string program(int buffers) {
    return "import pypto as pypo\n"
           "pypo.config.BUFFERS = " + std::to_string(buffers) + "\n"
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
    r.total = nlohmann::json::parse(slurp(json))["total_cycles"].get<uint64_t>();
    for (const TimingRow& row : read_timing_csv(csv)) {
        if (row.engine != "dma0" || row.tag.find("panel -> L1") == std::string::npos) continue;
        r.panel_start.push_back(row.start);
        r.panel_end.push_back(row.end);
    }
    return r;
}

// Why double buffering wins, in cycles (the numbers below are the run's).
//
// Tiling (§10) for the actual depth B: L0 (32 KiB) holds B A/B tile pairs
// and the 64 x 64 float32 accumulator (16 KiB), so kt = 64 for B = 1 and
// kt = 32 for B = 2; L1 (256 KiB) holds B panel pairs and the 32 KiB C
// block, so kb = 256 for B = 1 (8 k-steps) and kb = 128 for B = 2 (16).
//
// A panel load (DDR -> L1) is one DMA command: 100 cycles of latency, the
// bytes at 8 B/cycle, and a cycle to start: 64 KiB (B = 1) takes
// 100 + 8192 + 1 = 8293 cycles, 32 KiB (B = 2) 100 + 4096 + 1 = 4197. Each
// k-step loads an A and a B panel on dma0: load = 16586 (B = 1) or 8394.
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
// cubes have copied panel s's last A tile to L0; and with one L0 buffer
// each tile copy waits for the previous MATMUL. After the B panel lands
// the cubes (cube 3, the last, shown) work through the panel serially:
// flag 1 + B tile 0 261 (the four cubes share the 128 B/cycle L1 port),
// then MATMULs 0-2 (1 + 1031 each: 64*64*64 / 256 + 7 pipeline), A tiles
// 1-3 (1 + 258 each), B tiles 1-2 (258 each), and the flag back to dma0:
// compute = 262 + 3*1032 + 3*259 + 2*258 + 1 = 4652. Every command that
// carries loop control here waits for a flag longer than 8 cycles (an A
// panel for the cubes, an A tile for the previous MATMUL, a MATMUL for its
// B tile), so none of it shows. Only MATMUL 3 overlaps the next load. Step
// time = load + compute = 16586 + 4652 = 21238, and the last B panel ends
// at 9 + 8 * 16586 + 7 * 4652 = 165261.
//
// B = 2: panel s + 1 goes to the other buffer and needs only panel s - 1
// released, which happened long ago: per step the cubes need 4 MATMULs of
// 519 cycles (64*64*32 / 256 + 7) and their tile copies, well under the
// 8394 of the load. dma0 awaits nothing, so its loop control is exposed:
// each A panel starts 8 cycles after the previous B panel ends. Step time =
// 8 + max(load, compute) = 8402, and the last B panel ends at
// 1 + 16 * 8402 = 134433.
//
// Per 256 elements of K: 21238 (B = 1) vs 2 * 8402 = 16804 (B = 2): double
// buffering saves the exposed compute 4652, less the 2 * 101 of latency
// its twice as many (half as large) panel commands cost and the 8 cycles
// of loop control of its second step: 4434 cycles per B = 1 step.
//
// The tails, from the last B panel's end to the last store's, on cube 0
// (first on the L1 port, whose write-back dma0 stores first):
//   B = 1: flag 1 + B tile 258 + flag 1 + MATMUL 1031, then three k-steps
//     of 1 + A tile 258 + B tile 258 + 1 + MATMUL 1031 (= 1549; the loop
//     control again hidden behind the flags), flag 1 + write-back 258
//     (64 x 64 float16 over the shared L1 port), flag 1 + four C stores of
//     1125 (8 KiB: 1 + 1024 + 100): 1291 + 3 * 1549 + 259 + 4501 = 10698.
//   B = 2: flag 1 + B tile 130 + flag 1, four MATMULs of 519 of which the
//     last three start 8 cycles after the previous one ends (their tiles
//     are already in L0: the loop control is exposed), flag 1 + write-back
//     258, flag 1 + 4 * 1125: 132 + 4 * 519 + 3 * 8 + 259 + 4501 = 6992.
// The totals: 165261 + 10698 = 175959 (B = 1) and 134433 + 6992 = 141425
// (B = 2).
TEST(Buffering, DoubleBeatsSingleOnADmaBoundGemm) {
    BufRun single = simulate(1), dbl = simulate(2);
    ASSERT_EQ(single.panel_start.size(), 16u);  // 8 steps x (A, B)
    ASSERT_EQ(dbl.panel_start.size(), 32u);     // 16 steps x (A, B)

    for (size_t i = 0; i < single.panel_start.size(); ++i) EXPECT_EQ(single.panel_end[i] - single.panel_start[i], 8293u);
    for (size_t i = 0; i < dbl.panel_start.size(); ++i) EXPECT_EQ(dbl.panel_end[i] - dbl.panel_start[i], 4197u);
    // Loop control before the first A panel: block start 1 + 8.
    EXPECT_EQ(single.panel_start[0], 9u);
    EXPECT_EQ(dbl.panel_start[0], 9u);
    // B = 1: the A panel of step s + 1 starts 4652 cycles after the B panel
    // of step s ends: step = load 16586 + compute 4652 = 21238.
    for (size_t s = 0; s + 1 < 8; ++s) {
        EXPECT_EQ(single.panel_start[2 * s + 2] - single.panel_end[2 * s + 1], 4652u) << s;
        EXPECT_EQ(single.panel_start[2 * s + 2] - single.panel_start[2 * s], 21238u) << s;
    }
    EXPECT_EQ(single.panel_end.back(), 165261u);
    // B = 2: each B panel follows its A panel at once, and each A panel
    // starts after the 8 cycles of loop control: step = 8 + load = 8402.
    for (size_t i = 0; i + 1 < dbl.panel_start.size(); ++i)
        EXPECT_EQ(dbl.panel_start[i + 1], dbl.panel_end[i] + (i % 2 == 1 ? 8 : 0)) << i;
    EXPECT_EQ(dbl.panel_start[2] - dbl.panel_start[0], 8402u);
    EXPECT_EQ(dbl.panel_end.back(), 134433u);

    EXPECT_EQ(single.total, 175959u);
    EXPECT_EQ(dbl.total, 141425u);
    EXPECT_LT(dbl.total, single.total);
}

}  // namespace
