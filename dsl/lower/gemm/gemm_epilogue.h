// A fusion group's epilogue (dsl/passes/pass_fusion.h) as the GEMM
// schedule runs it: VECTOR commands on each cube's C tile while it is in
// L1, after the write-back from L0 and before the one store to DDR
// (docs/timing-model.md §10, "Fusion").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/lower/lower_context.h"
#include "dsl/lower/tiling/matmul_tiling.h"
#include "sim/arch/program.h"

namespace dsl {

struct EpilogueStep {
    // Streamed: a loaded tile; PerColumn: a column vector; Tile: another of
    // the epilogue's tile buffers (silu's sigmoid).
    enum class Operand { None, Scalar, Streamed, PerColumn, Tile };
    arch::VectorOp op = arch::VectorOp::Copy;
    int32_t program_op = -1;  // the fused operation it implements (for tags)
    std::string label;        // the tag: "relu_1 = relu(tile)"
    Operand operand = Operand::None;
    bool tile_first = true;  // binary: op(tile, operand), else op(operand, tile)
    double scalar = 0;
    int slot = 0;  // Streamed: its operand buffer; PerColumn: its column vector; Tile: the tile buffer
    // The dtype it computes in (a cast's: the source's, as VECTOR names
    // it), and the tile buffers (GemmEpilogue::tiles) it reads and writes.
    arch::DType dtype = arch::DType::Float16;
    int src = 0, dst = 0;
};

struct GemmEpilogue {
    std::vector<EpilogueStep> steps;
    // The C tile buffers in L1, one block each: tiles[0] is the GEMM's C
    // block (its output dtype); each cast to another dtype writes a block
    // of its own in the new dtype, and each silu has a scratch block for
    // its sigmoid. `result` is the one stored (or transposed).
    std::vector<arch::DType> tiles;
    int result = 0;
    // Streamed operands (a residual add's other input), each with the C
    // tile's shape: DDR address of the GEMM's first item and whether it is
    // stored channel-major (NCHW: the tile's transpose), and its dtype.
    std::vector<uint64_t> streamed_ddr;
    std::vector<bool> streamed_transposed;
    std::vector<arch::DType> streamed_dtype;
    std::vector<uint64_t> column_ddr;  // per-column vectors (batch_norm's scale and shift), one value per C column
    std::vector<arch::DType> column_dtype;
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
    arch::DType result_dtype() const { return tiles.empty() ? arch::DType::Float16 : tiles[size_t(result)]; }
    // Extra L1 per block beyond the C block, as bytes per element of a C
    // block (each copy of it counts its dtype's bytes: tile buffers past
    // the first, the transposed result, streamed operands) and bytes per
    // column of the block (the column vectors).
    int64_t c_block_copy_bytes() const;
    int64_t column_vector_bytes() const;
    // What the tiling search and its cost estimate need to know of it
    // (GemmShape's epilogue_* fields); leaves `shape` alone when empty.
    void describe(GemmShape& shape) const;
};

// The epilogue of `head` (its OpNode::epilogue); `out` is set to the
// group's final tensor (what the GEMM stores). Empty when it has none.
GemmEpilogue build_epilogue(LowerContext& ctx, const OpNode& head, int& out);

// Why a GEMM schedule runs no epilogue (its group's operations are then
// lowered one by one, through DDR): on the fold-major schedule of a ws or
// is array (dsl/lower/gemm/lower_fold_major.h), whose outputs leave L1
// chunk by chunk, and with a result kept on chip.
std::string fold_major_unfused_reason(const arch::Config& c);
extern const char* const kOnChipResultUnfused;
// With Unified Buffers (vector.buffer_kib) the vector units cannot read the
// cube's output tiles in L1: a fusion group runs unfused, through DDR/L2.
extern const char* const kVectorBufferUnfused;
// Why a cube operation's schedule cannot run its fusion group's epilogue on
// its C tiles, "" when it can: Unified Buffers, a fold-major schedule, a
// result kept on chip, in that order.
std::string gemm_epilogue_blocked(const arch::Config& c, bool fold_major, bool c_on_chip);

// The same judged from the graph alone (placements, tile=), for
// --dump-graph: "" when `head`'s group runs fused on this hardware. (The
// lowering decides from its buffer plan, which can keep an on-chip tensor
// in DDR instead; the report's notes say what it did.)
std::string epilogue_unfused_reason(const arch::Config& c, const TaskGraph& g, const OpNode& head);

// The report's note for a group that ran unfused.
std::string unfused_group_note(const TaskGraph& g, const OpNode& head, const std::string& reason);

}  // namespace dsl
