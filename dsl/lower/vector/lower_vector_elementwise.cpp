// Element-wise operations on the streamed vector pipeline: unary functions,
// cast, clip, binary operations with broadcasting or a number operand, and
// batch_norm (inference: y = x * scale + shift, per channel). Each is a
// chain of one (lower_vector_chain.h), or the head of a vector fusion
// group whose members run on the same chunks.
//
// The output is viewed as rows of `cols` elements (its last dimension, or
// a batch_norm plane); a unit is one row, and a chunk of n rows is one
// contiguous DMA in and one out. When one row does not fit L1 the view
// falls back to single elements.
#include <stdexcept>

#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_chain.h"
#include "dsl/lower/weight_dequant.h"

namespace dsl {

void lower_unary(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    // cast: a copy when the dtypes agree; the others: the table's instruction.
    if (op.kind == OpKind::Cast)
        return lower_unary_steps(ctx, op, {x.dtype == y.dtype ? arch::VectorOp::Copy : arch::VectorOp::Cast});
    lower_elementwise(ctx, op, {});
}

void lower_unary_steps(LowerContext& ctx, const OpNode& op, const std::vector<arch::VectorOp>& steps) {
    if (steps.empty() || arch::vector_op_is_binary(steps.front()))
        throw std::logic_error(std::string(op_kind_name(op.kind)) + ": the first step must read the input alone");
    lower_elementwise(ctx, op, steps);
}

void lower_binary(LowerContext& ctx, const OpNode& op) { lower_elementwise(ctx, op, {}); }

// A maximum with lo and a minimum with hi, in place (ElementwiseChain::add).
void lower_clip(LowerContext& ctx, const OpNode& op) { lower_elementwise(ctx, op, {}); }

// quantize: a divide and a cast; dequantize: a multiply (ElementwiseChain::add).
void lower_quantize(LowerContext& ctx, const OpNode& op) { lower_elementwise(ctx, op, {}); }
// A weight-only int8 weight's dequantize is the matmul's (its B panels are
// dequantised in L1, dsl/lower/weight_dequant.h): nothing of its own.
void lower_dequantize(LowerContext& ctx, const OpNode& op) {
    if (dequantize_in_matmul(ctx, op)) return;
    lower_elementwise(ctx, op, {});
}
// One select of x and y by cond (ElementwiseChain::add), each operand
// streamed, resident or gathered as its broadcast needs.
void lower_where(LowerContext& ctx, const OpNode& op) { lower_elementwise(ctx, op, {}); }

void lower_batch_norm(LowerContext& ctx, const OpNode& op) { lower_elementwise(ctx, op, {}); }

}  // namespace dsl
