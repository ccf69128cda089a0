// Every command's start and end cycle as CSV, one row per command in the
// order they finished: the raw material for external analysis and the
// reference for the oracle tests.
#pragma once

#include <string>
#include <vector>

#include "sim/arch/program.h"
#include "sim/trace/recorder.h"

namespace trace {

// Header: block,cluster,engine,index,start,end,op,tag. Rows sorted by
// (block, engine, index) so the file does not depend on event order.
std::string format_timing_csv(const arch::Program& p, std::vector<CommandRecord> records);

}  // namespace trace
