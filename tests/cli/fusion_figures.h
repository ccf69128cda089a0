// What the fusion tests compare between runs (fused, --no-fusion, one
// operation alone): the report's cycles, DDR bytes and fusion groups.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

namespace clitest {

struct FusionFigures {
    uint64_t cycles = 0, read = 0, written = 0, groups = 0;
};

// Runs davinci-sim with `args` (options and the program) and reads its JSON report.
inline FusionFigures measure_fusion(const std::string& args) {
    const std::string json = (scratch() / "fusion_figures.json").string();
    const Outcome o = run("-q --report-json '" + json + "' " + args);
    EXPECT_EQ(o.status, 0) << o.err;
    if (o.status != 0) return {};
    const nlohmann::json r = testjson::parse(slurp(json));
    return {r["total_cycles"].get<uint64_t>(), r["ddr_bytes_read"].get<uint64_t>(),
            r["ddr_bytes_written"].get<uint64_t>(), r["fusion_groups"].get<uint64_t>()};
}

}  // namespace clitest
