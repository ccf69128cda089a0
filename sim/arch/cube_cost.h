// The cycle cost of one MATMUL command on a cube (docs/timing-model.md §7):
// a pure formula of the configuration and the command's shape, shared by
// the simulator (sim/hw/cube_unit.cpp) and the compiler's cost estimate
// (dsl/lower/tiling/gemm_cost.cpp). The oracle (tests/oracle) keeps its own copy.
#pragma once

#include <cstdint>

#include "sim/arch/ceil_div.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace arch {

struct MatmulCost {
    uint64_t mac_cycles;     // MAC-array cycles (fractal steps or systolic folds), times the float32 passes
    uint64_t operand_bytes;  // bytes streamed from L0 into the array
    uint64_t link_cycles;    // those bytes at the L0->cube bandwidth
    uint64_t total_cycles;   // start-up (fractal only) + the slower of the two
};

MatmulCost matmul_cost(const Config& c, const MatmulArgs& m);

// How a systolic dataflow (§7.2) maps a GEMM of m x k x n onto the array:
// an sr x sc spatial grid, cut into folds of at most rows x cols, each
// streaming t temporal steps after `fill` cycles of fill and drain.
struct SystolicFolds {
    uint64_t sr = 0, sc = 0, t = 0, fill = 0, rows = 1, cols = 1;
    uint64_t row_folds() const { return ceil_div(sr, rows); }
    uint64_t col_folds() const { return ceil_div(sc, cols); }
    uint64_t folds() const { return row_folds() * col_folds(); }
    // The stall-free cycles of the whole grid as one fold schedule on one
    // array: every fold once, SCALE-Sim's - 1 once.
    uint64_t schedule_cycles() const { return folds() * (t + fill) - 1; }
};
// Only for the systolic dataflows (c.systolic()); the second form for a
// whole operation (an m x k x n GEMM), which may exceed a command's sizes.
SystolicFolds systolic_folds(const Config& c, const MatmulArgs& m);
SystolicFolds systolic_folds(const Config& c, uint64_t m, uint64_t k, uint64_t n);

}  // namespace arch
