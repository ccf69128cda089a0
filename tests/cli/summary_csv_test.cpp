// --summary-csv: one row per engine, consistent with the report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_util.h"

using namespace clitest;

TEST(SummaryCsv, OneRowPerEngineMatchingTheReport) {
    std::string csv = (scratch() / "s.csv").string(), json = (scratch() / "s.json").string();
    Outcome o = run("-q --summary-csv '" + csv + "' --report-json '" + json + "' models/gemm_256.pto");
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
    nlohmann::json r = nlohmann::json::parse(slurp(json));
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
