// The Chrome Trace Event format (JSON) that Perfetto and chrome://tracing
// load: one process per cluster (pid = cluster + 1), one thread per engine,
// a slice per command with its operation, task, bytes and flags, a slice
// per block on a "blocks" track, flow arrows for every flag hand-off
// between engines, counters of the bytes in flight on each link and of the
// live bytes in each cluster's L1 (sim/trace/occupancy.h). Timestamps are
// real time in microseconds (cycles divided by the clock); each slice's
// args also give its cycles.
//
// Written by hand into a TextOut (streamed to the file), not through a JSON
// library: a large run has millions of events.
#pragma once

#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/trace/messages.h"
#include "sim/trace/power.h"
#include "sim/trace/recorder.h"
#include "sim/trace/text_out.h"
#include "sim/trace/trace_filter.h"

namespace trace {

// The version of the trace's own layout (tracks, args), as a top-level
// "schema_version" after "traceEvents" (the last key: Perfetto reads no
// further than a top-level key it does not know, and then has every event).
constexpr int kChromeTraceSchemaVersion = 1;

// With an L2 cache, "L2 port bytes in flight" counts the DDR<->L1 commands
// and "DDR bytes in flight" the L2's DDR transfers (`ddr_transfers`).
// `power` (the run's, sim/trace/power.h) becomes the chip's "power (W)"
// counter; none without bins. `filter` is the one the run recorded
// `records` through (sim/trace/trace_filter.h, TimingRecorder): the trace
// clips to its window and shows its clusters; the DDR transfers, the power
// and the messages are the chip's, seen through its window only.
void write_chrome_trace(TextOut& out, const arch::Program& p, const arch::Config& c,
                        const std::vector<CommandRecord>& records,
                        const std::vector<DdrTransferRecord>& ddr_transfers = {}, const PowerSeries& power = {},
                        uint64_t total_cycles = 0, const std::vector<Message>& messages = {},
                        const std::vector<OpStats>& ops = {}, const TraceFilter& filter = {});

}  // namespace trace
