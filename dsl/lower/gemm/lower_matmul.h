// Lowers a matmul operation, 2-D or batched, onto the shared GEMM schedule
// (dsl/lower/gemm/lower_gemm.h), honouring its tile=, prefetch= and unroll= attributes.
#pragma once

#include "dsl/ir/task_graph.h"
#include "dsl/lower/lower_context.h"
#include "dsl/lower/tiling/matmul_tiling.h"

namespace dsl {

// The GEMM attributes shared by the cube operations: tile=(m, n[, k]) fixes
// the cube tile, prefetch=True asks for three L1 panel buffers instead of
// two.
void apply_gemm_attrs(const OpNode& op, GemmShape& shape);
// The GemmShape a matmul is tiled with: its sizes, on-chip operands and
// attributes (not yet a fused epilogue's L1 or MAX_PARALLEL).
GemmShape matmul_shape(const LowerContext& ctx, const OpNode& op);

// matmul's unroll= (1 without it): k-steps per iteration of each engine's
// k-loop (GemmOperands::unroll).
int64_t gemm_unroll(const OpNode& op);

// Chooses the tiling (with ctx.options.gemm_tiling when the caller gave
// one) or throws CompileError at the call, naming the bytes that do not fit.
MatmulTiling gemm_tiling_or_fail(const LowerContext& ctx, const OpNode& op, const GemmShape& shape);

// The graph operation `op`: (M, K) @ (K, N), or (..., M, K) @ (..., K, N)
// with broadcast batch dimensions, one GEMM (its own blocks) per batch item.
void lower_matmul_op(LowerContext& ctx, const OpNode& op);

}  // namespace dsl
