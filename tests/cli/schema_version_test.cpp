// Every JSON and CSV file davinci-sim writes says the version of its format
// ("schema_version"), and --program-json refuses a version it does not read.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

std::string path(const std::string& name) { return (scratch() / name).string(); }

// Every line of a CSV ends with its last column: "schema_version" in the
// header, the version in each row.
void expect_version_column(const std::string& csv, const std::string& version) {
    std::istringstream lines(csv);
    std::string line;
    ASSERT_TRUE(std::getline(lines, line));
    EXPECT_EQ(line.substr(line.rfind(',') + 1), "schema_version") << line;
    size_t rows = 0;
    while (std::getline(lines, line)) {
        EXPECT_EQ(line.substr(line.rfind(',') + 1), version) << line;
        ++rows;
    }
    EXPECT_GT(rows, 0u);
}

}  // namespace

TEST(SchemaVersion, EveryOutputCarriesIt) {
    const Outcome o =
        run("-q --report-json '" + path("sv_report.json") + "' --profile '" + path("sv_profile.json") + "' --trace '" +
            path("sv_trace.json") + "' --summary-csv '" + path("sv_summary.csv") + "' --timing-csv '" +
            path("sv_timing.csv") + "' --ops-csv '" + path("sv_ops.csv") + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(testjson::parse(slurp(path("sv_report.json")))["schema_version"], 2);
    const nlohmann::json profile = testjson::parse(slurp(path("sv_profile.json")));
    EXPECT_EQ(profile["schema_version"], 1);
    EXPECT_EQ(profile["schema"], "davinci-sim-profile/1");
    const std::string trace = slurp(path("sv_trace.json"));
    EXPECT_EQ(testjson::parse(trace)["schema_version"], 1);
    // The last key, after the events: Perfetto stops reading at a top-level
    // key it does not know.
    const std::string end = "\n],\"schema_version\":1}\n";
    EXPECT_EQ(trace.substr(trace.size() - end.size()), end);
    expect_version_column(slurp(path("sv_summary.csv")), "2");
    expect_version_column(slurp(path("sv_timing.csv")), "3");
    expect_version_column(slurp(path("sv_ops.csv")), "1");
    ASSERT_EQ(run("--emit-program-json '" + path("sv_program.json") + "' models/gemm_256.pto").status, 0);
    EXPECT_EQ(testjson::parse(slurp(path("sv_program.json")))["schema_version"], 1);
}

// The emitted program reads back, and simulates as its .pto does.
TEST(SchemaVersion, AnEmittedProgramReadsBack) {
    ASSERT_EQ(run("--emit-program-json '" + path("sv_back.json") + "' models/gemm_256.pto").status, 0);
    const Outcome o =
        run("-q --report-json '" + path("sv_back_report.json") + "' --program-json '" + path("sv_back.json") + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(testjson::parse(slurp(path("sv_back_report.json")))["total_cycles"], 71421u);
}

// A hand-written program need not say it; an unknown version is refused.
TEST(SchemaVersion, TheProgramReaderChecksIt) {
    const char* program = R"("blocks": [{"streams": [{"engine": "cube0", "commands": [
        {"op": "matmul", "m": 16, "k": 16, "n": 16}]}]}])";
    const std::string none = write_file("sv_none.json", std::string("{") + program + "}");
    EXPECT_EQ(run("-q --program-json '" + none + "'").status, 0);
    const std::string one = write_file("sv_one.json", std::string("{\"schema_version\": 1, ") + program + "}");
    EXPECT_EQ(run("-q --program-json '" + one + "'").status, 0);
    const std::string two = write_file("sv_two.json", std::string("{\"schema_version\": 2, ") + program + "}");
    Outcome o = run("-q --program-json '" + two + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: " + two +
                         ": schema_version: this davinci-sim reads version 1 of the program format, got 2\n");
    const std::string text = write_file("sv_text.json", std::string("{\"schema_version\": \"1\", ") + program + "}");
    o = run("-q --program-json '" + text + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: " + text +
                         ": schema_version: this davinci-sim reads version 1 of the program format, got \"1\"\n");
}
