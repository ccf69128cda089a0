#include "sim/hw/cube_timing.h"

#include <algorithm>

namespace hw {

namespace {
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
}  // namespace

MatmulCost matmul_cost(const arch::Config& c, const arch::MatmulArgs& m) {
    // Output-stationary: each R x C block of C takes k steps; per step the
    // array reads one column of A (up to R values) and one row of B (up to C).
    uint64_t row_blocks = ceil_div(m.m, uint64_t(c.mac_rows));
    uint64_t col_blocks = ceil_div(m.n, uint64_t(c.mac_cols));
    uint64_t passes = m.dtype == arch::DType::Float32 ? uint64_t(c.fp32_passes) : 1;
    MatmulCost cost{};
    cost.mac_cycles = row_blocks * col_blocks * m.k * passes;
    uint64_t elems = uint64_t(m.k) * (uint64_t(m.m) * col_blocks + uint64_t(m.n) * row_blocks);
    cost.operand_bytes = elems * uint64_t(arch::dtype_bytes(m.dtype));
    cost.link_cycles = ceil_div(cost.operand_bytes, uint64_t(c.l0_bytes_per_cycle));
    cost.total_cycles = uint64_t(c.cube_pipeline_cycles) + std::max(cost.mac_cycles, cost.link_cycles);
    return cost;
}

}  // namespace hw
