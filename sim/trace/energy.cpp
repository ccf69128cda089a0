#include "sim/trace/energy.h"

#include <cmath>
#include <limits>

#include "sim/trace/chip_units.h"
#include "sim/trace/memory_levels.h"

namespace trace {

namespace {

using u128 = unsigned __int128;
constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

// A run's energy is far below 2^64 fJ (18 kJ) with any physical
// energies; energies the config accepts can still take it past, which is
// the config's error.
const char* const kOverflow =
    "energy: this run's energy exceeds 2^64 femtojoules (18 kJ): the energy.* keys are too large for it";

// A sum or product in femtojoules (energy_overflow has refused the runs
// that would throw here, before any output).
uint64_t checked(u128 v) {
    if (v > kMax) throw arch::ConfigError(kOverflow);
    return uint64_t(v);
}

uint64_t level_fj_per_byte(const std::string& key, const arch::Config& c) {
    if (key == "ddr") return uint64_t(c.energy_ddr_fj_per_byte);
    if (key == "l2") return uint64_t(c.energy_l2_fj_per_byte);
    if (key == "l1") return uint64_t(c.energy_l1_fj_per_byte);
    if (key == "l0") return uint64_t(c.energy_l0_fj_per_byte);
    return uint64_t(c.energy_ub_fj_per_byte);
}

// The femtojoules of a command's or an operation's actions: its MATMULs'
// MACs by dtype (all of them `cube_macs`), the source bytes its VECTOR
// commands work through, and its bytes at each level, the DDR side
// charged as the L2's when there is one (the DDR behind the L2 is the
// run's). Each product is below 2^64 x 2^31, so 128 bits hold the sum.
u128 actions_fj(uint64_t cube_macs, uint64_t float32_macs, uint64_t int8_macs, uint64_t vector_bytes,
                const MemoryTraffic& m, const arch::Config& c) {
    const int64_t ddr_side = c.l2_kib > 0 ? c.energy_l2_fj_per_byte : c.energy_ddr_fj_per_byte;
    return u128(cube_macs - float32_macs - int8_macs) * uint64_t(c.energy_mac_fj) +
           u128(float32_macs) * uint64_t(c.energy_mac_float32_fj) + u128(int8_macs) * uint64_t(c.energy_mac_int8_fj) +
           u128(vector_bytes) * uint64_t(c.energy_vector_fj_per_byte) +
           u128(m.ddr.read + m.ddr.written) * uint64_t(ddr_side) +
           u128(m.l1.read + m.l1.written) * uint64_t(c.energy_l1_fj_per_byte) +
           u128(m.l0.read + m.l0.written) * uint64_t(c.energy_l0_fj_per_byte) +
           u128(m.ub.read + m.ub.written) * uint64_t(c.energy_ub_fj_per_byte);
}

// The run's dynamic actions, in the report's order (the cube's MACs by
// dtype, the vector units, each memory level outermost first):
// f(key, label, count, femtojoules each).
template <typename F>
void for_each_dynamic(const RunStats& s, const arch::Config& c, F&& f) {
    uint64_t macs = 0, float32_macs = 0, int8_macs = 0, vector_bytes = 0;
    for (const UnitStats& u : s.units) {
        macs += u.macs;
        float32_macs += u.float32_macs;
        int8_macs += u.int8_macs;
        vector_bytes += u.vector_bytes;
    }
    f("cube_macs", "cube MACs (16-bit)", macs - float32_macs - int8_macs, uint64_t(c.energy_mac_fj));
    f("cube_macs_float32", "cube MACs (float32)", float32_macs, uint64_t(c.energy_mac_float32_fj));
    f("cube_macs_int8", "cube MACs (int8)", int8_macs, uint64_t(c.energy_mac_int8_fj));
    f("vector", "vector units", vector_bytes, uint64_t(c.energy_vector_fj_per_byte));
    for (const Level& l : memory_levels(s))
        f(l.key, l.label, l.traffic.read + l.traffic.written, level_fj_per_byte(l.key, c));
}

struct StaticPart {
    std::string key;
    std::string label;
    u128 nanowatts;
};

// Every unit leaks for the whole run, busy or idle: the chip's units
// (sim/trace/chip_units.h) and DDR's background power.
std::vector<StaticPart> static_parts(const arch::Config& c) {
    std::vector<StaticPart> parts;
    for (const ChipUnit& u : chip_units(c))
        parts.push_back(
            {std::string("static_") + u.key, std::string(u.whole) + " leakage", u128(u.count) * u.static_nw_each});
    parts.push_back({"static_ddr", "DDR background", u128(uint64_t(c.energy_ddr_static_uw)) * 1000});
    return parts;
}

// Static power over the run: nanowatts x seconds, in femtojoules
// (1 nW for 1 s is 1e6 fJ; the run lasts cycles / (clock_ghz x 1e9) s),
// rounded to the nearest femtojoule. IEEE double arithmetic, the same on
// every platform (the product is exact below 2^53). `nanowatts` at most
// 2^64, so the product fits 128 bits.
double static_fj(uint64_t nanowatts, uint64_t cycles, double clock_ghz) {
    return std::nearbyint(double(u128(nanowatts) * cycles) / (clock_ghz * 1000.0));
}

// The static parts' sum, or more than 2^64 when a part is.
u128 static_nanowatts_sum(const arch::Config& c) {
    u128 sum = 0;
    for (const StaticPart& p : static_parts(c)) sum += p.nanowatts;
    return sum;
}

}  // namespace

uint64_t op_femtojoules(const OpStats& op, const arch::Config& c) {
    return checked(actions_fj(op.cube_macs, op.float32_macs, op.int8_macs, op.vector_bytes, op.memory, c));
}

uint64_t command_femtojoules(const arch::Command& cmd, const arch::Config& c) noexcept {
    MemoryTraffic m;
    add_command_traffic(m, c, cmd);
    const bool matmul = cmd.op == arch::Opcode::Matmul;
    const uint64_t macs = matmul ? cmd.mm.macs() : 0;
    const u128 fj = actions_fj(macs, matmul && cmd.mm.dtype == arch::DType::Float32 ? macs : 0,
                               matmul && cmd.mm.dtype == arch::DType::Int8 ? macs : 0,
                               cmd.op == arch::Opcode::Vector ? cmd.vec.src_bytes() : 0, m, c);
    // At most the run's dynamic energy, which energy_overflow checks.
    return fj > kMax ? kMax : uint64_t(fj);
}

uint64_t static_nanowatts(const arch::Config& c) { return checked(static_nanowatts_sum(c)); }

std::string energy_overflow(const RunStats& s, const arch::Config& c) {
    u128 total = 0;  // a few products below 2^95 each
    for_each_dynamic(s, c,
                     [&](const char*, const char*, uint64_t count, uint64_t each) { total += u128(count) * each; });
    // The static power is reported too (in watts): it must fit as well.
    if (static_nanowatts_sum(c) > kMax) return kOverflow;
    for (const StaticPart& p : static_parts(c)) {
        const double fj = static_fj(uint64_t(p.nanowatts), s.total_cycles, c.clock_ghz);
        if (!(fj < 18446744073709551616.0)) return kOverflow;
        total += u128(fj);
    }
    return total > kMax ? kOverflow : "";
}

Energy run_energy(const RunStats& s, const arch::Config& c) {
    if (const std::string overflow = energy_overflow(s, c); !overflow.empty()) throw arch::ConfigError(overflow);
    Energy e;
    for_each_dynamic(s, c, [&](const char* key, const char* label, uint64_t count, uint64_t each) {
        if (const uint64_t fj = uint64_t(u128(count) * each)) e.parts.push_back({key, label, count, each, fj, false});
    });
    for (const StaticPart& p : static_parts(c))
        if (const uint64_t fj = uint64_t(static_fj(uint64_t(p.nanowatts), s.total_cycles, c.clock_ghz)))
            e.parts.push_back({p.key, p.label, uint64_t(p.nanowatts), 0, fj, true});
    for (const EnergyPart& p : e.parts) {
        e.femtojoules += p.femtojoules;
        (p.is_static ? e.static_femtojoules : e.dynamic_femtojoules) += p.femtojoules;
    }
    if (s.l2) e.flush_femtojoules = s.l2->flush_bytes * uint64_t(c.energy_ddr_fj_per_byte);
    return e;
}

}  // namespace trace
