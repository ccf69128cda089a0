// The cube's rate per operand dtype, decided once (docs/timing-model.md
// §7.1) and used by the MATMUL cost (cube_cost.h), the compiler's tiling,
// the report's compute bound and, derived on its own, the oracle.
//
// cube.k_per_cycle counts float16 elements: a MAC of the fractal cube takes
// 2 * k_per_cycle bytes of K per cycle, so a dtype of e bytes goes
// max(1, 2 * k_per_cycle / e) elements of K deep per step (whole elements:
// a MAC narrower than one element still takes one), and float32 then takes
// cube.fp32_passes passes per step. The documents' cube (k_per_cycle 1,
// fp32_passes 2) runs float32 at half the float16 rate; the Ascend-class
// cube (k_per_cycle 16: 32 bytes of K per cycle) at a quarter, as PTO-ISA's
// cube cost model has it (ceil(K / (32 / bytes)) steps, twice for float32).
// bfloat16 has float16's width, so float16's rate. A systolic array's
// processing element does one MAC a cycle whatever the dtype (SCALE-Sim's
// model has no dtype), float32 in fp32_passes passes.
#pragma once

#include <cstdint>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace arch {

// Elements of K (of dtype t) one MAC consumes per step: the fractal rule
// above, 1 on a systolic array.
int64_t cube_k_depth(const Config& c, DType t);

// MAC-array passes per step: cube.fp32_passes for float32, 1 otherwise.
int64_t cube_passes(const Config& c, DType t);

// MACs of dtype t per cycle at the peak of all cubes of the chip, as a
// fraction peak_num / peak_den (float32 may give a fraction of a MAC per
// cycle on no real machine, but fp32_passes need not divide the array).
struct CubePeak {
    uint64_t num = 0, den = 1;
};
CubePeak cube_peak(const Config& c, DType t);

// The cycles `macs[t]` MACs of each dtype take on all cubes at their
// peaks, rounded up once (exact: no per-dtype rounding); 0 on a chip of no
// MACs.
uint64_t cube_peak_cycles(const Config& c, const uint64_t (&macs)[kDTypeCount]);

}  // namespace arch
