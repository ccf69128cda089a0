// Lowering: the task graph, after the graph passes (dsl/passes/pipeline.h),
// onto the configured hardware, as an arch::Program: place tensors in DDR,
// plan the on-chip tensors' L1, then per op tile, plan L1/L0 buffers, emit
// DMA and sync (docs/timing-model.md §10 lists the phases and describes
// what the emitted commands cost).
#pragma once

#include <string>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/lower_options.h"
#include "dsl/passes/pipeline.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

// Throws CompileError (at the op or tensor concerned) when the program does
// not fit the hardware.
arch::Program lower(const PassedGraph& graph, const arch::Config& config, const std::string& source,
                    const LowerOptions& options = {});

}  // namespace dsl
