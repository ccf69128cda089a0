// --summary-csv: one row per engine, consistent with the report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

TEST(SummaryCsv, OneRowPerEngineMatchingTheReport) {
    std::string csv = (scratch() / "s.csv").string(), json = (scratch() / "s.json").string();
    // One DMA command in flight per engine, as the derivation in
    // tests/cli/gemm_256_test.cpp assumes.
    Outcome o = run("-q --set dma.max_outstanding=1 --summary-csv '" + csv + "' --report-json '" + json +
                    "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    std::string text = slurp(csv);
    // Cube 0 of cluster 0 runs 16 MATMULs of 4103 cycles from 1291 to 67059,
    // 15 * 8 cycles of loop control between them (derived in
    // tests/cli/gemm_256_test.cpp): busy 65648 of 71801 cycles. Its cycle
    // accounting (docs/timing-model.md §9): no link; waiting on flags (its
    // first tiles) from its block's start at 1 to 1291, 1290 cycles; the
    // loop control, 120 issue cycles; idle in cycle 0 and from 67059, 4743.
    EXPECT_NE(text.find("\ncluster0.cube0,cube,0,71801,65648,0.9143,16,1291,67059,0,1290,120,4743,2\n"),
              std::string::npos)
        << text;
    nlohmann::json r = testjson::parse(slurp(json));
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line,
              "unit,kind,cluster,total_cycles,busy_cycles,busy,commands,first_active,last_active,link_wait_cycles,"
              "flag_wait_cycles,issue_cycles,idle_cycles,schema_version");
    size_t rows = 0;
    while (std::getline(lines, line)) {
        std::string unit = line.substr(0, line.find(','));
        const auto& u = r["units"][rows++];
        EXPECT_EQ(u["name"], unit);
        std::vector<std::string> f;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) f.push_back(cell);
        ASSERT_EQ(f.size(), 14u) << line;
        EXPECT_EQ(std::stoull(f[4]), u["busy_cycles"].get<uint64_t>()) << unit;
        EXPECT_EQ(std::stoull(f[9]), u["link_wait_cycles"].get<uint64_t>()) << unit;
        EXPECT_EQ(std::stoull(f[10]), u["flag_wait_cycles"].get<uint64_t>()) << unit;
        EXPECT_EQ(std::stoull(f[11]), u["issue_cycles"].get<uint64_t>()) << unit;
        EXPECT_EQ(std::stoull(f[12]), u["idle_cycles"].get<uint64_t>()) << unit;
        // The accounting sums to the run: link waits are part of the busy cycles.
        EXPECT_LE(std::stoull(f[9]), std::stoull(f[4])) << unit;
        EXPECT_EQ(std::stoull(f[4]) + std::stoull(f[10]) + std::stoull(f[11]) + std::stoull(f[12]), std::stoull(f[3]))
            << unit;
    }
    EXPECT_EQ(rows, r["units"].size());
}

namespace {

// The indented lines after `command` in README.md, without their indent.
std::string readme_output(const std::string& command) {
    const std::string readme = slurp(std::string(DAVINCI_SOURCE_DIR) + "/README.md");
    const size_t at = readme.find("    $ " + command + "\n");
    EXPECT_NE(at, std::string::npos) << "README.md no longer has the example: " << command;
    if (at == std::string::npos) return "";
    std::istringstream after(readme.substr(at + command.size() + 7));
    std::string expected, line;
    while (std::getline(after, line) && line.rfind("    ", 0) == 0) expected += line.substr(4) + "\n";
    return expected;
}

}  // namespace

// README.md's cycle accounting examples, run as written (the grep done here).
TEST(SummaryCsv, TheReadmeExample) {
    const std::string table = readme_output("build/davinci-sim models/gemm_256.pto | grep -A5 '^cycle accounting'");
    Outcome o = run("models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("\n" + table), std::string::npos) << "README.md's cycle accounting is stale:\n" << o.out;

    const std::string rows = readme_output(
        "build/davinci-sim -q --summary-csv summary.csv models/gemm_256.pto && grep -E "
        "'^unit|^cluster0\\.(dma0|cube0)' summary.csv");
    const std::string csv = (scratch() / "readme_summary.csv").string();
    o = run("-q --summary-csv '" + csv + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    std::istringstream lines(slurp(csv));
    std::string picked, line;
    while (std::getline(lines, line))
        if (line.rfind("unit,", 0) == 0 || line.rfind("cluster0.dma0,", 0) == 0 || line.rfind("cluster0.cube0", 0) == 0)
            picked += line + "\n";
    EXPECT_EQ(picked, rows) << "README.md's --summary-csv example is stale: paste this in";
}
