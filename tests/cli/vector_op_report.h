// The report of one vector operation end to end through the CLI: `call`
// applied to x, a (1, 64, 56, 56) float16 input, on the default hardware
// (vector_ops_test.cpp derives its timing; silu_test.cpp compares with it),
// with `options` (e.g. --set KEY=VALUE) before the program.
#pragma once

#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

namespace clitest {

inline nlohmann::json vector_op_report(const std::string& name, const std::string& call,
                                       const std::string& options = "") {
    std::string pto = write_file(name + ".pto",
                                 "import pypto as pypo\n"
                                 "x = pypo.input(\"x\", shape=(1, 64, 56, 56), dtype=\"float16\")\n"
                                 "y = " +
                                     call +
                                     "\n"
                                     "pypo.output(\"y\", y)\n");
    std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q " + options + " --report-json '" + json + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

// The report of a whole program `pto_text` (written as NAME.pto) with one
// DMA request in flight per engine, the setting the vector-operation tests
// derive their exact cycles under.
inline nlohmann::json program_report(const std::string& name, const std::string& pto_text) {
    std::string pto = write_file(name + ".pto", pto_text);
    std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q --set dma.max_outstanding=1 --report-json '" + json + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

// The busy cycles of engine `unit` ("cluster0.vector0") in a report.
inline uint64_t unit_busy_cycles(const nlohmann::json& r, const std::string& unit) {
    for (const auto& u : r["units"])
        if (u["name"] == unit) return u["busy_cycles"].get<uint64_t>();
    return ~uint64_t{0};
}

}  // namespace clitest
