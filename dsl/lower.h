// Lowering: the task graph onto the configured hardware, as an arch::Program.
// Passes, in order: precision (dsl/pass_precision.h, a TaskGraph rewrite)
// -> place tensors in DDR -> per op: tile, plan L1/L0 buffers, emit DMA and
// sync (docs/timing-model.md §10 lists the passes and describes what the
// emitted commands cost).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "dsl/matmul_tiling.h"
#include "dsl/task_graph.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

// Choices a caller can make instead of the compiler: for experiments, and
// for tests that compare them with the compiler's own.
struct LowerOptions {
    // Chooses the tiling of every GEMM (matmul, conv2d) in place of
    // choose_matmul_tiling, with the same contract; empty = that.
    std::function<std::optional<MatmulTiling>(const arch::Config&, const GemmShape&, std::string& why)> gemm_tiling;
    // Takes every finished block, numbered from 0, in place of
    // Program::blocks (which then stays empty), with the program as built
    // so far: a caller spools a huge program to disk (arch::BlockSpool)
    // instead of holding it. Empty = keep the blocks in the program.
    std::function<void(const arch::Program& program, size_t index, arch::Block block)> block_sink;
};

// The graph lower() compiles: `graph` after the graph passes (moves,
// precision, layout), every op's `origin` set. Program::ops[i] of the
// result of lower() is this graph's op i, Program::tensors[t] its tensor t.
TaskGraph lowering_graph(const TaskGraph& graph);

// Throws CompileError (at the op or tensor concerned) when the program does
// not fit the hardware.
arch::Program lower(const TaskGraph& graph, const arch::Config& config, const std::string& source,
                    const LowerOptions& options = {});

}  // namespace dsl
