// Lowering pass "layout" (docs/timing-model.md §10, "Compiler passes"):
// makes every tensor's bytes match the layout the graph gives it, by
// inserting `format_convert` operations where a producer's natural layout
// differs.
//
// * conv2d computes an implicit GEMM whose C is (output pixels x filters)
//   per image: its natural layout is NHWC. A conv2d whose output the graph
//   labels NHWC (given `layout='NHWC'`, or inheriting it from its input)
//   writes it directly. Otherwise (NCHW, the default) the conv2d writes an
//   NHWC intermediate and a `format_convert` (attrs from='NHWC',
//   to='NCHW'), a per-image (H*W, C) -> (C, H*W) transpose on the vector
//   unit, produces the NCHW tensor. A program output keeps its name on the
//   converted tensor; otherwise the conv2d keeps its output's name (now
//   NHWC) and later readers take the converted tensor, "format_convert_<k>".
// * Every other operation already writes the layout it is labelled with
//   (element-wise ops, normalisation and pooling follow their input's
//   layout; the cube's fractal L0 layout is produced by the cube DMA in
//   flight, so 'fractal' stays a label).
#pragma once

#include "dsl/ir/task_graph.h"

namespace dsl {

TaskGraph apply_layout(const TaskGraph& g);

}  // namespace dsl
