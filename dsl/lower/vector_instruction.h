// The VECTOR instruction of an element-wise operation: the `vector` column
// of dsl/ir/op_table.def, read here by the lowerings that emit it (the
// vector chains, dsl/lower/vector/lower_vector_chain.h, and the cube
// epilogues, dsl/lower/gemm/gemm_epilogue.h).
#pragma once

#include "dsl/ir/op_kind.h"
#include "sim/arch/program.h"

namespace dsl {

// Throws std::logic_error for an operation without one (a compiler bug:
// the fusion pass and the table only route element-wise operations here).
arch::VectorOp vector_instruction(OpKind k);

}  // namespace dsl
