#include "sim/trace/energy.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/trace/memory_levels.h"

namespace trace {

namespace {

// A run's energy is far below 2^64 fJ (18 kJ) with any physical
// energies; energies the config accepts can still take it past, which is
// the config's error.
const char* const kOverflow =
    "energy: this run's energy exceeds 2^64 femtojoules (18 kJ): the energy.* keys are too large for it";

// A sum or product in femtojoules.
uint64_t checked(unsigned __int128 v) {
    if (v > std::numeric_limits<uint64_t>::max()) throw arch::ConfigError(kOverflow);
    return uint64_t(v);
}

uint64_t level_fj_per_byte(const std::string& key, const arch::Config& c) {
    if (key == "ddr") return uint64_t(c.energy_ddr_fj_per_byte);
    if (key == "l2") return uint64_t(c.energy_l2_fj_per_byte);
    if (key == "l1") return uint64_t(c.energy_l1_fj_per_byte);
    if (key == "l0") return uint64_t(c.energy_l0_fj_per_byte);
    return uint64_t(c.energy_ub_fj_per_byte);
}

// Static power over the run: microwatts x seconds, in femtojoules
// (1 uW for 1 s is 1e9 fJ; the run lasts cycles / (clock_ghz x 1e9) s),
// rounded to the nearest femtojoule. IEEE double arithmetic, the same on
// every platform (the product is exact below 2^53).
uint64_t static_fj(uint64_t microwatts, uint64_t cycles, double clock_ghz) {
    const double fj = std::nearbyint(double(checked((unsigned __int128)microwatts * cycles)) / clock_ghz);
    if (!(fj < 18446744073709551616.0)) checked(std::numeric_limits<unsigned __int128>::max());
    return uint64_t(fj);
}

}  // namespace

Actions run_actions(const RunStats& s) {
    Actions a;
    for (const UnitStats& u : s.units) {
        a.cube_macs += u.macs;
        a.float32_macs += u.float32_macs;
        a.int8_macs += u.int8_macs;
        a.vector_bytes += u.vector_bytes;
    }
    a.levels = memory_levels(s);
    return a;
}

Actions op_actions(const OpStats& op, bool with_l2) {
    return {op.cube_macs, op.float32_macs, op.int8_macs, op.vector_bytes, op_memory_levels(op, with_l2)};
}

std::vector<EnergyPart> dynamic_parts(const Actions& a, const arch::Config& c) {
    std::vector<EnergyPart> parts;
    auto add = [&](std::string key, std::string label, uint64_t count, int64_t each) {
        const uint64_t fj = checked((unsigned __int128)count * uint64_t(each));
        if (fj) parts.push_back({std::move(key), std::move(label), count, uint64_t(each), fj, false});
    };
    add("cube_macs", "cube MACs (16-bit)", a.cube_macs - a.float32_macs - a.int8_macs, c.energy_mac_fj);
    add("cube_macs_float32", "cube MACs (float32)", a.float32_macs, c.energy_mac_float32_fj);
    add("cube_macs_int8", "cube MACs (int8)", a.int8_macs, c.energy_mac_int8_fj);
    add("vector", "vector units", a.vector_bytes, c.energy_vector_fj_per_byte);
    for (const Level& l : a.levels)
        add(l.key, l.label, l.traffic.read + l.traffic.written, int64_t(level_fj_per_byte(l.key, c)));
    return parts;
}

uint64_t dynamic_femtojoules(const Actions& a, const arch::Config& c) {
    uint64_t sum = 0;
    for (const EnergyPart& p : dynamic_parts(a, c)) sum = checked((unsigned __int128)sum + p.femtojoules);
    return sum;
}

uint64_t op_femtojoules(const OpStats& op, const arch::Config& c) {
    return dynamic_femtojoules(op_actions(op, c.l2_kib > 0), c);
}

uint64_t command_femtojoules(const arch::Command& cmd, const arch::Config& c) noexcept {
    MemoryTraffic m;
    add_command_traffic(m, c, cmd);
    unsigned __int128 fj = 0;
    if (cmd.op == arch::Opcode::Matmul) {
        const int64_t each = cmd.mm.dtype == arch::DType::Float32 ? c.energy_mac_float32_fj
                             : cmd.mm.dtype == arch::DType::Int8  ? c.energy_mac_int8_fj
                                                                  : c.energy_mac_fj;
        fj += (unsigned __int128)cmd.mm.macs() * uint64_t(each);
    } else if (cmd.op == arch::Opcode::Vector) {
        fj += (unsigned __int128)cmd.vec.src_bytes() * uint64_t(c.energy_vector_fj_per_byte);
    }
    const int64_t ddr_side = c.l2_kib > 0 ? c.energy_l2_fj_per_byte : c.energy_ddr_fj_per_byte;
    fj += (unsigned __int128)(m.ddr.read + m.ddr.written) * uint64_t(ddr_side);
    fj += (unsigned __int128)(m.l1.read + m.l1.written) * uint64_t(c.energy_l1_fj_per_byte);
    fj += (unsigned __int128)(m.l0.read + m.l0.written) * uint64_t(c.energy_l0_fj_per_byte);
    fj += (unsigned __int128)(m.ub.read + m.ub.written) * uint64_t(c.energy_ub_fj_per_byte);
    // At most the run's dynamic energy, which run_energy checks.
    return fj > std::numeric_limits<uint64_t>::max() ? std::numeric_limits<uint64_t>::max() : uint64_t(fj);
}

namespace {

struct StaticPart {
    const char* key;
    const char* label;
    uint64_t microwatts;
};

// Every unit leaks for the whole run, busy or idle.
std::vector<StaticPart> static_parts(const arch::Config& c) {
    const uint64_t sram_kib = uint64_t(c.clusters) * uint64_t(c.l1_kib + c.cubes_per_cluster * c.l0_kib +
                                                              c.vector_units * c.vector_buffer_kib) +
                              uint64_t(c.l2_kib);
    return {
        {"static_cubes", "cube leakage",
         checked((unsigned __int128)uint64_t(c.cubes_total()) * uint64_t(c.energy_cube_static_uw))},
        {"static_vector", "vector unit leakage",
         checked((unsigned __int128)uint64_t(c.clusters * c.vector_units) * uint64_t(c.energy_vector_static_uw))},
        {"static_sram", "SRAM leakage",
         checked((unsigned __int128)sram_kib * uint64_t(c.energy_sram_static_uw_per_kib))},
        {"static_ddr", "DDR background", uint64_t(c.energy_ddr_static_uw)},
    };
}

}  // namespace

std::string energy_overflow(const RunStats& s, const arch::Config& c) {
    // Each product is below 2^64 x 2^31 and there are few of them: 128
    // bits hold the sum.
    const Actions a = run_actions(s);
    unsigned __int128 total =
        (unsigned __int128)(a.cube_macs - a.float32_macs - a.int8_macs) * uint64_t(c.energy_mac_fj) +
        (unsigned __int128)a.float32_macs * uint64_t(c.energy_mac_float32_fj) +
        (unsigned __int128)a.int8_macs * uint64_t(c.energy_mac_int8_fj) +
        (unsigned __int128)a.vector_bytes * uint64_t(c.energy_vector_fj_per_byte);
    for (const Level& l : a.levels)
        total += (unsigned __int128)(l.traffic.read + l.traffic.written) * level_fj_per_byte(l.key, c);
    for (const StaticPart& p : static_parts(c)) {
        const double fj = std::nearbyint(double((unsigned __int128)p.microwatts * s.total_cycles) / c.clock_ghz);
        if (!(fj < 18446744073709551616.0)) return kOverflow;
        total += (unsigned __int128)fj;
    }
    return total > std::numeric_limits<uint64_t>::max() ? kOverflow : "";
}

uint64_t static_microwatts(const arch::Config& c) {
    uint64_t sum = 0;
    for (const StaticPart& p : static_parts(c)) sum = checked((unsigned __int128)sum + p.microwatts);
    return sum;
}

Energy run_energy(const RunStats& s, const arch::Config& c) {
    Energy e;
    e.parts = dynamic_parts(run_actions(s), c);
    for (const StaticPart& p : static_parts(c)) {
        const uint64_t fj = static_fj(p.microwatts, s.total_cycles, c.clock_ghz);
        if (fj) e.parts.push_back({p.key, p.label, p.microwatts, 0, fj, true});
    }

    for (const EnergyPart& p : e.parts) {
        e.femtojoules = checked((unsigned __int128)e.femtojoules + p.femtojoules);
        (p.is_static ? e.static_femtojoules : e.dynamic_femtojoules) += p.femtojoules;
    }
    if (s.l2) e.flush_femtojoules = checked((unsigned __int128)s.l2->flush_bytes * uint64_t(c.energy_ddr_fj_per_byte));
    return e;
}

}  // namespace trace
