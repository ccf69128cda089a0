// Lowers one matmul to blocks of per-engine command streams: C is cut into
// blocks (one per cluster at a time), each block streams double-buffered A
// and B panels DDR -> L1, each cube streams double-buffered tiles L1 -> L0
// and accumulates its C tile in L0, then writes it back L0 -> L1 -> DDR.
// The flag protocol is described in docs/timing-model.md §Matmul lowering.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/block_builder.h"
#include "dsl/lower_context.h"
#include "dsl/matmul_tiling.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

struct MatmulOperands {
    int64_t M = 0, K = 0, N = 0;
    arch::DType in = arch::DType::Float16, out = arch::DType::Float16;
    uint64_t a_addr = 0, b_addr = 0, c_addr = 0;  // row-major in DDR
    std::string a_name, b_name, c_name;
};

// Appends the blocks for C = A @ B with the given tiling.
void lower_matmul(LowerContext& ctx, const MatmulTiling& tiling, const MatmulOperands& op);

// The graph operation `op` (2-D matmul): operands, tiling, blocks. Throws
// CompileError at the call when it cannot be lowered.
void lower_matmul_op(LowerContext& ctx, const OpNode& op);

}  // namespace dsl
