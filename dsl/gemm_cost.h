// What a GEMM costs under a tiling, estimated from the timing model's own
// formulas (docs/timing-model.md §4-§7) applied to the schedule
// dsl/lower_gemm.cpp emits: the figure choose_matmul_tiling minimises.
//
// An estimate, not a simulation: every cluster of a wave is assumed to run
// in lockstep with the others (so a link is shared evenly by everyone who
// uses it at that moment), the steady state of each pipeline is a closed
// formula, and blocks are dispatched as §4 does, one list-scheduling pass.
// It is meant to rank tilings; on the GEMMs of tests/dsl/gemm_cost_test.cpp
// it is within 1 % of the simulated cycles. It is rougher (a few percent)
// where clusters drift out of step and their DDR transfers overlap only in
// part: the two sharing models below bracket that.
#pragma once

#include <cstdint>

#include "dsl/matmul_tiling.h"
#include "sim/arch/config.h"

namespace dsl {

// One block: a rows x cols region of C computed over all of K by one
// cluster, from its start to the end of its last store. Cycles from the
// block's start:
struct BlockCost {
    int64_t first_panel = 0;  // the first A and B panels are in L1
    int64_t first_matmul = 0; // the first MATMUL starts
    int64_t tile_step = 0;    // one L0 step (kt of K) in the steady state
    int64_t panel_step = 0;   // one panel (kb of K) in the steady state
    int64_t last_matmul = 0;  // the last MATMUL ends
    int64_t total = 0;        // the last store of C to DDR ends
    int64_t ddr_busy = 0;     // cycles its transfers occupy the DDR link, alone
};

// `sharing`: blocks (clusters) loading from and storing to DDR at the same
// time, this one included, on average.
BlockCost estimate_block(const arch::Config& c, const GemmShape& g, const MatmulTiling& t, int64_t rows, int64_t cols,
                         double sharing);

// Cycles of all of the GEMM's blocks (g.items GEMMs of this shape, one
// after another) dispatched onto min(chip.clusters, g.max_parallel)
// clusters, from the first dispatch decision to the last block's end.
int64_t estimate_gemm_cycles(const arch::Config& c, const GemmShape& g, const MatmulTiling& t);

// A lower bound of estimate_gemm_cycles that costs O(1): all of the work
// spread perfectly over the clusters. The search skips a tiling whose bound
// is already above the best estimate found.
int64_t estimate_gemm_cycles_bound(const arch::Config& c, const GemmShape& g, const MatmulTiling& t);

}  // namespace dsl
