// The run's lower bounds (docs/timing-model.md §9): the cycles the MACs
// would take on every cube at its peak rate, and the DDR bytes at the DDR
// channel's effective bandwidth. The report gives them for the run and the
// per-operation CSV for each operation.
#pragma once

#include <cstdint>

#include "sim/arch/config.h"

namespace trace {

// The bytes per cycle the DDR channel moves while it is never idle: with
// §6's arbitration, W = ddr.bytes_per_cycle bytes per cycle for any burst
// size (several bursts are granted in one cycle when a burst is smaller
// than W). The DDR bound divides by this, and only this.
uint64_t ddr_effective_bytes_per_cycle(const arch::Config& c);

// `macs` MACs, `float32_macs` of them with float32 operands and
// `int8_macs` with int8 operands, on all cubes
// of the chip at once, each at its dtype's peak (§7.1, sim/arch/cube_rate.h:
// float32 K elements per step and cube.fp32_passes): the cycles rounded
// up; 0 on a chip of no MACs.
uint64_t compute_bound_cycles(uint64_t macs, uint64_t float32_macs, uint64_t int8_macs, const arch::Config& c);

// `ddr_bytes` (read and written) at ddr_effective_bytes_per_cycle, rounded
// up; 0 when that is 0.
uint64_t ddr_bound_cycles(uint64_t ddr_bytes, const arch::Config& c);

}  // namespace trace
