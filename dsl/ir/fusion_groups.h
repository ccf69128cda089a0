// The fusion groups as the fusion pass (dsl/passes/pass_fusion.h) records
// them on the graph (OpNode::epilogue, OpNode::fused_into), read by the
// lowering, --explain and the mixed-precision report.
#pragma once

#include <vector>

#include "dsl/ir/task_graph.h"

namespace dsl {

// A row group's head: a row reduction with members (a cube operation or an
// element-wise one heads the other groups).
bool heads_row_group(const OpNode& op);

// Whether the result of operation `op` is written to memory when its
// fusion group runs fused: in a row group, a result that an operation
// outside the group reads or that is a program output; in any other group
// the last member's alone; true for an operation in no group. `readers`:
// tensor_consumers(g).
bool fused_result_stored(const TaskGraph& g, const std::vector<std::vector<int>>& readers, int op);

}  // namespace dsl
