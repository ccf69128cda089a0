// What a GEMM costs under a tiling, estimated from the timing model's own
// formulas (docs/timing-model.md §4-§7) applied to the schedule
// dsl/lower/gemm/lower_gemm.cpp emits: the figure choose_matmul_tiling minimises.
//
// An estimate, not a simulation: a link is shared evenly by the transfers
// on it at the same moment, the steady state of each pipeline is a closed
// formula, and blocks are dispatched as §4 does in one list-scheduling
// pass, each block's DDR sharing taken from the blocks running alongside
// it (in full for identical blocks started together, which stay in
// lockstep; by the other blocks' DDR cycles that meet its own requests).
// It is meant to rank tilings; on the GEMMs of tests/dsl/gemm_cost_test.cpp
// it is within 1 % of the simulated cycles where all blocks are alike and
// within 4 % where edge blocks make clusters drift out of step; on 200
// random GEMMs and machines without an L2 within 5 % in 198, 7.6 % in all
// (tests/dsl/lower/tiling/tiling_properties_test.cpp).
#pragma once

#include <cstdint>

#include "dsl/lower/tiling/matmul_tiling.h"
#include "sim/arch/config.h"

namespace dsl {

// One block: a rows x cols region of C computed over all of K by one
// cluster, from its start to the end of its last store. Cycles from the
// block's start:
struct BlockCost {
    int64_t first_panel = 0;   // the first A and B panels are in L1
    int64_t first_matmul = 0;  // the first MATMUL starts
    int64_t tile_step = 0;     // one L0 step (kt of K) in the steady state
    int64_t panel_step = 0;    // one panel (kb of K) in the steady state
    int64_t last_matmul = 0;   // the last MATMUL ends
    int64_t total = 0;         // the last store of C to DDR ends
    int64_t ddr_busy = 0;      // cycles its transfers occupy the DDR link, alone
};

// `sharing`: blocks (clusters) loading from and storing to DDR at the same
// time, this one included, on average.
BlockCost estimate_block(const arch::Config& c, const GemmShape& g, const MatmulTiling& t, int64_t rows, int64_t cols,
                         double sharing);

// Cycles of all of the GEMM's blocks (g.items GEMMs of this shape, one
// after another) dispatched onto min(chip.clusters, g.max_parallel)
// clusters, from the first dispatch decision to the last block's end.
int64_t estimate_gemm_cycles(const arch::Config& c, const GemmShape& g, const MatmulTiling& t);
// The same, also setting `scheduled` (when not null) to the list
// schedule's figure before the floor of the DDR link (or, with an L2, of
// DDR behind it) is applied: among DDR-bound tilings that the floor makes
// equal, the one whose blocks wait least for their transfers.
int64_t estimate_gemm_cycles(const arch::Config& c, const GemmShape& g, const MatmulTiling& t, int64_t* scheduled);

// A lower bound of estimate_gemm_cycles that costs O(1): all of the work
// spread perfectly over the clusters. The search skips a tiling whose bound
// is already above the best estimate found.
int64_t estimate_gemm_cycles_bound(const arch::Config& c, const GemmShape& g, const MatmulTiling& t);

}  // namespace dsl
