// The cycle cost of one MATMUL command on a cube (docs/timing-model.md §7):
// the formula lives in sim/arch/cube_cost.h, where the compiler's cost
// estimate uses it too.
#pragma once

#include "sim/arch/cube_cost.h"

namespace hw {

using arch::matmul_cost;
using arch::MatmulCost;

}  // namespace hw
