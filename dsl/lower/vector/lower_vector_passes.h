// Row operations whose row does not fit L1 at once (softmax over a 32,000
// wide vocabulary, layer_norm over all of (128, 768), a reduction of a long
// row): lowered in passes over column pieces of each row
// (docs/timing-model.md §10, "Multi-pass row operations"). A row of R
// contiguous elements is cut into P pieces of at most w elements, w the
// widest that fits L1 with the pieces double-buffered; the passes over one
// row stream its pieces in order on one cluster, and the row's statistics
// (partial maxima and sums, then the combined ones) stay in L1 between
// passes. Each pass reads the row from DDR again; only the last writes.
//
// Each function returns false, emitting nothing, when the op's input or
// output is an on-chip tensor (those are read and written in place).
#pragma once

#include <cstdint>
#include <string>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/lower_context.h"
#include "sim/arch/program.h"

namespace dsl {

// softmax over rows of R elements (`rows` rows): a pass of per-piece
// maxima and exp-sums, combined per row, then a normalising pass.
bool lower_softmax_passes(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R);
// layer_norm over rows of D elements: a mean pass, a variance pass, a
// normalising pass that streams scale and shift with the pieces.
bool lower_layer_norm_passes(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t D);
// reduce_sum / reduce_max (times 1 / R for a mean) of rows of R elements:
// one pass of per-piece partials, combined after the row's last piece.
bool lower_reduction_passes(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R, arch::VectorOp red,
                            bool mean);

// A stage of a reduction over several runs of axes (lower_vector_rows.cpp)
// reads and writes DDR tensors of its own: where, and the source's dtype
// (the result has the op output's).
struct RowEnds {
    uint64_t src = 0, dst = 0;
    std::string src_name, dst_name;
    arch::DType src_dtype = arch::DType::Float16;
};
// softmax from `ends.src` to `ends.dst`.
bool lower_softmax_passes_at(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R, const RowEnds& ends);
// The reduction from `ends.src` to `ends.dst`, times `scale` unless it is 1.
bool lower_reduction_passes_at(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R, arch::VectorOp red,
                               double scale, const RowEnds& ends);

}  // namespace dsl
