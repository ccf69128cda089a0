// `--ops-csv FILE`: one row per program operation, in program order, with
// where its cycles went and what it moved: the per-operation table of the
// report, and the one per-operation schema that other modes extend (a
// SCALE-Sim topology run adds its COMPUTE_REPORT columns) instead of
// writing a table of their own. Columns and their definitions: README.md
// ("Per-operation CSV") and docs/timing-model.md §9.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/trace/op_stats.h"

namespace trace {

// The version of the columns, in a last column "schema_version" of every
// row (as the timing CSV's, sim/trace/timing_csv.h).
constexpr int kOpsCsvSchemaVersion = 1;

// What a cell is made from: the operation, its position in program order
// (to look up what a mode knows about it), the hardware.
struct OpsCsvCell {
    const OpStats& op;
    size_t index;
    const arch::Config& config;
    const std::vector<OpStats>& ops;  // every operation, for what relates them (a fusion group)
};

struct OpsCsvColumn {
    std::string name;
    std::function<std::string(const OpsCsvCell&)> cell;
};

// The columns every ops CSV has, in order (schema_version follows them all).
const std::vector<OpsCsvColumn>& ops_csv_columns();

// The file: the header, then a row per operation of `ops` (an operation
// that ran no command, a view, has empty start, end, cycles, stall_cycles
// and mac_utilization). `more` are a mode's columns, after the common ones
// and before schema_version.
std::string format_ops_csv(const std::vector<OpStats>& ops, const arch::Config& c,
                           const std::vector<OpsCsvColumn>& more = {});

}  // namespace trace
