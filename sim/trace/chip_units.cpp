#include "sim/trace/chip_units.h"

namespace trace {

std::vector<ChipUnit> chip_units(const arch::Config& c) {
    const auto n = [](int64_t v) { return uint64_t(v); };
    const uint64_t vector_units = n(c.clusters) * n(c.vector_units);
    return {
        {"cube_macs", "cube MACs", "cube", "MACs", n(c.cubes_total()) * n(c.macs_per_cycle()), n(c.area_mac_um2),
         n(c.energy_mac_static_nw)},
        {"vector", "vector units", "vector units", "B of width", vector_units * n(c.vector_bytes_per_cycle),
         n(c.area_vector_um2_per_byte), n(c.energy_vector_static_nw_per_byte)},
        {"l0", "L0", "L0", "KiB", n(c.cubes_total()) * n(c.l0_kib), n(c.area_l0_um2_per_kib),
         n(c.energy_l0_static_nw_per_kib)},
        {"l1", "L1", "L1", "KiB", n(c.clusters) * n(c.l1_kib), n(c.area_l1_um2_per_kib),
         n(c.energy_l1_static_nw_per_kib)},
        {"ub", "UB", "UB", "KiB", vector_units * n(c.vector_buffer_kib), n(c.area_ub_um2_per_kib),
         n(c.energy_ub_static_nw_per_kib)},
        {"l2", "L2", "L2", "KiB", n(c.l2_kib), n(c.area_l2_um2_per_kib), n(c.energy_l2_static_nw_per_kib)},
    };
}

}  // namespace trace
