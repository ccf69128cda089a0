// The per-unit pipe summary kernel authors know from vendor cost models:
// one row per engine of every cluster with the run's total cycles, the
// engine's busy cycles and share, its command count, its first and last
// active cycle (empty when it never ran), and its cycle accounting (timing
// model §9): link waits (part of the busy cycles), flag waits, issue and
// idle cycles, so that busy + flag wait + issue + idle = total.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/arch/config.h"
#include "sim/trace/cycle_accounting.h"
#include "sim/trace/recorder.h"

namespace trace {

// The version of the file's columns, in a last column "schema_version" of
// every row (as the timing CSV's, sim/trace/timing_csv.h).
// 2: link_wait_cycles, flag_wait_cycles, issue_cycles and idle_cycles after
// last_active.
constexpr int kSummaryCsvSchemaVersion = 2;

// Accumulates the rows as commands end: no command record is kept.
class SummaryRecorder : public Recorder {
public:
    void on_command(const CommandRecord& r, const arch::Command& c) override;
    std::string format(const arch::Config& c, uint64_t total_cycles) const;

private:
    struct Row {
        CycleAccount account;
        uint64_t commands = 0;
        uint64_t first = UINT64_MAX, last = 0;
    };
    std::map<std::tuple<uint32_t, std::pair<int, int64_t>>, Row> rows_;
};

std::string format_summary_csv(const arch::Config& c, const std::vector<CommandRecord>& records, uint64_t total_cycles);

}  // namespace trace
