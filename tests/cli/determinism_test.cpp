// The same run twice gives the same bytes: report, JSON report, every trace
// and profile. Nothing may depend on addresses, hash order, the clock or the
// order SystemC happens to run processes in.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_util.h"

using namespace clitest;

namespace {

namespace fs = std::filesystem;

const char* const kOutputs[] = {"report.json", "trace.json", "trace.vcd", "timing.csv", "summary.csv", "profile.json"};

Outcome run_into(const fs::path& dir, const std::string& program) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    auto at = [&](const char* name) { return "'" + (dir / name).string() + "'"; };
    return run("--report-json " + at("report.json") + " --trace " + at("trace.json") + " --vcd " + at("trace.vcd") +
               " --timing-csv " + at("timing.csv") + " --summary-csv " + at("summary.csv") + " --profile " +
               at("profile.json") + " " + program);
}

void expect_identical_runs(const std::string& program) {
    Outcome first = run_into(scratch() / "first", program);
    ASSERT_EQ(first.status, 0) << first.err;
    Outcome second = run_into(scratch() / "second", program);
    ASSERT_EQ(second.status, 0) << second.err;
    EXPECT_EQ(first.out, second.out);
    for (const char* name : kOutputs) {
        const std::string a = slurp((scratch() / "first" / name).string());
        EXPECT_FALSE(a.empty()) << name;
        EXPECT_TRUE(a == slurp((scratch() / "second" / name).string())) << name << " differs between two runs";
    }
}

// Several clusters sharing DDR, flags across engines, vector and cube work.
TEST(Determinism, AttentionTwiceIsByteIdentical) { expect_identical_runs("models/attention.pto"); }

TEST(Determinism, ResnetBlockTwiceIsByteIdentical) { expect_identical_runs("models/resnet_block.pto"); }

}  // namespace
