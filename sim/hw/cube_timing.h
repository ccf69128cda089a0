// The cycle cost of one MATMUL command on a cube (docs/timing-model.md §Cube).
#pragma once

#include <cstdint>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace hw {

struct MatmulCost {
    uint64_t mac_cycles;     // MAC-array steps, times the float32 passes
    uint64_t operand_bytes;  // bytes streamed from L0 into the array
    uint64_t link_cycles;    // those bytes at the L0->cube bandwidth
    uint64_t total_cycles;   // pipeline fill/drain + the slower of the two
};

MatmulCost matmul_cost(const arch::Config& c, const arch::MatmulArgs& m);

}  // namespace hw
