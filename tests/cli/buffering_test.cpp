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
    std::istringstream lines(slurp(csv));
    std::string line;
    while (std::getline(lines, line)) {
        // block,cluster,engine,index,start,end,op,tag
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        if (f.size() < 8 || f[2] != "dma0" || f[7].find("panel -> L1") == std::string::npos) continue;
        r.panel_start.push_back(std::stoull(f[4]));
        r.panel_end.push_back(std::stoull(f[5]));
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
// B = 1: panel s + 1 reuses panel s's buffer, so it waits until all four
// cubes have copied panel s's last A tile to L0; and with one L0 buffer
// each tile copy waits for the previous MATMUL. After the B panel lands
// the cubes (cube 3, the last, shown) work through the panel serially:
// flag 1 + B tile 0 261 (the four cubes share the 128 B/cycle L1 port),
// then MATMULs 0-2 (1 + 1031 each: 64*64*64 / 256 + 7 pipeline), A tiles
// 1-3 (1 + 258 each), B tiles 1-2 (258 each), and the flag back to dma0:
// compute = 262 + 3*1032 + 3*259 + 2*258 + 1 = 4652. Only MATMUL 3 overlaps
// the next load. Step time = load + compute = 16586 + 4652 = 21238.
//
// B = 2: panel s + 1 goes to the other buffer and needs only panel s - 1
// released, which happened long ago: per step the cubes need 4 MATMULs of
// 519 cycles (64*64*32 / 256 + 7) and their tile copies, well under the
// 8394 of the load. Step time = max(load, compute) = 8394: dma0 never
// waits.
//
// Per 256 elements of K: 21238 (B = 1) vs 2 * 8394 = 16788 (B = 2); double
// buffering saves the exposed compute 4652 minus the 2 * 101 of latency
// its twice as many (half as large) panel commands cost: 4450 cycles per
// B = 1 step, 8 * 4450 = 35600 in the panel phase. The totals are 175951
// (B = 1) and 141273 (B = 2); the rest of the difference is the tail (the
// last step's compute and the four C write-backs of 1125 cycles each).
TEST(Buffering, DoubleBeatsSingleOnADmaBoundGemm) {
    BufRun single = simulate(1), dbl = simulate(2);
    ASSERT_EQ(single.panel_start.size(), 16u);  // 8 steps x (A, B)
    ASSERT_EQ(dbl.panel_start.size(), 32u);     // 16 steps x (A, B)

    for (size_t i = 0; i < single.panel_start.size(); ++i) EXPECT_EQ(single.panel_end[i] - single.panel_start[i], 8293u);
    for (size_t i = 0; i < dbl.panel_start.size(); ++i) EXPECT_EQ(dbl.panel_end[i] - dbl.panel_start[i], 4197u);
    // B = 1: the A panel of step s + 1 starts 4652 cycles after the B panel
    // of step s ends: step = load 16586 + compute 4652 = 21238.
    for (size_t s = 0; s + 1 < 8; ++s) {
        EXPECT_EQ(single.panel_start[2 * s + 2] - single.panel_end[2 * s + 1], 4652u) << s;
        EXPECT_EQ(single.panel_start[2 * s + 2] - single.panel_start[2 * s], 21238u) << s;
    }
    // B = 2: the loads run back to back: step = load = 8394.
    for (size_t i = 0; i + 1 < dbl.panel_start.size(); ++i) EXPECT_EQ(dbl.panel_start[i + 1], dbl.panel_end[i]) << i;
    EXPECT_EQ(dbl.panel_start[2] - dbl.panel_start[0], 8394u);

    EXPECT_EQ(single.total, 175951u);
    EXPECT_EQ(dbl.total, 141273u);
    EXPECT_LT(dbl.total, single.total);
}

}  // namespace
