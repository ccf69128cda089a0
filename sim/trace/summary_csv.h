// The per-unit pipe summary kernel authors know from vendor cost models:
// one row per engine of every cluster with the run's total cycles, the
// engine's busy cycles and share, its command count, and its first and last
// active cycle (empty when it never ran).
#pragma once

#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/trace/recorder.h"

namespace trace {

std::string format_summary_csv(const arch::Config& c, const std::vector<CommandRecord>& records,
                               uint64_t total_cycles);

}  // namespace trace
