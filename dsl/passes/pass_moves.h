// Lowering pass "moves": each explicit data movement `buf[:] = t` becomes a
// `move` operation (an internal kind) at its place in program order, so the
// buffer has a producer that its readers wait for like any other tensor.
// A buffer is written by one copy: a second copy into it, or an operation
// reading it before any copy, stops compilation at that line.
#pragma once

#include "dsl/ir/task_graph.h"

namespace dsl {

TaskGraph apply_moves(const TaskGraph& g);

}  // namespace dsl
