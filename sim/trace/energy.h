// What a run cost in energy (docs/timing-model.md §9, "Energy"), in the
// manner of Accelergy: every action the run counted exactly, times the
// config's energy for that action (`energy.*`, integer femtojoules), plus
// every unit's static power over the whole run (an idle unit leaks as a
// busy one does: nothing is power-gated). The counts are the report's own
// (RunStats), the ones the oracle agrees on, so energy needs no oracle of
// its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/trace/run_stats.h"

namespace trace {

// One part of a run's energy: what it charges, how many of it, at what
// energy each, and the product.
struct EnergyPart {
    std::string key;     // for the JSON report: "cube_macs", "ddr", "static_l1"
    std::string label;   // for the text report: "cube MACs", "DDR", "L1 leakage"
    uint64_t count = 0;  // actions (MACs, bytes), or nanowatts for a static part
    uint64_t each = 0;   // femtojoules per action; 0 for a static part
    uint64_t femtojoules = 0;
    bool is_static = false;
};

struct Energy {
    // Dynamic parts first (the cube's MACs by dtype, the vector units, each
    // memory level outermost first), then the static ones; parts with no
    // energy are left out.
    std::vector<EnergyPart> parts;
    uint64_t femtojoules = 0;  // the parts summed, in that order
    uint64_t dynamic_femtojoules = 0, static_femtojoules = 0;
    // Of the dynamic energy, the L2's flush at the end: DDR energy of the
    // run that takes none of its cycles, so no power (sim/trace/power.h).
    uint64_t flush_femtojoules = 0;
    double joules() const { return double(femtojoules) * 1e-15; }
};

// An operation's energy: the dynamic energy of its commands' actions,
// what the report, its JSON, the profile and --ops-csv give.
uint64_t op_femtojoules(const OpStats& op, const arch::Config& c);

// One command's: the same actions, as the run and its operation count
// them (with an L2, a DMA command's DDR-side bytes are the L2's).
// (Called as commands end, so it does not throw: a command's energy is at
// most the run's, which run_energy checks; past 2^64 fJ it saturates.)
uint64_t command_femtojoules(const arch::Command& cmd, const arch::Config& c) noexcept;

// Every unit's static power together, in nanowatts.
uint64_t static_nanowatts(const arch::Config& c);

// The error when the config's energies take the run past 2^64
// femtojoules, found without throwing (an exception thrown after a SystemC
// run confuses AddressSanitizer, tests/sanitizer/README.md: the driver
// asks this before any output); empty when the energy fits.
std::string energy_overflow(const RunStats& s, const arch::Config& c);

// Throws arch::ConfigError with that message when it does not fit.
Energy run_energy(const RunStats& s, const arch::Config& c);

}  // namespace trace
