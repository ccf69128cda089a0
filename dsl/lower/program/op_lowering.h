// Each operation's lowering, as the operation table names it (its
// `lowering` column, dsl/ir/op_table.def).
#pragma once

#include "dsl/ir/task_graph.h"
#include "dsl/lower/lower_context.h"

namespace dsl {

// Appends the blocks of `op`. Throws CompileError at the call when it does
// not fit the hardware or takes a form not lowered yet.
void lower_op(LowerContext& ctx, const OpNode& op);

}  // namespace dsl
