// The invalid-program corpus (tests/dsl/invalid) through the real command:
// each program stops with exactly its expected diagnostic on stderr, nothing
// on stdout, and exit status 2 — no crash, no cascade of follow-on errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "cli_util.h"

using namespace clitest;

namespace {

namespace fs = std::filesystem;

std::vector<std::string> corpus() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(fs::path(DAVINCI_SOURCE_DIR) / "tests/dsl/invalid"))
        if (e.path().extension() == ".pto") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

class InvalidProgramCli : public testing::TestWithParam<std::string> {};

TEST_P(InvalidProgramCli, OneDiagnosticAndExitStatus2) {
    std::string rel = "tests/dsl/invalid/" + GetParam() + ".pto";
    std::string text = slurp(std::string(DAVINCI_SOURCE_DIR) + "/" + rel);
    std::string args;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line) && line.rfind("# --shape ", 0) == 0) args += "--shape '" + line.substr(10) + "' ";
    Outcome o = run(args + "'" + rel + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.out, "");
    EXPECT_EQ(o.err, slurp(std::string(DAVINCI_SOURCE_DIR) + "/tests/dsl/invalid/" + GetParam() + ".expected"));
}

INSTANTIATE_TEST_SUITE_P(Corpus, InvalidProgramCli, testing::ValuesIn(corpus()),
                         [](const testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
