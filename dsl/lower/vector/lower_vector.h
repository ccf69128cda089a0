// Lowering of the vector-unit operations (element-wise, batch_norm,
// layer_norm, softmax, reductions, pooling, upsample, transpose on the
// vector unit), onto one generic pipeline, the streamed
// vector op (lower_vector_stream.h):
//
//  * The work is cut into units (rows of the flattened output, image planes,
//    transpose tiles); a chunk is as many units as fit L1 with its inputs and
//    output double-buffered (plus single-buffered vector temporaries and
//    per-block resident operands). The units are split evenly into one block
//    per cluster that may run at once, so every cluster streams its share and
//    the dispatcher hands blocks out as clusters free up; each block's chunks
//    amortise its pipeline fill and drain.
//  * In a block, dma0 loads chunk i into slot i % B (after the vector unit has
//    finished chunk i - B; B = 2, or pypo.config.BUFFERS), vector0 runs the
//    chunk's VECTOR commands, and the last DMA engine stores the result (dma1
//    with two engines; on a single dma0, the store of chunk i - B is queued
//    before the load of chunk i).
//    Four counting flags carry this: inputs ready/free, result ready/free.
//  * Broadcast operands (batch_norm's scale and shift, a bias) are loaded
//    whole once per block; number operands and 1/n are constants with no DDR
//    traffic; inputs in another dtype are cast by the vector unit on arrival.
//  * DDR traffic is the real data: every input element is read once (pooling
//    reads whole planes or bands of rows with their halo, never expanded
//    windows) and every output element is written once.
//
// The per-op command sequences are in lower_vector_{elementwise,rows,window,
// transpose}.cpp; docs/timing-model.md §10 "Vector operation lowering"
// describes the result. Each function is an operation's `lowering` in dsl/ir/op_table.def; each
// throws CompileError at the call when it cannot lower the operation
// (capacity, or a form not lowered yet).
#pragma once

#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/lower_context.h"

namespace dsl {

// Per family (lower_vector_*.cpp).
void lower_unary(LowerContext& ctx, const OpNode& op);  // relu ... sqrt, cast: the table's vector instruction
// A function of one input computed in `steps` on each chunk, in place in
// the output's buffer: step 0 applies a unary instruction to the input x;
// each later step applies its instruction to the result so far y, or for a
// binary instruction combines them, y = op(x, y) (silu: sigmoid, then mul).
void lower_unary_steps(LowerContext& ctx, const OpNode& op, const std::vector<arch::VectorOp>& steps);
void lower_binary(LowerContext& ctx, const OpNode& op);  // add, sub, mul, div, maximum, minimum
void lower_clip(LowerContext& ctx, const OpNode& op);
void lower_where(LowerContext& ctx, const OpNode& op);  // one select per chunk
void lower_batch_norm(LowerContext& ctx, const OpNode& op);
void lower_layer_norm(LowerContext& ctx, const OpNode& op);
void lower_softmax(LowerContext& ctx, const OpNode& op);
void lower_reduce(LowerContext& ctx, const OpNode& op);  // reduce_sum, reduce_mean, reduce_max
// A row reduction heading a row group (its OpNode::epilogue, dsl/passes/
// pass_fusion.h): the group as one stream (lower_row_group.cpp); false,
// with LowerContext::epilogue_unfused saying why, when it cannot run so.
bool lower_row_group(LowerContext& ctx, const OpNode& head);
void lower_argmax(LowerContext& ctx, const OpNode& op);  // argmax: int32 indices along one axis
void lower_global_avg_pool(LowerContext& ctx, const OpNode& op);
void lower_pool(LowerContext& ctx, const OpNode& op);  // max_pool, avg_pool
// conv2d(groups=C), weighted window taps (lower_vector_window.cpp)
void lower_depthwise_conv2d(LowerContext& ctx, const OpNode& op);
// A reduction of a slide view over its window: a window reduction of the
// image. False (nothing emitted) when the input is not a slide view.
bool lower_slide_reduce(LowerContext& ctx, const OpNode& op);
void lower_upsample(LowerContext& ctx, const OpNode& op);
void lower_upsample_bilinear(LowerContext& ctx, const OpNode& op);  // lower_upsample's mode='bilinear'
void lower_vector_transpose(LowerContext& ctx, const OpNode& op);   // transpose(engine='vector')
void lower_format_convert(LowerContext& ctx, const OpNode& op);     // dsl/passes/pass_layout.h's conversions

// Where a block swap reads and writes (DDR tensors of `dtype`): the op's
// input and output, or scratch tensors between the stages of a permutation
// or of a row op over an axis with data after it.
struct SwapEnds {
    uint64_t x_ddr = 0, y_ddr = 0;
    std::string xname, yname;
    arch::DType dtype = arch::DType::Float16;
};
// (B, A, C, D) -> (B, C, A, D) from ends.x_ddr to ends.y_ddr, on the vector
// unit (lower_vector_transpose.cpp).
void lower_vector_swap(LowerContext& ctx, const OpNode& op, int64_t B, int64_t A, int64_t C, int64_t D,
                       const SwapEnds& ends);

}  // namespace dsl
