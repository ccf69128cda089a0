// The JSON report of a davinci-sim run, for the tests that check its figures.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

namespace clitest {

// Runs `davinci-sim -q --report-json FILE ARGS`, FILE in the scratch
// directory named after `name`, and returns the report; a run that fails
// fails the test.
inline nlohmann::json run_report(const std::string& args, const std::string& name) {
    const std::string path = (scratch() / (name + ".json")).string();
    const Outcome o = run("-q --report-json '" + path + "' " + args);
    EXPECT_EQ(o.status, 0) << args << ": " << o.err;
    return testjson::parse(slurp(path));
}

}  // namespace clitest
