#include "sim/trace/bounds.h"

namespace trace {

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }

}  // namespace

uint64_t ddr_effective_bytes_per_cycle(const arch::Config& c) { return uint64_t(c.ddr_bytes_per_cycle); }

uint64_t compute_bound_cycles(uint64_t macs, uint64_t float32_macs, const arch::Config& c) {
    // In MAC slots of the array: a float16 MAC takes one, a float32 MAC
    // mac_passes(true); a cube offers macs_per_cycle() slots a cycle.
    const uint64_t slots = (macs - float32_macs) + float32_macs * uint64_t(c.mac_passes(true));
    return ceil_div(slots, uint64_t(c.macs_per_cycle() * c.cubes_total()));
}

uint64_t ddr_bound_cycles(uint64_t ddr_bytes, const arch::Config& c) {
    return ceil_div(ddr_bytes, ddr_effective_bytes_per_cycle(c));
}

}  // namespace trace
