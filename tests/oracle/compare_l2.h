// The L2 cache's figures (timing model §6.1) in the model's --report-json
// against the oracle's, for the cross-checks and the random tests.
#pragma once

#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "sim/arch/config.h"
#include "tests/oracle/oracle.h"

namespace oracle_test {

// The L2's figures in the model's --report-json against the oracle's.
inline std::string compare_l2(const oracle::L2Counts& want, const nlohmann::json& report, const arch::Config& c) {
    if (!report.contains("l2")) return "  the model's report has no l2\n";
    const nlohmann::json& l2 = report["l2"];
    const uint64_t L = uint64_t(c.l2_line_bytes);
    const std::pair<const char*, uint64_t> expected[] = {
        {"read_hits", want.read_hits},       {"read_misses", want.read_misses}, {"write_hits", want.write_hits},
        {"write_misses", want.write_misses}, {"writebacks", want.writebacks},   {"flush_bytes", want.flush_lines * L}};
    std::ostringstream why;
    for (const auto& [key, value] : expected)
        if (l2[key].get<uint64_t>() != value)
            why << "  l2." << key << ": oracle " << value << ", model " << l2[key].get<uint64_t>() << "\n";
    if (report["ddr_bytes_read"].get<uint64_t>() != want.fills * L + want.gathered_bytes)
        why << "  ddr_bytes_read: oracle " << want.fills * L + want.gathered_bytes << ", model "
            << report["ddr_bytes_read"] << "\n";
    return why.str();
}

}  // namespace oracle_test
