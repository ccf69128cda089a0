#include "sim/trace/summary_csv.h"

#include <algorithm>
#include <cstdio>

namespace trace {

void SummaryRecorder::on_command(const CommandRecord& r, const arch::Command&) {
    Row& row = rows_[{r.cluster, arch::engine_order(r.engine)}];
    row.account.add(r);
    ++row.commands;
    row.first = std::min(row.first, r.start);
    row.last = std::max(row.last, r.end);
}

std::string SummaryRecorder::format(const arch::Config& c, uint64_t total_cycles) const {
    const std::string row_end = "," + std::to_string(kSummaryCsvSchemaVersion) + "\n";
    std::string out =
        "unit,kind,cluster,total_cycles,busy_cycles,busy,commands,first_active,last_active,link_wait_cycles,"
        "flag_wait_cycles,issue_cycles,idle_cycles,schema_version\n";
    for (int64_t cl = 0; cl < c.clusters; ++cl) {
        for (arch::EngineId e : arch::cluster_engines(c)) {
            auto it = rows_.find({uint32_t(cl), arch::engine_order(e)});
            Row row = it == rows_.end() ? Row{} : it->second;
            const CycleSplit split = row.account.split(total_cycles);
            char share[32];
            std::snprintf(share, sizeof share, "%.4f",
                          total_cycles ? double(row.account.busy_cycles()) / double(total_cycles) : 0.0);
            out += "cluster" + std::to_string(cl) + "." + arch::engine_name(e) + "," + arch::engine_kind_name(e.kind) +
                   "," + std::to_string(cl) + "," + std::to_string(total_cycles) + "," +
                   std::to_string(row.account.busy_cycles()) + "," + share + "," + std::to_string(row.commands) + "," +
                   (row.commands ? std::to_string(row.first) : "") + "," +
                   (row.commands ? std::to_string(row.last) : "") + "," + std::to_string(split.link_wait) + "," +
                   std::to_string(split.flag_wait) + "," + std::to_string(split.issue) + "," +
                   std::to_string(split.idle) + row_end;
        }
    }
    return out;
}

std::string format_summary_csv(const arch::Config& c, const std::vector<CommandRecord>& records,
                               uint64_t total_cycles) {
    SummaryRecorder summary;
    const arch::Command unused;
    for (const CommandRecord& r : records) summary.on_command(r, unused);
    return summary.format(c, total_cycles);
}

}  // namespace trace
