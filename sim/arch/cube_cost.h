// The cycle cost of one MATMUL command on a cube (docs/timing-model.md §7):
// a pure formula of the configuration and the command's shape, shared by
// the simulator (sim/hw/cube_unit.cpp) and the compiler's cost estimate
// (dsl/lower/tiling/gemm_cost.cpp). The oracle (tests/oracle) keeps its own copy.
#pragma once

#include <cstdint>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace arch {

struct MatmulCost {
    uint64_t mac_cycles;     // MAC-array cycles (fractal steps or systolic folds), times the float32 passes
    uint64_t operand_bytes;  // bytes streamed from L0 into the array
    uint64_t link_cycles;    // those bytes at the L0->cube bandwidth
    uint64_t total_cycles;   // start-up (fractal only) + the slower of the two
};

MatmulCost matmul_cost(const Config& c, const MatmulArgs& m);

}  // namespace arch
