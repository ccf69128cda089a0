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

// Whether the block's waits can all be satisfied: each engine's stream is
// played in turn as far as its flags' tokens allow (the k-th wait takes the
// k-th set when one engine sets and one waits on each flag, which
// check_block checks). Linear in the commands (times the passes over the
// streams), and allocation-free once a thread has checked a block as large:
// the check every compiled block goes through. Requires waits <= sets.
bool waits_can_be_met(const Block& block);

// "" when the block's waits can all be satisfied; otherwise the cycle,
// e.g. "cube0 command 0 waits on f1 set by cube1 command 0, which waits on
// f0 set by cube0 command 0". Requires waits <= sets for every flag. It
// builds the whole wait graph: called to word the error once
// waits_can_be_met has said there is one.
std::string find_wait_cycle(const Block& block);

}  // namespace arch
