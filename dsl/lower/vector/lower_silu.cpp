// silu(x) = x * sigmoid(x) (SiLU, "swish", the gate of a SwiGLU FFN). The
// vector unit has no instruction for it: like a vendor's kernel, it is a
// sigmoid and a multiply on each chunk, the second reading the input again
// and the first's result in place, so the intermediate never leaves L1.
// swiglu multiplies that by its second input as a third instruction.
#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_chain.h"

namespace dsl {

void lower_silu(LowerContext& ctx, const OpNode& op) {
    lower_unary_steps(ctx, op, {arch::VectorOp::Sigmoid, arch::VectorOp::Mul});
}

// swiglu(gate, up): silu of the gate's chunk in the result's buffer, then
// times the up chunk, in place (ElementwiseChain::add): both inputs are
// read once and only the product is stored.
void lower_swiglu(LowerContext& ctx, const OpNode& op) { lower_elementwise(ctx, op, {}); }

}  // namespace dsl
