// A DMA engine keeps several commands in flight at once (timing model §5),
// so its commands' [start, end) overlap. Trace viewers draw one track per
// thread and expect a track's slices to nest, so each command gets a lane:
// the lowest-numbered lane of its engine that is free when it starts. An
// engine that runs one command at a time uses lane 0 only.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/trace/timed_commands.h"

namespace trace {

// The lane of each of `cmds` (same order).
std::vector<uint32_t> in_flight_lanes(const std::vector<TimedCommand>& cmds);

}  // namespace trace
