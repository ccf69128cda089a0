// Lowering of the vector-unit operations (element-wise, batch_norm,
// layer_norm, softmax, reductions, pooling, upsample, transpose on the
// vector unit) onto the streamed vector pipeline of lower_vector_stream.h.
// docs/timing-model.md §10 "Vector operation lowering" describes the result.
#pragma once

#include "dsl/lower/lower_context.h"
#include "dsl/ir/task_graph.h"

namespace dsl {

// True for the operation kinds lower_vector_op handles.
bool is_vector_lowered(const OpNode& op);

// Appends the blocks of one vector-unit operation. Throws CompileError at
// the call when it cannot be lowered (capacity, or a form not lowered yet).
void lower_vector_op(LowerContext& ctx, const OpNode& op);

// Per family (lower_vector_*.cpp).
void lower_unary(LowerContext& ctx, const OpNode& op);       // relu ... sqrt, cast
void lower_binary(LowerContext& ctx, const OpNode& op);      // add, sub, mul, div, maximum
void lower_batch_norm(LowerContext& ctx, const OpNode& op);
void lower_layer_norm(LowerContext& ctx, const OpNode& op);
void lower_softmax(LowerContext& ctx, const OpNode& op);
void lower_reduce(LowerContext& ctx, const OpNode& op);      // reduce_sum, reduce_mean, reduce_max
void lower_global_avg_pool(LowerContext& ctx, const OpNode& op);
void lower_pool(LowerContext& ctx, const OpNode& op);        // max_pool, avg_pool
// A reduction of a slide view over its window: a window reduction of the
// image. False (nothing emitted) when the input is not a slide view.
bool lower_slide_reduce(LowerContext& ctx, const OpNode& op);
void lower_upsample(LowerContext& ctx, const OpNode& op);
void lower_vector_transpose(LowerContext& ctx, const OpNode& op);
void lower_format_convert(LowerContext& ctx, const OpNode& op);  // dsl/passes/pass_layout.h's conversions

}  // namespace dsl
