// What a caller of the lowering may choose instead of the compiler.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "dsl/lower/explain.h"
#include "dsl/lower/tiling/matmul_tiling.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

// Choices a caller can make instead of the compiler: for experiments, and
// for tests that compare them with the compiler's own.
struct LowerOptions {
    // Chooses the tiling of every GEMM (matmul, conv2d) in place of
    // choose_matmul_tiling, with the same contract; empty = that.
    std::function<std::optional<MatmulTiling>(const arch::Config&, const GemmShape&, TilingFailure& why)> gemm_tiling;
    // Takes every finished block, numbered from 0, in place of
    // Program::blocks (which then stays empty), with the program as built
    // so far: a caller spools a huge program to disk (arch::BlockSpool)
    // instead of holding it. Empty = keep the blocks in the program. The
    // block is valid during the call only: its storage then goes to the
    // blocks made after it.
    std::function<void(const arch::Program& program, size_t index, const arch::Block& block)> block_sink;
    // Filled with the choices made per operation (--explain,
    // dsl/lower/explain.h) when not null.
    Explanation* explain = nullptr;
};

}  // namespace dsl
