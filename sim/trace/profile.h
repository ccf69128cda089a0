// `davinci-sim profile` / `--profile FILE`: one JSON file for plotting and
// scripts, schema "davinci-sim-profile/1" (documented in traces/README.md):
// a utilization heatmap (unit x time bucket), completion bandwidth per link
// and bucket, the per-operation table, the task graph with its edges and the
// critical path. Built after the run from the command records, so the same
// program and configuration always give the same bytes.
#pragma once

#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/trace/recorder.h"
#include "sim/trace/run_stats.h"

namespace trace {

constexpr const char* kProfileSchema = "davinci-sim-profile/1";
constexpr uint64_t kProfileBuckets = 200;  // the target bucket count: bucket_cycles = ceil(total / 200)

std::string format_profile(const arch::Program& p, const arch::Config& c, const RunStats& s,
                           std::vector<CommandRecord> records);

}  // namespace trace
