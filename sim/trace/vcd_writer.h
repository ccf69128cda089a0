// A Value Change Dump for GTKWave, written after the run from every
// command's start and end (not by polling signals during simulation).
//
// One VCD time unit is one clock cycle ($timescale 1 ns is declared, so at
// the default 1 GHz clock the labels are also real time). Signals, per
// cluster and engine: `busy` (1 while a command runs), `cmd` (1 + the
// running command's position in its stream, 0 when idle) and `queue` (the
// commands of its current stream not yet finished); per link:
// `bytes_in_flight` (the bytes of the DMA commands using it that have
// started and not ended: the DDR channel, and each cluster's L1 port).
#pragma once

#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/trace/recorder.h"

namespace trace {

std::string format_vcd(const arch::Program& p, const arch::Config& c, std::vector<CommandRecord> records);

}  // namespace trace
