// Flag tokens over time, computed after the run from the commands' flags
// and their start and end cycles: for each cluster and each flag index its
// blocks use, the number of outstanding tokens, i.e. sets not yet consumed.
//
// A set adds one token at the END of the command that sets the flag; a wait
// takes one at the START of the command that waits (which the k-th set let
// start: k-th wait start >= k-th set end + sync.flag_latency_cycles, so the
// count never goes negative). Flags belong to a block (docs/timing-model.md
// §3): tokens a block set and never consumed are dropped at its end (the
// last end of its commands), so every block on the cluster starts from 0.
// A hand-off whose waiter starts in the very cycle of the set (no latency)
// leaves the count unchanged at every cycle boundary, so it shows no pulse.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch/program.h"
#include "sim/trace/before_window.h"
#include "sim/trace/step_series.h"
#include "sim/trace/timed_commands.h"

namespace trace {

struct FlagTokens {
    uint32_t cluster = 0;
    arch::FlagId flag = 0;
    StepSeries tokens;
};

// One entry per (cluster, flag index) that some command run on that cluster
// sets or waits on, sorted by cluster, then flag. With `before`, the
// commands are those of a window and the tokens the blocks held at its
// start are added there.
std::vector<FlagTokens> flag_tokens(const std::vector<TimedCommand>& cmds, const BeforeWindow* before = nullptr);

}  // namespace trace
