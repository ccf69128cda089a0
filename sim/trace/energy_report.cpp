#include "sim/trace/energy_report.h"

#include <cstdio>

#include "sim/trace/report.h"

namespace trace {

namespace {

// 0.001234 J as "1.234 mJ": the largest SI prefix that keeps a digit
// before the point.
std::string si(double v, const char* unit) {
    static const struct {
        double scale;
        const char* prefix;
    } prefixes[] = {{1.0, ""}, {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
    if (v == 0) return std::string("0 ") + unit;
    for (const auto& p : prefixes)
        if (v >= p.scale) return formatted("%.3f ", v / p.scale) + p.prefix + unit;
    return formatted("%.3f ", v / 1e-15) + "f" + unit;
}

}  // namespace

double average_watts(const Energy& e, double seconds) {
    return seconds > 0 ? double(e.femtojoules - e.flush_femtojoules) * 1e-15 / seconds : 0.0;
}

namespace {

// "1,800-cycle bins of 1 us": the power series' bins and their length.
std::string bins_text(uint64_t bin_cycles, const arch::Config& c) {
    return grouped(bin_cycles) + "-cycle bins of " + formatted("%.4g", double(bin_cycles) / (c.clock_ghz * 1e3)) +
           " us";
}

}  // namespace

std::string joules_text(double joules) { return si(joules, "J"); }

double run_seconds(uint64_t total_cycles, const arch::Config& c) { return double(total_cycles) / (c.clock_ghz * 1e9); }

std::string format_energy(const Energy& e, const RunStats& s, const arch::Config& c, uint64_t tokens) {
    const double seconds = run_seconds(s.total_cycles, c);
    std::string o = "\nenergy             " + si(e.joules(), "J") + "  (dynamic " +
                    si(double(e.dynamic_femtojoules) * 1e-15, "J") + ", static " +
                    si(double(e.static_femtojoules) * 1e-15, "J") + ")\n";
    o += "  average power    " + si(average_watts(e, seconds), "W") + ", peak " +
         si(peak_watts(s.power, s.total_cycles, static_nanowatts(c), c.clock_ghz), "W") + " (in " +
         bins_text(s.power.bin_cycles, c) + ")\n";
    o += "  energy x delay   " + formatted("%.4g", e.joules() * seconds) + " J s\n";
    if (tokens)
        o += "  per token        " + si(e.joules() / double(tokens), "J") + ", " + si(seconds / double(tokens), "s") +
             "  (" + grouped(tokens) + (tokens == 1 ? " token)\n" : " tokens)\n");
    for (const EnergyPart& p : e.parts) {
        char line[256];
        const std::string what = p.is_static ? si(double(p.count) * 1e-9, "W") + " over the run"
                                             : grouped(p.count) + (p.key.rfind("cube", 0) == 0 ? " MACs" : " B") +
                                                   " x " + grouped(p.each) + " fJ";
        std::snprintf(line, sizeof line, "  %-20s %-12s %5.1f %%  %s\n", p.label.c_str(),
                      si(double(p.femtojoules) * 1e-15, "J").c_str(),
                      e.femtojoules ? 100.0 * double(p.femtojoules) / double(e.femtojoules) : 0.0, what.c_str());
        o += line;
    }
    return o;
}

nlohmann::json energy_json(const Energy& e, const RunStats& s, const arch::Config& c, uint64_t tokens) {
    const double seconds = run_seconds(s.total_cycles, c);
    nlohmann::json parts = nlohmann::json::array();
    for (const EnergyPart& p : e.parts) {
        nlohmann::json j = {{"key", p.key},
                            {"label", p.label},
                            {"femtojoules", p.femtojoules},
                            {"joules", double(p.femtojoules) * 1e-15}};
        if (p.is_static) {
            j["nanowatts"] = p.count;
        } else {
            j["count"] = p.count;
            j["femtojoules_each"] = p.each;
        }
        parts.push_back(j);
    }
    nlohmann::json j = {{"joules", e.joules()},
                        {"femtojoules", e.femtojoules},
                        {"dynamic_femtojoules", e.dynamic_femtojoules},
                        {"static_femtojoules", e.static_femtojoules},
                        {"average_watts", average_watts(e, seconds)},
                        {"peak_watts", peak_watts(s.power, s.total_cycles, static_nanowatts(c), c.clock_ghz)},
                        {"power_bin_cycles", s.power.bin_cycles},
                        {"energy_delay_joule_seconds", e.joules() * seconds},
                        {"parts", parts}};
    if (tokens) {
        j["tokens"] = tokens;
        j["joules_per_token"] = e.joules() / double(tokens);
        j["seconds_per_token"] = seconds / double(tokens);
    }
    return j;
}

}  // namespace trace
