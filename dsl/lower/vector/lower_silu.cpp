// silu(x) = x * sigmoid(x) (SiLU, "swish", the gate of a SwiGLU FFN). The
// vector unit has no instruction for it: like a vendor's kernel, it is a
// sigmoid and a multiply on each chunk, the second reading the input again
// and the first's result in place, so the intermediate never leaves L1.
#include "dsl/lower/vector/lower_vector.h"

namespace dsl {

void lower_silu(LowerContext& ctx, const OpNode& op) {
    lower_unary_steps(ctx, op, {arch::VectorOp::Sigmoid, arch::VectorOp::Mul});
}

}  // namespace dsl
