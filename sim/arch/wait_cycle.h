// Static deadlock detection for one block. Within a block the k-th wait on
// a flag consumes the k-th set of it (docs/timing-model.md §3) and each
// engine runs its commands in order, so "command A cannot start before
// command B ends" is a fixed graph: the block can finish exactly when that
// graph has no cycle (given enough sets per wait, which check_program checks
// first). A cycle is reported before simulating, naming every command on it
// and the flag it waits for, instead of a run that stops without finishing.
#pragma once

#include <string>

#include "sim/arch/program.h"

namespace arch {

// "" when the block's waits can all be satisfied; otherwise the cycle,
// e.g. "cube0 command 0 waits on f1 set by cube1 command 0, which waits on
// f0 set by cube0 command 0". Requires waits <= sets for every flag.
std::string find_wait_cycle(const Block& block);

}  // namespace arch
