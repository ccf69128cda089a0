// A Value Change Dump for GTKWave, written after the run from every
// command's start and end (not by polling signals during simulation).
//
// One VCD time unit is one clock cycle ($timescale 1 ns is declared, so at
// the default 1 GHz clock the labels are also real time). Signals, in this
// order (traces/README.md describes them for users):
//
// * per cluster K, per engine E (scope clusterK.E, E with '.' as '_'):
//   `busy` (1 while a command runs), `cmd` (1 + the running command's
//   position in its stream, 0 when idle) and `queue` (the commands of its
//   current stream not yet finished);
// * per cluster K, scope clusterK.occupancy: `l1` and `cubeN_l0`, the live
//   bytes in the cluster's L1 and in each cube's L0 (sim/trace/occupancy.h
//   defines live);
// * per cluster K, scope clusterK.flags: `fN` for every flag index N that a
//   command run on the cluster sets or waits on, the tokens outstanding
//   (sim/trace/flag_tokens.h);
// * per link: `bytes_in_flight` (the bytes of the DMA commands using it
//   that have started and not ended: links.ddr, the DDR channel, and
//   links.clusterK_l1, each cluster's L1 port).
//
// Widths hold every value: busy is a 1-bit wire; cmd, queue and flag
// tokens 32-bit integers (counts of commands); bytes 64-bit integers. A
// value is written only where it changes, once per cycle (its value at the
// end of the cycle's changes). Streamed to `out`: tens of megabytes for a
// large run.
#pragma once

#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/trace/before_window.h"
#include "sim/trace/recorder.h"
#include "sim/trace/text_out.h"
#include "sim/trace/trace_filter.h"

namespace trace {

// With an L2 cache the DDR<->L1 commands cross its port, `links.l2`, and
// `links.ddr` shows the L2's DDR transfers (`ddr_transfers`, timing model
// §6.1) in flight. `filter` is the one the run recorded `records` through
// (sim/trace/trace_filter.h, TimingRecorder); the VCD shows
// the kept clusters' scopes, the kept commands' signals, every signal
// from the window's start (its values there under $dumpvars) to its end;
// the L2's DDR transfers are the chip's. Through a window the flags and the
// queues count the commands before it too (`before`, recorded during the
// run, sim/trace/before_window.h); with an operation filter there are no
// flag signals (a block's flags pass tokens between the commands of
// several operations) and an engine's signals change at the commands shown.
void write_vcd(TextOut& out, const arch::Program& p, const arch::Config& c, const std::vector<CommandRecord>& records,
               const std::vector<DdrTransferRecord>& ddr_transfers = {}, const TraceFilter& filter = {},
               const BeforeWindow* before = nullptr);

}  // namespace trace
