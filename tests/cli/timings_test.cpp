// --timings: where a run's wall time went, phase by phase, and the SystemC
// process activations (the benchmark harness reads this table).
#include <gtest/gtest.h>

#include <regex>

#include "cli_util.h"

using namespace clitest;

namespace {

// The table with its seconds and microseconds blanked: what is exact.
std::string exact_part(const std::string& err) {
    return std::regex_replace(err, std::regex(" +[0-9]+\\.[0-9]{6} +[0-9]+\\.[0-9]{3}\n"), " S U\n");
}

}  // namespace

TEST(Timings, PrintsEveryPhaseTheCommandsAndTheActivations) {
    Outcome o = run("-q --timings models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out, "");
    // The activations of gemm_256 on the default hardware: deterministic,
    // and what an optimisation of the event structure changes.
    EXPECT_EQ(exact_part(o.err),
              "timings: 928 commands\n"
              "  phase          seconds   us/command\n"
              "  parse S U\n"
              "  lower S U\n"
              "  check S U\n"
              "  spool S U\n"
              "  simulate S U\n"
              "  outputs S U\n"
              "  total S U\n"
              "  SystemC: 1,209 process activations (1.303 per command), 734 delta cycles (0.791 per command)\n");
}

// README.md's example is this run's table, but for its seconds.
TEST(Timings, TheReadmeExampleIsCurrent) {
    const std::string readme = slurp(std::string(DAVINCI_SOURCE_DIR) + "/README.md");
    const std::string command = "$ davinci-sim -q --timings models/gemm_256.pto\n";
    const size_t at = readme.find(command);
    ASSERT_NE(at, std::string::npos) << "README.md no longer has: " << command;
    const size_t from = at + command.size(), to = readme.find("```", from);
    ASSERT_NE(to, std::string::npos);
    Outcome o = run("-q --timings models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(exact_part(readme.substr(from, to - from)), exact_part(o.err))
        << "README.md's --timings example is stale: paste this in\n"
        << o.err;
}

TEST(Timings, ThePhasesAddUpToTheTotal) {
    Outcome o = run("-q --timings models/resnet_block.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    std::smatch m;
    double sum = 0, total = -1;
    for (std::string rest = o.err;
         std::regex_search(rest, m, std::regex("  ([a-z]+) +([0-9]+\\.[0-9]{6}) +[0-9]+\\.[0-9]{3}\n"));
         rest = m.suffix()) {
        if (m[1] == "total") total = std::stod(m[2]);
        else sum += std::stod(m[2]);
    }
    EXPECT_GT(total, 0);
    EXPECT_NEAR(sum, total, 1e-5);  // each printed to the microsecond
}

TEST(Timings, NothingWithoutTheOption) {
    Outcome o = run("-q models/gemm_256.pto");
    ASSERT_EQ(o.status, 0);
    EXPECT_EQ(o.err, "");
}

TEST(Timings, TheSameActivationsEveryRun) {
    const std::string a = exact_part(run("-q --timings models/resnet_block.pto").err);
    EXPECT_NE(a.find("process activations"), std::string::npos);
    EXPECT_EQ(a, exact_part(run("-q --timings models/resnet_block.pto").err));
}
