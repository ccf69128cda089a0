#include "sim/trace/area.h"

#include <cstdio>

#include "sim/trace/chip_units.h"
#include "sim/trace/report.h"

namespace trace {

Area chip_area(const arch::Config& c) {
    Area a;
    unsigned __int128 um2 = 0;  // summed exactly, then converted once
    for (const ChipUnit& u : chip_units(c)) {
        const unsigned __int128 part = (unsigned __int128)u.count * u.area_um2_each;
        if (!part) continue;
        um2 += part;
        a.parts.push_back({u.key, u.label, u.unit, u.count, u.area_um2_each, double(part) * 1e-6});
    }
    a.mm2 = double(um2) * 1e-6;
    return a;
}

std::string format_area(const Area& a) {
    std::string o = "\narea               " + formatted("%.3f", a.mm2) + " mm2  (DDR off the chip)\n";
    for (const AreaPart& p : a.parts) {
        char line[256];
        std::snprintf(line, sizeof line, "  %-20s %9.3f mm2 %5.1f %%  %s %s x %s um2\n", p.label.c_str(), p.mm2,
                      a.mm2 > 0 ? 100.0 * p.mm2 / a.mm2 : 0.0, grouped(p.count).c_str(), p.unit.c_str(),
                      grouped(p.um2_each).c_str());
        o += line;
    }
    return o;
}

nlohmann::json area_json(const Area& a) {
    nlohmann::json parts = nlohmann::json::array();
    for (const AreaPart& p : a.parts)
        parts.push_back({{"key", p.key},
                         {"label", p.label},
                         {"unit", p.unit},
                         {"count", p.count},
                         {"um2_each", p.um2_each},
                         {"mm2", p.mm2}});
    return {{"mm2", a.mm2}, {"parts", parts}};
}

}  // namespace trace
