// The bytes in flight on each link over time: the DMA commands crossing it
// that have started and not ended (a command's bytes count from its start
// to its end). Drawn by the VCD writer and the Chrome trace.
#pragma once

#include <vector>

#include "sim/arch/config.h"
#include "sim/trace/step_series.h"
#include "sim/trace/timed_commands.h"

namespace trace {

// Index 0: the DDR side (the cluster DMA engines', and the vector units'
// load and store engines' with Unified Buffers): the DDR channel, or the
// L2's port, or its two ports together when it has a write port of its own
// (§6.1); 1 + k: cluster k's L1 port (its cube DMA engines).
std::vector<StepSeries> link_bytes_in_flight(const arch::Config& c, const std::vector<TimedCommand>& cmds);

// Behind an L2 (timing model §6.1): the bytes of its DDR transfers from the
// cycle each was queued until its data arrived (a fill) or it left the DDR
// channel (a write-back).
StepSeries ddr_transfer_bytes_in_flight(const std::vector<DdrTransferRecord>& transfers);

}  // namespace trace
