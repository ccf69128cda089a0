// The bytes commands read from and write to each memory level (DDR, L1,
// L0), as docs/timing-model.md §9 counts them: the run's `memory` figures
// and each operation's (sim/trace/op_stats.h) come from the same rule.
#pragma once

#include <cstdint>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace trace {

struct LevelTraffic {
    uint64_t read = 0, written = 0;
};

struct MemoryTraffic {
    LevelTraffic ddr, l1, l0, ub;  // ub: the vector units' Unified Buffers, together
    LevelTraffic& level(arch::Space s) {
        return s == arch::Space::DDR ? ddr : s == arch::Space::L1 ? l1 : s == arch::Space::L0 ? l0 : ub;
    }
    MemoryTraffic& operator+=(const MemoryTraffic& o);
};

// Adds what one command reads and writes: a DMA command reads its source
// and writes its destination (an f32->f16 conversion reads 2 bytes per byte
// written; an im2col load reads the expanded tile, as the L1 port carries
// it); a MATMUL reads its operand bytes from L0 (arch::matmul_cost; the
// accumulator stays in the cube); a VECTOR command reads its sources and
// writes its result in L1, or in its unit's Unified Buffer if it has one.
void add_command_traffic(MemoryTraffic& m, const arch::Config& config, const arch::Command& c);

}  // namespace trace
