#include "sim/arch/cube_cost.h"

#include <algorithm>

#include "sim/arch/ceil_div.h"
#include "sim/arch/cube_rate.h"

namespace arch {

namespace {

// The fractal cube: each R x Q block of C takes ceil(k / depth) steps, depth
// the dtype's K elements per step (cube_rate.h); per step the array reads
// depth columns of A and rows of B, counted here as one column of A and one
// row of B per element of k.
MatmulCost fractal(const Config& c, const MatmulArgs& m, uint64_t passes) {
    uint64_t row_blocks = ceil_div<uint64_t>(m.m, c.mac_rows);
    uint64_t col_blocks = ceil_div<uint64_t>(m.n, c.mac_cols);
    MatmulCost cost{};
    cost.mac_cycles = row_blocks * col_blocks * ceil_div<uint64_t>(m.k, uint64_t(cube_k_depth(c, m.dtype))) * passes;
    uint64_t elems = uint64_t(m.k) * (uint64_t(m.m) * col_blocks + uint64_t(m.n) * row_blocks);
    cost.operand_bytes = elems * uint64_t(dtype_bytes(m.dtype));
    cost.link_cycles = ceil_div(cost.operand_bytes, uint64_t(c.l0_bytes_per_cycle));
    cost.total_cycles = uint64_t(c.cube_pipeline_cycles) + std::max(cost.mac_cycles, cost.link_cycles);
    return cost;
}

// A systolic R x C array, SCALE-Sim v2's stall-free timing (§7.2): the
// command's Sr x Sc spatial grid is cut into folds of at most R x C, each
// streaming the T temporal steps after F cycles of fill and drain (not
// paid when the command continues the fold of the MATMUL before it); the
// command that ends its operation's fold schedule takes SCALE-Sim's - 1.
MatmulCost systolic(const Config& c, const MatmulArgs& m, uint64_t passes) {
    const SystolicFolds f = systolic_folds(c, m);
    const uint64_t C = uint64_t(c.mac_cols), R = uint64_t(c.mac_rows);
    const uint64_t M = m.m, K = m.k, N = m.n;
    uint64_t elems = 0;
    switch (c.cube_dataflow) {
    case Dataflow::OS:
        // Each fold streams its rows of A and columns of B.
        elems = K * (M * ceil_div(N, C) + N * ceil_div(M, R));
        break;
    case Dataflow::WS:
        // B is loaded once, stationary; A streams once per column fold.
        elems = K * N + M * K * ceil_div(N, C);
        break;
    case Dataflow::IS:
    case Dataflow::Fractal:  // not reached: matmul_cost sends fractal elsewhere
        // A is loaded once, stationary; B streams once per column fold.
        elems = M * K + N * K * ceil_div(M, C);
        break;
    }
    const uint64_t folds = m.fold_continues ? 1 : f.folds();
    MatmulCost cost{};
    cost.mac_cycles = (folds * f.t + (m.fold_continues ? 0 : folds * f.fill) - (m.schedule_continues ? 0 : 1)) * passes;
    cost.operand_bytes = elems * uint64_t(dtype_bytes(m.dtype));
    cost.link_cycles = ceil_div(cost.operand_bytes, uint64_t(c.l0_bytes_per_cycle));
    cost.total_cycles = std::max(cost.mac_cycles, cost.link_cycles);
    return cost;
}

}  // namespace

SystolicFolds systolic_folds(const Config& c, uint64_t m, uint64_t k, uint64_t n) {
    const uint64_t R = uint64_t(c.mac_rows), C = uint64_t(c.mac_cols);
    SystolicFolds f;
    f.rows = R, f.cols = C;
    switch (c.cube_dataflow) {
    case Dataflow::OS: f.sr = m, f.sc = n, f.t = k, f.fill = R + C - 2; break;
    case Dataflow::WS: f.sr = k, f.sc = n, f.t = m, f.fill = 2 * R + C - 2; break;
    case Dataflow::IS:
    case Dataflow::Fractal: f.sr = k, f.sc = m, f.t = n, f.fill = 2 * R + C - 2; break;
    }
    return f;
}

SystolicFolds systolic_folds(const Config& c, const MatmulArgs& m) { return systolic_folds(c, m.m, m.k, m.n); }

MatmulCost matmul_cost(const Config& c, const MatmulArgs& m) {
    const uint64_t passes = uint64_t(cube_passes(c, m.dtype));
    return c.systolic() ? systolic(c, m, passes) : fractal(c, m, passes);
}

}  // namespace arch
