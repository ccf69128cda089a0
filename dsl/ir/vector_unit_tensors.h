// Which tensors a vector-unit operation reads or writes. On a machine whose
// vector units compute in Unified Buffers of their own (vector.buffer_kib,
// docs/timing-model.md §2), they reach no on-chip tensor but through DDR
// or the L2: the lowering keeps those tensors in DDR
// (dsl/lower/program/lower.cpp), and the fusion pass, told so by
// TaskGraph::vector_buffers, groups them as DDR tensors.
#pragma once

#include <vector>

#include "dsl/ir/task_graph.h"

namespace dsl {

// The tensors of `g` some vector-unit operation reads or writes, itself or
// through a view of it (the view's source too, up the chain of views), each
// once, in the order the operations first touch them (inputs, then the
// result).
std::vector<int> tensors_vector_units_touch(const TaskGraph& g);

}  // namespace dsl
