// Graph pass "promote" (docs/timing-model.md §10, "Compiler passes"): mixed
// float dtypes promote to the wider one instead of being an error. Runs
// after the precision pass, on the dtypes it leaves.
//
// * An operation whose rule marked it OpNode::promotes_operands (matmul,
//   conv2d, concat, the element-wise binary ops without dtype=) and whose
//   tensor operands differ in dtype gets each narrower operand cast up to
//   the widest by a new `cast` op (OpNode::promotion; output "cast_<k>"),
//   inserted just before it and shared by later operations promoting the
//   same tensor. concat copies bytes, so its parts are cast to its output's
//   dtype (the widest, as its rule made it).
// * The casts are real vector-unit operations with their own cycles and
//   DDR traffic: the report counts them (`promotions`), as the user
//   documents' pitfall of an fp32 that type inference chose, made visible.
// * Outside these operations dtypes may differ on purpose: a vector
//   operation converts each input to the dtype it computes in as it reads
//   it (dtype=, the scale and shift of a normalisation), and a cast is the
//   program's own.
#pragma once

#include "dsl/ir/task_graph.h"

namespace dsl {

TaskGraph apply_promotion(const TaskGraph& g);

// The promotion casts of a graph after the passes.
size_t count_promotions(const TaskGraph& g);

}  // namespace dsl
