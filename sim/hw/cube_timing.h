// The cycle cost of one MATMUL command on a cube (docs/timing-model.md §7).
#pragma once

#include <cstdint>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace hw {

struct MatmulCost {
    uint64_t mac_cycles;     // MAC-array cycles (fractal steps or systolic folds), times the float32 passes
    uint64_t operand_bytes;  // bytes streamed from L0 into the array
    uint64_t link_cycles;    // those bytes at the L0->cube bandwidth
    uint64_t total_cycles;   // start-up (fractal only) + the slower of the two
};

MatmulCost matmul_cost(const arch::Config& c, const arch::MatmulArgs& m);

}  // namespace hw
