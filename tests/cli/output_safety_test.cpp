// Output files appear whole or not at all, and a path that cannot be
// written stops the run before it simulates, not after.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "cli_util.h"

using namespace clitest;

namespace {

namespace fs = std::filesystem;

// A fresh, empty directory per test.
fs::path dir_for(const std::string& name) {
    fs::path d = scratch() / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

TEST(OutputSafety, DirectoryAsOutputFileFailsBeforeSimulating) {
    fs::path d = dir_for("as_dir");
    Outcome o = run("--trace '" + d.string() + "' models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: --trace: cannot write " + d.string() + ": is a directory\n");
    EXPECT_EQ(o.out, "");
}

TEST(OutputSafety, OutputOverTheProgramIsRefused) {
    fs::path d = dir_for("over_input");
    std::string prog = (d / "p.pto").string();
    fs::copy_file(fs::path(DAVINCI_SOURCE_DIR) / "models/gemm_256.pto", prog);
    const std::string before = slurp(prog);
    Outcome o = run("--report-json '" + prog + "' '" + prog + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: --report-json: cannot write " + prog + ": it is an input of this run\n");
    EXPECT_EQ(slurp(prog), before);
}

TEST(OutputSafety, TwoOutputsToOneFileAreRefused) {
    fs::path d = dir_for("two_outputs");
    std::string f = (d / "out").string();
    Outcome o = run("--vcd '" + f + "' --trace '" + f + "' models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: --vcd: cannot write " + f + ": also given to --trace\n");
    EXPECT_FALSE(fs::exists(f));
}

TEST(OutputSafety, ReadOnlyDirectoryFailsBeforeSimulating) {
    if (::geteuid() == 0) GTEST_SKIP() << "root writes to read-only directories";
    fs::path d = dir_for("read_only");
    fs::permissions(d, fs::perms::owner_read | fs::perms::owner_exec);
    Outcome o = run("--vcd '" + (d / "t.vcd").string() + "' models/gemm_256.pto");
    fs::permissions(d, fs::perms::owner_all);
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: --vcd: cannot write " + (d / "t.vcd").string() + ": Permission denied\n");
}

// Every file of a successful run is in place under its own name, and no
// temporary file is left beside it.
TEST(OutputSafety, SuccessLeavesOnlyTheNamedFiles) {
    fs::path d = dir_for("success");
    Outcome o = run("-q --report-json '" + (d / "r.json").string() + "' --trace '" + (d / "t.json").string() +
                    "' --vcd '" + (d / "t.vcd").string() + "' --timing-csv '" + (d / "t.csv").string() +
                    "' --summary-csv '" + (d / "s.csv").string() + "' --profile '" + (d / "p.json").string() +
                    "' --ops-csv '" + (d / "o.csv").string() + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(d)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"o.csv", "p.json", "r.json", "s.csv", "t.csv", "t.json", "t.vcd"}));
    for (const std::string& n : names) EXPECT_GT(fs::file_size(d / n), 0u) << n;
}

// A run that stops (here at the cycle bound) keeps the previous file whole.
TEST(OutputSafety, StoppedRunKeepsThePreviousFile) {
    fs::path d = dir_for("stopped");
    std::string report = (d / "r.json").string();
    write_file("stopped/r.json", "previous\n");
    Outcome o = run("-q --max-cycles 10 --report-json '" + report + "' models/gemm_256.pto");
    EXPECT_EQ(o.status, 3);
    EXPECT_EQ(slurp(report), "previous\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(d), fs::directory_iterator()), 1);
}

TEST(OutputSafety, FullStandardOutputIsAnError) {
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    const std::string err = (scratch() / "full.err").string();
    const int raw = std::system((std::string("cd '") + DAVINCI_SOURCE_DIR + "' && '" + DAVINCI_SIM_BINARY +
                                 "' --dump-program models/gemm_256.pto >/dev/full 2>'" + err + "'")
                                    .c_str());
    EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 4);  // the machine, not davinci-sim
    EXPECT_EQ(slurp(err), "davinci-sim: error: cannot write the standard output\n");
}

}  // namespace
