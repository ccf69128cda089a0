// What a trace shows of a run (--trace-window, --trace-clusters,
// --trace-ops): the Chrome trace and the VCD draw only the commands it
// keeps, and the run keeps only those in memory (sim/cli/driver/run.cpp),
// so a window of a large run needs the memory of the window.
//
// * A command is kept when it runs during the window (its [start, end)
//   overlaps [start, end) of the window; a command of no cycles when its
//   cycle is in it), on a kept cluster, for a kept operation (its name or
//   its task's matches one of the globs, fnmatch(3) rules; a command of no
//   operation matches none).
// * Slices crossing an edge of the window are clipped to it (their args
//   keep their true cycles); counters start at the window's start with
//   their value there and end with it. Counters count the commands kept:
//   the bytes in flight of the clusters and operations shown, the live
//   bytes of memory written or read by them (a byte written before the
//   window and read in it is live from that read, as data placed before
//   the run is).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/program.h"
#include "sim/trace/recorder.h"
#include "sim/trace/step_series.h"

namespace trace {

struct TraceFilter {
    uint64_t start = 0;
    uint64_t end = UINT64_MAX;       // exclusive
    std::vector<uint32_t> clusters;  // ascending; empty: every cluster
    std::vector<std::string> ops;    // globs; empty: every command

    bool active() const { return windowed() || !clusters.empty() || !ops.empty(); }
    bool windowed() const { return start > 0 || end != UINT64_MAX; }
    bool keeps_cluster(uint32_t cluster) const;
    bool keeps_cycles(uint64_t from, uint64_t to) const;  // [from, to) meets the window
    bool keeps_op(const arch::Program& p, const arch::Command& c) const;
    bool keeps(const CommandRecord& r, const arch::Command& c, const arch::Program& p) const {
        return keeps_cycles(r.start, r.end) && keeps_cluster(r.cluster) && keeps_op(p, c);
    }
    uint64_t clip(uint64_t cycle) const { return cycle < start ? start : cycle > end ? end : cycle; }
    // The series seen through the window: its value at `start` (a step
    // there when not 0), then its steps inside. Unchanged without a window.
    StepSeries clip(const StepSeries& s) const;
};

// The option values, parsed into `f`; false with `error` set (the text
// after "--trace-window: ") otherwise.
// "START:END" in cycles, either side may be empty (from 0, to the end).
bool parse_trace_window(const std::string& text, TraceFilter& f, std::string& error);
// "0,2,5-7": cluster numbers and ranges.
bool parse_trace_clusters(const std::string& text, TraceFilter& f, std::string& error);
// "matmul_*,softmax_1": globs separated by commas.
bool parse_trace_ops(const std::string& text, TraceFilter& f, std::string& error);

}  // namespace trace
