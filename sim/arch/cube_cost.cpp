#include "sim/arch/cube_cost.h"

#include <algorithm>

namespace arch {

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The fractal cube: each R x Q block of C takes ceil(k / k_per_cycle) steps;
// per step the array reads k_per_cycle columns of A and rows of B, counted
// here as one column of A and one row of B per element of k.
MatmulCost fractal(const Config& c, const MatmulArgs& m, uint64_t passes) {
    uint64_t row_blocks = ceil_div(m.m, uint64_t(c.mac_rows));
    uint64_t col_blocks = ceil_div(m.n, uint64_t(c.mac_cols));
    MatmulCost cost{};
    cost.mac_cycles = row_blocks * col_blocks * ceil_div(m.k, uint64_t(c.cube_k_per_cycle)) * passes;
    uint64_t elems = uint64_t(m.k) * (uint64_t(m.m) * col_blocks + uint64_t(m.n) * row_blocks);
    cost.operand_bytes = elems * uint64_t(dtype_bytes(m.dtype));
    cost.link_cycles = ceil_div(cost.operand_bytes, uint64_t(c.l0_bytes_per_cycle));
    cost.total_cycles = uint64_t(c.cube_pipeline_cycles) + std::max(cost.mac_cycles, cost.link_cycles);
    return cost;
}

// A systolic R x C array, SCALE-Sim v2's stall-free timing: the operation is
// folded over an Sr x Sc spatial grid with T temporal steps per fold; each
// fold's count already includes filling and draining the array.
MatmulCost systolic(const Config& c, const MatmulArgs& m, uint64_t passes) {
    const uint64_t R = uint64_t(c.mac_rows), C = uint64_t(c.mac_cols);
    const uint64_t M = m.m, K = m.k, N = m.n;
    uint64_t sr = 0, sc = 0, t = 0, per_fold = 0, elems = 0;
    switch (c.cube_dataflow) {
    case Dataflow::OS:
        sr = M, sc = N, t = K;
        per_fold = t + R + C - 2;
        // Each fold streams its rows of A and columns of B.
        elems = K * (M * ceil_div(N, C) + N * ceil_div(M, R));
        break;
    case Dataflow::WS:
        sr = K, sc = N, t = M;
        per_fold = 2 * R + C + t - 2;
        // B is loaded once, stationary; A streams once per column fold.
        elems = K * N + M * K * ceil_div(N, C);
        break;
    case Dataflow::IS:
    case Dataflow::Fractal:  // not reached: matmul_cost sends fractal elsewhere
        sr = K, sc = M, t = N;
        per_fold = 2 * R + C + t - 2;
        // A is loaded once, stationary; B streams once per column fold.
        elems = M * K + N * K * ceil_div(M, C);
        break;
    }
    MatmulCost cost{};
    cost.mac_cycles = (ceil_div(sr, R) * ceil_div(sc, C) * per_fold - 1) * passes;
    cost.operand_bytes = elems * uint64_t(dtype_bytes(m.dtype));
    cost.link_cycles = ceil_div(cost.operand_bytes, uint64_t(c.l0_bytes_per_cycle));
    cost.total_cycles = std::max(cost.mac_cycles, cost.link_cycles);
    return cost;
}

}  // namespace

MatmulCost matmul_cost(const Config& c, const MatmulArgs& m) {
    uint64_t passes = uint64_t(c.mac_passes(m.dtype == DType::Float32));
    return c.systolic() ? systolic(c, m, passes) : fractal(c, m, passes);
}

}  // namespace arch
