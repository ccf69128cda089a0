// A run's energy (sim/trace/energy.h) as the report shows it: a text
// section for people, a JSON object for sweep scripts.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/arch/config.h"
#include "sim/trace/energy.h"

namespace trace {

// "energy ..." lines: the total, average power, energy-delay product,
// with `tokens` (--tokens, 0: none) the energy and time per token, and
// each part with its share and its count x energy.
std::string format_energy(const Energy& e, const RunStats& s, const arch::Config& c, uint64_t tokens = 0);

// {"joules", "femtojoules", "dynamic_femtojoules", "static_femtojoules",
//  "average_watts", "energy_delay_joule_seconds", "parts": [...]}, and
// with tokens "tokens", "joules_per_token", "seconds_per_token".
nlohmann::json energy_json(const Energy& e, const RunStats& s, const arch::Config& c, uint64_t tokens = 0);

// 0.001234 as "1.234 mJ": joules with the largest SI prefix that keeps a
// digit before the point.
std::string joules_text(double joules);

// The energy spent during the run over its time: the L2's flush at the end
// takes none of its cycles, so it is energy but no power.
double average_watts(const Energy& e, double seconds);

// The run's length in seconds (cycles at clock_ghz).
double run_seconds(uint64_t total_cycles, const arch::Config& c);

}  // namespace trace
