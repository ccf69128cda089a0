// The cycle accounting (timing model §9) of the SystemC model, as the real
// davinci-sim binary wrote it with --summary-csv, against the oracle's,
// which classifies every cycle as it steps them; and each DMA command's
// link wait, from --timing-csv.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/oracle/model_csv.h"
#include "tests/oracle/oracle.h"

namespace oracle_test {

struct SummaryRow {
    uint64_t total = 0, busy_cycles = 0, link_wait = 0, flag_wait = 0, issue = 0, idle = 0;
};

// Parses --summary-csv (no field holds a comma), keyed by unit name.
inline std::map<std::string, SummaryRow> parse_summary_csv(const std::string& text) {
    std::map<std::string, SummaryRow> rows;
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line,
              "unit,kind,cluster,total_cycles,busy_cycles,busy,commands,first_active,last_active,link_wait_cycles,"
              "flag_wait_cycles,issue_cycles,idle_cycles,schema_version");
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        if (f.size() != 14) {
            ADD_FAILURE() << "bad summary CSV line: " << line;
            continue;
        }
        rows[f[0]] = {std::stoull(f[3]),  std::stoull(f[4]),  std::stoull(f[9]),
                      std::stoull(f[10]), std::stoull(f[11]), std::stoull(f[12])};
    }
    return rows;
}

// "" when the model's accounting and link waits are the oracle's, else
// what differs (at most a few lines of each).
inline std::string compare_accounting(const oracle::Result& want, const std::map<std::string, SummaryRow>& summary,
                                      const std::map<CsvKey, CsvRow>& timing) {
    std::ostringstream why;
    size_t engines = 0, commands = 0;
    for (const oracle::EngineCycles& e : want.engines) {
        const std::string unit = "cluster" + std::to_string(e.cluster) + "." + arch::engine_name(e.engine);
        auto it = summary.find(unit);
        if (it == summary.end()) {
            if (engines++ < 4) why << "  " << unit << ": missing from the model's summary CSV\n";
            continue;
        }
        const SummaryRow& m = it->second;
        if (e.busy + e.link_wait + e.flag_wait + e.issue + e.idle != want.total_cycles)
            why << "  " << unit << ": the oracle's parts do not sum to " << want.total_cycles << "\n";
        if (m.busy_cycles == e.busy + e.link_wait && m.link_wait == e.link_wait && m.flag_wait == e.flag_wait &&
            m.issue == e.issue && m.idle == e.idle && m.total == want.total_cycles)
            continue;
        if (engines++ < 4)
            why << "  " << unit << " (busy, link wait, flag wait, issue, idle): oracle " << e.busy << ", "
                << e.link_wait << ", " << e.flag_wait << ", " << e.issue << ", " << e.idle << "; model "
                << m.busy_cycles - m.link_wait << ", " << m.link_wait << ", " << m.flag_wait << ", " << m.issue << ", "
                << m.idle << "\n";
    }
    if (summary.size() != want.engines.size())
        why << "  the model's summary has " << summary.size() << " engines, the oracle " << want.engines.size() << "\n";
    for (const oracle::Timing& t : want.commands) {
        auto it = timing.find({t.block, arch::engine_name(t.engine), t.index});
        if (it == timing.end() || it->second.link_wait == t.link_wait) continue;
        if (commands++ < 4)
            why << "  block " << t.block << " " << arch::engine_name(t.engine) << " #" << t.index
                << ": link wait oracle " << t.link_wait << ", model " << it->second.link_wait << "\n";
    }
    if (engines) why << "  " << engines << " engines' accounting differs\n";
    if (commands) why << "  " << commands << " commands' link waits differ\n";
    return why.str();
}

}  // namespace oracle_test
