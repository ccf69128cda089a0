// The reference kernels: one per operation, as the operation table names
// them (its `reference` column, dsl/ir/op_table.def), each computing the
// output `y` (already sized) of `op` from its inputs' values.
#pragma once

#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/reference/reference.h"

namespace dsl {

using RefInputs = std::vector<const RefValues*>;
using RefKernel = void (*)(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y);

// Declared from the table, so an operation's kernel in a file of its own
// needs no header of its own.
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) \
    void reference(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y);
#include "dsl/ir/op_table.def"
#undef OP

}  // namespace dsl
