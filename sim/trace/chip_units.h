// The units a chip is built of, counted the way its area and its leakage
// are charged (docs/timing-model.md §9, "Energy" and "Area"): MACs, bytes
// of vector width, KiB of each on-chip memory level. Declared once, for
// the area (sim/trace/area.h) and the static energy (sim/trace/energy.h).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch/config.h"

namespace trace {

struct ChipUnit {
    const char* key;    // "cube_macs", "vector", "l0", "l1", "ub", "l2"
    const char* label;  // "cube MACs", "vector units", "L0", ...
    const char* whole;  // the units together, as their leakage is named: "cube", "vector units", "L0", ...
    const char* unit;   // what one of `count` is: "MACs", "B of width", "KiB"
    uint64_t count;     // over the whole chip
    uint64_t area_um2_each;
    uint64_t static_nw_each;
};

// Every kind of unit, in a fixed order (the cubes, the vector units, the
// memories innermost first), whether or not the chip has any.
std::vector<ChipUnit> chip_units(const arch::Config& c);

}  // namespace trace
