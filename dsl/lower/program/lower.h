// Lowering: the task graph onto the configured hardware, as an arch::Program.
// Passes, in order: precision (dsl/passes/pass_precision.h, a TaskGraph rewrite)
// -> place tensors in DDR -> per op: tile, plan L1/L0 buffers, emit DMA and
// sync (docs/timing-model.md §10 lists the passes and describes what the
// emitted commands cost).
#pragma once

#include <string>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/lower_options.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

// The graph lower() compiles: `graph` after the graph passes (moves,
// precision, layout), every op's `origin` set. Program::ops[i] of the
// result of lower() is this graph's op i, Program::tensors[t] its tensor t.
TaskGraph lowering_graph(const TaskGraph& graph);

// Throws CompileError (at the op or tensor concerned) when the program does
// not fit the hardware.
arch::Program lower(const TaskGraph& graph, const arch::Config& config, const std::string& source,
                    const LowerOptions& options = {});

}  // namespace dsl
