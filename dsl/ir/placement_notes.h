// What @pypo.task(placement=...) could not do, said rather than kept silent
// (docs/language.md §3.5): the operations of a 'cube' task that run on the
// vector unit, and those of a 'vector' task that run on the cubes. The
// report lists them as notes; placement never makes a program an error.
#pragma once

#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"

namespace dsl {

// The unit that runs `op`: its kind's (dsl/ir/op_table.def), except a
// transpose with engine='dma', which the DMA engines run.
OpUnit op_runs_on(const OpNode& op);

// One note per task function (its calls together, in order of the first
// call) whose placement could not host some of its operations, e.g.
//   "task residual_block (placement 'cube'): batch_norm, add run on the vector
//    unit: the cubes cannot compute them"
// Operations on the DMA engines (data movement) belong to every placement.
std::vector<std::string> placement_notes(const TaskGraph& g);

}  // namespace dsl
