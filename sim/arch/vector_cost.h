// The cycle cost of one VECTOR command on a vector unit
// (docs/timing-model.md §8): a pure formula of the configuration and the
// command, shared by the simulator (sim/hw/vector_unit.cpp) and the
// compiler's cost estimate of a fused epilogue (dsl/lower/tiling/gemm_cost.cpp).
// The oracle (tests/oracle) keeps its own copy.
#pragma once

#include <cstdint>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace arch {

struct VectorCost {
    uint64_t passes;        // times the data streams through the datapath
    uint64_t data_cycles;   // ceil(N * e / W), one pass
    uint64_t tree_cycles;   // reductions: combining each row's lane partials
    uint64_t total_cycles;  // pipeline + passes * data_cycles + tree_cycles
};

// How many passes over the data `op` takes: 1 for the simple ops.
uint64_t vector_passes(const arch::Config& c, arch::VectorOp op);

VectorCost vector_cost(const arch::Config& c, const arch::VectorArgs& v);

}  // namespace arch
