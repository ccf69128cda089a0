// Memory occupancy over time, computed after the run from the commands'
// address ranges (sim/trace/memory_access.h) and their start and end
// cycles: for each cluster's L1, each cube's L0 and each vector unit's
// Unified Buffer, the number of LIVE bytes at every cycle.
//
// A byte is live while it holds data that a command still has to read:
//
// * it becomes live at the END of a command that writes it (a DMA
//   destination, a VECTOR destination, MATMUL's C accumulator in L0, a cube
//   DMA's L0 -> L1 write-back in L1);
// * it stays live until the END of the last command that reads it (a DMA
//   source, VECTOR sources, MATMUL's A and B, and C when it accumulates, a
//   write-back's accumulator) before the next write of it ends; a read
//   belongs to the last write that ended at or before the read's start;
// * a write that no command reads before the byte is written again (or the
//   run ends) makes it live for no cycle: the value is dead at once;
// * a byte no command wrote before it is read (data placed before the run)
//   is live from the start of its first read;
// * if a byte is written again while a read of the earlier value still
//   runs (a race the flags should prevent), it stays live through both.
//
// So the L1 A panel of a GEMM is live from the end of its DDR -> L1 load
// until the cube DMA that reads its last tile ends, part by part as the
// tiles are read; the C accumulator in L0 from the end of the first MATMUL
// of a k-loop until the write-back to L1 ends. Each memory is followed
// across the blocks its cluster runs (on-chip tensors outlive a block).
// Strided rows count row by row (rows x row_bytes, not the stride span).
//
// Exact per byte, computed on segments: each memory's addresses cut at
// every row's start and end, so all bytes of a segment share their history
// and the work grows with the segments the commands touch, not their bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch/config.h"
#include "sim/trace/step_series.h"
#include "sim/trace/timed_commands.h"

namespace trace {

struct ClusterOccupancy {
    StepSeries l1;               // live bytes in the cluster's L1
    std::vector<StepSeries> l0;  // live bytes in each cube's L0, by cube index
    std::vector<StepSeries> ub;  // live bytes in each vector unit's Unified Buffer (none without them)
};

// One entry per cluster of `c` (commands of clusters beyond it are ignored).
// Addresses are placed by the slot each command's block ran in
// (arch::relocate: co-resident blocks use their own shares of L1 and L0).
// `cmds` from cycle `seen_from` on (a trace's window, sim/trace/trace_filter.h):
// a byte read with no write among them was written before, so it is live
// from `seen_from` (0: the whole run, data placed before it, live from its
// first read as above).
std::vector<ClusterOccupancy> memory_occupancy(const arch::Config& c, const arch::Program& p,
                                               const std::vector<TimedCommand>& cmds, uint64_t seen_from = 0);

}  // namespace trace
