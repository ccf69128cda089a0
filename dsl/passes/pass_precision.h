// Lowering pass "precision" (docs/timing-model.md §10, "Compiler passes"):
// gives every operation recorded under `with pypo.precision(mode=...)` the
// dtype it computes in, and makes each dtype change an explicit `cast`.
//
// * mode 'mixed': matmul, conv2d, element-wise ops, batch_norm, pooling and
//   upsample compute in float16; softmax, layer_norm and the reductions
//   (reduce_sum/mean/max, global_avg_pool) in float32.
// * modes 'float16' / 'float32': every computing op in that dtype.
// * An op given dtype= keeps it (and its inputs) untouched; cast ops and
//   ops outside any precision scope are untouched.
// * Data movement (reshape, flatten, slide, concat, transpose,
//   pixel_shuffle) computes nothing: its output takes its first input's
//   (possibly new) dtype, other inputs are cast to it.
// * An input whose dtype differs from the op's compute dtype is cast by a
//   new `cast` op (attrs dtype='float32'; output named "cast_<k>"), inserted
//   just before its first consumer and shared by later consumers wanting
//   the same dtype. The op's output takes the compute dtype, except a
//   program output, which keeps its declared dtype: the op then writes a new
//   intermediate ("<kind>_<k>") and a final cast writes the output.
#pragma once

#include "dsl/ir/task_graph.h"

namespace dsl {

TaskGraph apply_precision(const TaskGraph& g);

}  // namespace dsl
