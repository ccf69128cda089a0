#include "sim/trace/bounds.h"

#include "sim/arch/ceil_div.h"

namespace trace {

uint64_t ddr_effective_bytes_per_cycle(const arch::Config& c) { return uint64_t(c.ddr_bytes_per_cycle); }

uint64_t compute_bound_cycles(uint64_t macs, uint64_t float32_macs, const arch::Config& c) {
    // In MAC slots of the array: a float16 MAC takes one, a float32 MAC
    // mac_passes(true); a cube offers macs_per_cycle() slots a cycle.
    const uint64_t slots = (macs - float32_macs) + float32_macs * uint64_t(c.mac_passes(true));
    // No cubes (or no DDR bandwidth, below): no bound rather than a division by zero.
    const uint64_t rate = uint64_t(c.macs_per_cycle() * c.cubes_total());
    return rate ? arch::ceil_div(slots, rate) : 0;
}

uint64_t ddr_bound_cycles(uint64_t ddr_bytes, const arch::Config& c) {
    const uint64_t rate = ddr_effective_bytes_per_cycle(c);
    return rate ? arch::ceil_div(ddr_bytes, rate) : 0;
}

}  // namespace trace
