// A run's commands joined with their timing: the common input of the
// post-run writers (timing CSV, Chrome trace, VCD). Sorted by block, engine
// order and position, so output never depends on simulation event order.
#pragma once

#include <vector>

#include "sim/arch/program.h"
#include "sim/trace/recorder.h"

namespace trace {

struct TimedCommand {
    CommandRecord rec;
    const arch::Command* cmd = nullptr;
};

std::vector<TimedCommand> timed_commands(const arch::Program& p, const std::vector<CommandRecord>& records);

const char* opcode_name(arch::Opcode op);  // "dma", "matmul", "vector"

}  // namespace trace
