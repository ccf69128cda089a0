#include "sim/trace/bounds.h"

#include "sim/arch/ceil_div.h"
#include "sim/arch/cube_rate.h"

namespace trace {

uint64_t ddr_effective_bytes_per_cycle(const arch::Config& c) { return uint64_t(c.ddr_bytes_per_cycle); }

uint64_t compute_bound_cycles(uint64_t macs, uint64_t float32_macs, uint64_t int8_macs, const arch::Config& c) {
    // Each dtype at its own peak (sim/arch/cube_rate.h); the float16 count
    // stands for every dtype of float16's rate (bfloat16). No cubes: no
    // bound rather than a division by zero.
    uint64_t by_dtype[arch::kDTypeCount] = {};
    by_dtype[int(arch::DType::Float16)] = macs - float32_macs - int8_macs;
    by_dtype[int(arch::DType::Float32)] = float32_macs;
    by_dtype[int(arch::DType::Int8)] = int8_macs;
    return arch::cube_peak_cycles(c, by_dtype);
}

uint64_t ddr_bound_cycles(uint64_t ddr_bytes, const arch::Config& c) {
    const uint64_t rate = ddr_effective_bytes_per_cycle(c);
    return rate ? arch::ceil_div(ddr_bytes, rate) : 0;
}

}  // namespace trace
