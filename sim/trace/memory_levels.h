// The memory levels of a run and the bytes read from and written to each,
// as the report lists them and the energy model charges them (timing model
// §9). With an L2 the DMA commands' DDR-side bytes are the L2's, and DDR
// sees the L2's fills, write-backs and flush (§6.1).
#pragma once

#include <vector>

#include "sim/trace/run_stats.h"

namespace trace {

struct Level {
    const char* label;  // as the text report writes it: "DDR"
    const char* key;    // as the JSON report writes it: "ddr"
    LevelTraffic traffic;
};

// The levels a run has, outermost first: DDR, L2 with an L2, L1, L0, and UB
// when the vector units' Unified Buffers moved bytes.
std::vector<Level> memory_levels(const RunStats& s);

}  // namespace trace
