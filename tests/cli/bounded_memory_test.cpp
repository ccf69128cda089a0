// A run without --trace or --vcd spools the compiled program to disk and
// holds only the blocks in flight (sim/arch/block_spool.h), writes the CSVs
// as blocks end and the profile from records spooled to disk: its outputs
// are the in-memory run's byte for byte, and its memory does not grow with
// the program (a 540 x 960 super-resolution frame, 3,562 blocks and 2.1 M
// commands, took 725 MB held whole).
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <string>

#include "tests/cli/cli_util.h"

namespace {

using clitest::run;
using clitest::scratch;
using clitest::slurp;

struct Case {
    const char* name;
    const char* args;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.args; }

class SpooledRun : public ::testing::TestWithParam<Case> {};

// --vcd needs every command's record, so that run holds the program. The
// CSVs are written as the run goes and the profile from spooled records,
// either way.
TEST_P(SpooledRun, OutputsMatchTheInMemoryRun) {
    auto outputs = [](const std::string& prefix) {
        const std::string p = (scratch() / prefix).string();
        return " --report-json " + p + ".json --timing-csv " + p + ".timing.csv --summary-csv " + p +
               ".summary.csv --profile " + p + ".profile.json";
    };
    const std::string vcd = (scratch() / "held.vcd").string();
    const clitest::Outcome a = run(std::string(GetParam().args) + outputs("spooled"));
    const clitest::Outcome b = run(std::string(GetParam().args) + outputs("held") + " --vcd " + vcd);
    ASSERT_EQ(a.status, 0) << a.err;
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(a.out, b.out);
    for (const char* file : {".json", ".timing.csv", ".summary.csv", ".profile.json"}) {
        const std::string spooled = slurp((scratch() / ("spooled" + std::string(file))).string());
        EXPECT_FALSE(spooled.empty()) << file;
        EXPECT_EQ(spooled, slurp((scratch() / ("held" + std::string(file))).string())) << file;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Models, SpooledRun,
    ::testing::Values(Case{"gemm_2048", "models/gemm_2048.pto"}, Case{"attention", "models/attention.pto"},
                      Case{"resnet50", "--shape input=1,3,224,224 models/resnet50.pto"},
                      Case{"resnet_block", "models/resnet_block.pto"},
                      Case{"memory_placement", "models/memory_placement.pto"}, Case{"slide", "models/slide.pto"},
                      Case{"transpose", "models/transpose.pto"},
                      Case{"super_resolution", "--shape img=1,1,120,160 models/super_resolution.pto"},
                      Case{"edge_npu", "--config configs/edge_npu.json models/resnet_block.pto"}),
    [](const auto& info) { return std::string(info.param.name); });

// The bound: the frame's program would take some 700 MB in memory (725 MB
// measured when it had 2,057,916 commands). A regression
// to holding it (or every command record) fails here by a wide margin.
TEST(BoundedMemory, LargeFrameRunsInLittleMemory) {
    const std::string csv = (scratch() / "frame.timing.csv").string();
    const std::string profile = (scratch() / "frame.profile.json").string();
    const clitest::Outcome o = run("-q --shape img=1,1,540,960 models/super_resolution.pto --timing-csv " + csv +
                                   " --summary-csv " + csv + ".summary --profile " + profile);
    ASSERT_EQ(o.status, 0) << o.err;
    rusage usage{};
    ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &usage), 0);
    // AddressSanitizer keeps freed memory in quarantine and adds shadow
    // memory (850 MB here): the bound is for the real build.
#if defined(__SANITIZE_ADDRESS__)
    (void)usage;
#else
    EXPECT_LT(usage.ru_maxrss, 150 * 1024) << "peak resident KiB of the largest child";
#endif
    // Every command is in the timing CSV all the same.
    const std::string rows = slurp(csv);
    // With fusion (the default) the activations' epilogues are VECTOR commands
    // per C tile, 9,172 more than the 1,985,016 of the separate vector
    // streams; the run takes 53,845,156 cycles (60,304,114 with --no-fusion).
    EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 1994189);  // the header and 1,994,188 commands
    EXPECT_NE(slurp(profile).find("\"total_cycles\":53845156,"), std::string::npos);
}

// The spool needs a writable temporary directory, and says which.
TEST(BoundedMemory, UnwritableTemporaryDirectoryIsNamed) {
    scratch();  // made before TMPDIR changes
    ASSERT_EQ(::setenv("TMPDIR", "/nonexistent-davinci-dir", 1), 0);
    const clitest::Outcome bad = run("-q models/gemm_256.pto");
    ::unsetenv("TMPDIR");
    EXPECT_EQ(bad.status, 4);  // the machine, not the input or davinci-sim
    EXPECT_EQ(bad.out, "");
    EXPECT_EQ(bad.err,
              "davinci-sim: error: cannot create a temporary file in /nonexistent-davinci-dir (large results are "
              "spooled there; set TMPDIR to choose another directory): No such file or directory\n");
}

// --trace and --vcd hold every command, about 1 KiB each: a program that
// cannot fit the machine is refused before it is simulated (gemm_256 has 928
// commands, so 950,272 bytes; DAVINCI_SIM_MEMORY_BYTES stands for the machine).
TEST(BoundedMemory, TraceOfAProgramTooLargeForTheMachineIsRefused) {
    scratch();
    const std::string vcd = (scratch() / "refused.vcd").string();
    ASSERT_EQ(::setenv("DAVINCI_SIM_MEMORY_BYTES", "950271", 1), 0);
    const clitest::Outcome refused = run("-q models/gemm_256.pto --vcd " + vcd);
    const clitest::Outcome both = run("-q models/gemm_256.pto --vcd " + vcd + " --trace " + vcd + ".json");
    ASSERT_EQ(::setenv("DAVINCI_SIM_MEMORY_BYTES", "950272", 1), 0);
    const clitest::Outcome fits = run("-q models/gemm_256.pto --vcd " + vcd);
    ::unsetenv("DAVINCI_SIM_MEMORY_BYTES");
    EXPECT_EQ(refused.status, 2);
    EXPECT_EQ(refused.err,
              "davinci-sim: error: --vcd keeps every command of the run in memory, about 1 KiB each: this program has "
              "928 commands (about 0.9 MiB), more than the 0.9 MiB this machine has; show part of the run "
              "(--trace-window, --trace-clusters, --trace-ops), or use --timing-csv, --summary-csv and --profile, "
              "which write to disk as the run goes\n");
    EXPECT_EQ(both.status, 2);
    EXPECT_EQ(both.err.rfind("davinci-sim: error: --trace with --vcd keeps every command", 0), 0u) << both.err;
    EXPECT_EQ(fits.status, 0) << fits.err;
    EXPECT_FALSE(slurp(vcd).empty());
}

}  // namespace
