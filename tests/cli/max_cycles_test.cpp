// --max-cycles N bounds a run: a program ending at cycle N completes, one
// that would run to N + 1 stops with exit status 3 and writes nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_util.h"

using namespace clitest;

namespace {

// One 4x4x64 matmul on cube0: 72 cycles (docs/timing-model.md), whatever
// the compiler does, since the program is given as commands.
std::string one_matmul() {
    return write_file("one_matmul.json", R"({"blocks": [{"streams": [{"engine": "cube0", "commands": [
        {"op": "matmul", "m": 4, "k": 4, "n": 64}]}]}]})");
}

TEST(MaxCycles, ProgramEndingAtTheBoundCompletes) {
    std::string report = (scratch() / "at_bound.json").string();
    Outcome o = run("-q --max-cycles 72 --report-json '" + report + "' --program-json '" + one_matmul() + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.err, "");
    EXPECT_NE(slurp(report).find("\"total_cycles\": 72,"), std::string::npos);
}

TEST(MaxCycles, OneCycleShortStopsWithStatus3) {
    std::string report = (scratch() / "short.json").string();
    std::filesystem::remove(report);
    Outcome o = run("--max-cycles 71 --report-json '" + report + "' --program-json '" + one_matmul() + "'");
    EXPECT_EQ(o.status, 3);
    EXPECT_EQ(o.err,
              "davinci-sim: error: the simulation had not finished at cycle 71 (--max-cycles 71); no report or "
              "traces written\n");
    EXPECT_EQ(o.out, "");
    EXPECT_FALSE(std::filesystem::exists(report));
}

// A long compiled program: stopped early, not run to its 34 million cycles.
TEST(MaxCycles, StopsALongRunEarly) {
    Outcome o = run("--max-cycles 100000 models/gemm_2048.pto");
    EXPECT_EQ(o.status, 3);
    EXPECT_EQ(o.err,
              "davinci-sim: error: the simulation had not finished at cycle 100000 (--max-cycles 100000); no "
              "report or traces written\n");
}

TEST(MaxCycles, BadValues) {
    for (const char* bad : {"0", "-1", "1e6", "", "99999999999999999999"}) {
        Outcome o = run(std::string("--max-cycles '") + bad + "' models/gemm_256.pto");
        EXPECT_EQ(o.status, 2) << bad;
        EXPECT_EQ(
            o.err.substr(0, o.err.find('\n')),
            std::string("davinci-sim: error: --max-cycles: expected a positive number of cycles, got '") + bad + "'");
    }
}

}  // namespace
