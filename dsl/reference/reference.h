// The reference executor behind --check (docs/functional.md §5): runs the
// task graph as the program wrote it — no precision pass, no layout pass,
// no tiling, no lowering — in double precision on whole tensors, so what
// the compiled program computes can be compared with what the program
// means. Deliberately independent of dsl/lower/: it shares only the graph. Each
// operation's kernel is its `reference` in dsl/ir/op_table.def
// (dsl/reference/kernels.h).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "dsl/ir/task_graph.h"

namespace dsl {

// A tensor's values, row-major over its shape in the graph.
using RefValues = std::vector<double>;

class ReferenceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Runs `g` (after apply_moves: a copy into a buffer is an operation) on
// `inputs` (indexed by tensor; the values of every input, weight and
// pre-filled buffer, empty for the rest) and returns every tensor's values.
// Throws ReferenceError for an operation it cannot evaluate.
std::vector<RefValues> run_reference(const TaskGraph& g, const std::vector<RefValues>& inputs);

// One operation of `g` on the given values of its inputs (one per
// op.inputs, each sized as its tensor): what --check's per-operation
// comparison applies to an operation's simulated inputs. Throws
// ReferenceError as run_reference does.
RefValues run_reference_op(const TaskGraph& g, const OpNode& op, const std::vector<const RefValues*>& inputs);

}  // namespace dsl
