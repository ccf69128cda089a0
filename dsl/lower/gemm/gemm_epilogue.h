// A fusion group's epilogue (dsl/passes/pass_fusion.h) as the GEMM
// schedule runs it: VECTOR commands on each cube's C tile while it is in
// L1, after the write-back from L0 and before the one store to DDR
// (docs/timing-model.md §10, "Fusion").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/lower/lower_context.h"
#include "sim/arch/program.h"

namespace dsl {

struct EpilogueStep {
    enum class Operand { None, Scalar, Streamed, PerColumn };
    arch::VectorOp op = arch::VectorOp::Copy;
    int32_t program_op = -1;  // the fused operation it implements (for tags)
    std::string label;        // the tag: "relu_1 = relu(tile)"
    Operand operand = Operand::None;
    bool tile_first = true;  // binary: op(tile, operand), else op(operand, tile)
    double scalar = 0;
    int slot = 0;  // Streamed: its operand buffer; PerColumn: its column vector
};

struct GemmEpilogue {
    std::vector<EpilogueStep> steps;
    // Streamed operands (a residual add's other input), each with the C
    // tile's shape: DDR address of the GEMM's first item and whether it is
    // stored channel-major (NCHW: the tile's transpose).
    std::vector<uint64_t> streamed_ddr;
    std::vector<bool> streamed_transposed;
    std::vector<uint64_t> column_ddr;  // per-column vectors (batch_norm's scale and shift), one value per C column
    // The result is stored NCHW (a fused format_convert): each tile is
    // transposed on the vector unit and stored channel by channel.
    bool transposed_store = false;
    int32_t transpose_op = -1;  // the fused format_convert
    // The operations its loads and the store are charged to: each
    // operand's reader, and the group's last operation (whose result is
    // stored).
    std::vector<int32_t> streamed_op, column_op;
    int32_t store_op = -1;
    bool empty() const { return steps.empty() && !transposed_store; }
    // Extra L1 per block beyond the C block: copies of the C block and
    // vectors of the block's columns.
    int64_t c_block_copies() const { return int64_t(streamed_ddr.size()) + (transposed_store ? 1 : 0); }
    int64_t column_vectors() const { return int64_t(column_ddr.size()); }
};

// The epilogue of `head` (its OpNode::epilogue); `out` is set to the
// group's final tensor (what the GEMM stores). Empty when it has none.
GemmEpilogue build_epilogue(LowerContext& ctx, const OpNode& head, int& out);

}  // namespace dsl
