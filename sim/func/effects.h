// What each command does to the bytes (docs/functional.md §2): the data
// effect of a DMA, MATMUL or VECTOR command, applied all at once. Timing is
// not modelled here: the executor (sim/func/executor.h) applies effects in
// an order the program's synchronisation allows.
#pragma once

#include "sim/arch/program.h"
#include "sim/func/memory.h"

namespace func {

// `unit` is the cube whose L0 a cube DMA engine reaches, or the vector unit
// whose Unified Buffer a vector unit's DMA engine reaches (-1 for a cluster
// DMA engine).
void apply_dma(Memory& m, int unit, const arch::DmaArgs& d);
// C (+)= A * B in cube `cube`'s L0: operands read as float (float16 inputs
// exactly), products accumulated in float32, k in order.
void apply_matmul(Memory& m, int cube, const arch::MatmulArgs& mm);
// Vector unit `unit`, in its Unified Buffer or the cluster's L1: every
// result rounded to the command's dtype.
void apply_vector(Memory& m, int unit, const arch::VectorArgs& v);

}  // namespace func
