// matmul(..., unroll=u): the k-loop of each engine holds u k-steps per
// iteration, so only every u-th step pays cluster.loop_overhead_cycles of
// loop control (docs/timing-model.md §5, §10). End to end on the 256 x 256
// x 256 GEMM of models/gemm_256.pto, whose cycle count
// tests/cli/gemm_256_test.cpp derives with one DMA command in flight per
// engine (dma.max_outstanding = 1, pinned here too), with that GEMM's tiling
// fixed by tile=(64, 64, 16) (the compiler also weighs loop control when it
// chooses the tiling: with unroll=4 alone it would take 8-deep k-steps,
// 71,305 cycles, since each step then pays less; 70,925 with the default 8
// in flight).
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

std::string program(const std::string& args) {
    return "import pypto as pypo\n"
           "a = pypo.input(\"a\", shape=(256, 256), dtype=\"float16\")\n"
           "b = pypo.input(\"b\", shape=(256, 256), dtype=\"float16\")\n"
           "pypo.output(\"c\", pypo.op.matmul(a, b, tile=(64, 64, 16)" +
           args + "))\n";
}

struct UnrollRun {
    uint64_t total = 0;
    std::vector<uint64_t> mm_start, mm_end;  // cluster 0's cube0, in order
};

UnrollRun simulate(const std::string& name, const std::string& args, const std::string& config = "") {
    const std::string pto = write_file(name + ".pto", program(args));
    const std::string json = (scratch() / (name + ".json")).string(), csv = (scratch() / (name + ".csv")).string();
    std::string cfg;
    if (!config.empty()) cfg = " -c '" + write_file(name + ".config.json", config) + "'";
    Outcome o = run("-q" + cfg + " --set dma.max_outstanding=1 --report-json '" + json + "' --timing-csv '" + csv +
                    "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    UnrollRun r;
    r.total = testjson::parse(slurp(json))["total_cycles"].get<uint64_t>();
    for (const TimingRow& row : read_timing_csv(csv)) {
        if (row.block != 0 || row.engine != "cube0") continue;
        r.mm_start.push_back(row.start);
        r.mm_end.push_back(row.end);
    }
    return r;
}

// Each cube runs 16 MATMULs back to back (k-steps 0-15, kt = kb = 16), and
// they are the critical path: MATMUL 0 waits for its B tile, which hides
// its loop control, and every later MATMUL that starts an iteration of the
// cube's loop starts 8 cycles (cluster.loop_overhead_cycles) after the
// previous one ends. dma0's first A panel pays 8 cycles after the block's
// start whatever the unroll (step 0 always starts an iteration); the
// panels after it wait for nothing on the critical path (dma0 runs ahead).
//   free loop control (loop_overhead_cycles 0): 71801 - 8 - 15 * 8 = 71673;
//   unroll=1 (the default): A panel 0 + MATMULs 1-15: 71673 + 8 + 15 * 8 = 71801
//     (tests/cli/gemm_256_test.cpp derives it);
//   unroll=4: A panel 0 + MATMULs 4, 8, 12:         71673 + 8 + 3 * 8  = 71705;
//   unroll=8: A panel 0 + MATMUL 8:                 71673 + 8 + 8      = 71689;
//   unroll=16: A panel 0 only (one iteration per cube): 71673 + 8      = 71681.
// So unroll=4 saves 12 * 8 = 96 cycles over unroll=1: the MATMULs of
// k-steps 1-3, 5-7, 9-11 and 13-15 no longer pay loop control.
TEST(Unroll, FourKStepsPerIterationSaveTheirLoopControl) {
    UnrollRun free = simulate("free", "", R"({"cluster": {"loop_overhead_cycles": 0}})");
    UnrollRun u1 = simulate("u1", ""), u1x = simulate("u1x", ", unroll=1"), u4 = simulate("u4", ", unroll=4"),
              u8 = simulate("u8", ", unroll=8"), u16 = simulate("u16", ", unroll=16");
    EXPECT_EQ(free.total, 71673u);
    EXPECT_EQ(u1.total, 71801u);
    EXPECT_EQ(u1x.total, u1.total);  // unroll=1 is the default
    EXPECT_EQ(u4.total, 71705u);
    EXPECT_EQ(u8.total, 71689u);
    EXPECT_EQ(u16.total, 71681u);
    EXPECT_EQ(u1.total - u4.total, 96u);

    // The gaps between cube0's MATMULs: loop control where an iteration starts.
    ASSERT_EQ(u1.mm_start.size(), 16u);
    ASSERT_EQ(u4.mm_start.size(), 16u);
    for (size_t i = 1; i < 16; ++i) {
        EXPECT_EQ(u1.mm_start[i] - u1.mm_end[i - 1], 8u) << i;
        EXPECT_EQ(u4.mm_start[i] - u4.mm_end[i - 1], i % 4 == 0 ? 8u : 0u) << i;
        EXPECT_EQ(u8.mm_start[i] - u8.mm_end[i - 1], i % 8 == 0 ? 8u : 0u) << i;
        EXPECT_EQ(u16.mm_start[i] - u16.mm_end[i - 1], 0u) << i;
        EXPECT_EQ(free.mm_start[i] - free.mm_end[i - 1], 0u) << i;
    }
    // MATMUL 0 waits for B panel 0 either way: 8 later than with free loop
    // control only because A panel 0, and so the whole load chain, is.
    EXPECT_EQ(u4.mm_start[0], free.mm_start[0] + 8);
}

// unroll= is in the compiled program: --dump-program shows the loop control
// on the first command of every fourth k-step of cube0, and nowhere else.
TEST(Unroll, AppearsInTheCompiledProgram) {
    const std::string pto = write_file("dump.pto", program(", unroll=4"));
    Outcome o = run("--dump-program '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    const std::string cube0 = o.out.substr(o.out.find("  cube0: 16 commands\n"));
    std::istringstream lines(cube0);
    std::string line;
    std::getline(lines, line);
    for (int i = 0; i < 16; ++i) {
        ASSERT_TRUE(std::getline(lines, line));
        EXPECT_EQ(line.rfind("    " + std::to_string(i) + ": MATMUL 64x16x64 float16", 0), 0u) << line;
        EXPECT_EQ(line.find("  issue 8  wait(") != std::string::npos, i % 4 == 0) << line;
    }
    // And in the JSON form, on the same commands.
    const std::string prog = (scratch() / "dump.program.json").string();
    ASSERT_EQ(run("--emit-program-json '" + prog + "' '" + pto + "'").status, 0);
    nlohmann::json j = testjson::parse(slurp(prog));
    for (const auto& s : j["blocks"][0]["streams"]) {
        if (s["engine"] != "cube0") continue;
        for (size_t i = 0; i < s["commands"].size(); ++i)
            EXPECT_EQ(s["commands"][i].value("issue_cycles", 0), i % 4 == 0 ? 8 : 0) << i;
    }
}

TEST(Unroll, MustBePositive) {
    const std::string pto = write_file("zero.pto", program(", unroll=0"));
    Outcome o = run("'" + pto + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.err.find("error: matmul: unroll must be positive, got 0"), std::string::npos) << o.err;
}

}  // namespace
