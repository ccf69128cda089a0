// The chip's area (docs/timing-model.md §9, "Area"): each kind of unit
// (sim/trace/chip_units.h) times the config's area for one (`area.*`,
// integer square micrometres). It depends on the config alone, not on the
// run. DDR is off the chip and has none.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/arch/config.h"

namespace trace {

struct AreaPart {
    std::string key;    // "cube_macs", "vector", "l0", "l1", "ub", "l2"
    std::string label;  // "cube MACs", "vector units", "L0", ...
    std::string unit;   // what `count` counts: "MACs", "B of width", "KiB"
    uint64_t count = 0;
    uint64_t um2_each = 0;
    double mm2 = 0;  // count x um2_each / 1e6 (the product can pass 2^64 um^2)
};

struct Area {
    std::vector<AreaPart> parts;  // the chip's units that take area, in chip_units' order
    double mm2 = 0;               // their sum
};

Area chip_area(const arch::Config& c);

// "area  123.456 mm2" and a line per part with its share and count x area.
std::string format_area(const Area& a);

// {"mm2", "parts": [{"key", "label", "unit", "count", "um2_each", "mm2"}]}
nlohmann::json area_json(const Area& a);

}  // namespace trace
