// `davinci-sim profile` / `--profile FILE`: one JSON file for plotting and
// scripts, schema "davinci-sim-profile/1" (documented in traces/README.md):
// a utilization heatmap (unit x time bucket), bytes in flight per link
// and bucket, the per-operation table, the task graph with its edges and the
// critical path. Built after the run from the command records, so the same
// program and configuration always give the same bytes; the records are
// kept on disk meanwhile (about 12 bytes each), so a run of any size can
// have a profile.
#pragma once

#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/arch/spool_file.h"
#include "sim/trace/recorder.h"
#include "sim/trace/run_stats.h"

namespace trace {

// The version of the profile's format: "schema_version" and the number in
// "schema" ("davinci-sim-profile/1"), raised when a change would make an
// older reader misread a profile.
constexpr int kProfileSchemaVersion = 1;
constexpr uint64_t kProfileBuckets = 200;  // the target bucket count: bucket_cycles = ceil(total / 200)

// Collects the profile's inputs as commands end: the unit kinds of each
// operation in memory, each command's unit, cycles and DMA bytes in a spool
// (the time buckets depend on the total cycles, known only at the end).
// Needs the program's tags and operations, not its blocks.
class ProfileRecorder : public Recorder {
public:
    explicit ProfileRecorder(const arch::Program& p);  // throws when no spool file can be made
    void on_command(const CommandRecord& r, const arch::Command& c) override;
    // A command without its Command (unknown to the program) counts as busy time only.
    void add(const CommandRecord& r, const arch::Command* c);
    // The profile of the run that ended with `s`.
    std::string format(const arch::Config& c, const RunStats& s);

private:
    const arch::Program& program_;
    std::vector<uint8_t> op_kinds_;  // per operation: a bit per arch::EngineKind it used
    arch::SpoolFile records_;
    std::string pending_;  // encoded records not yet spooled
};

// The same from every command's record, after the run.
std::string format_profile(const arch::Program& p, const arch::Config& c, const RunStats& s,
                           std::vector<CommandRecord> records);

}  // namespace trace
