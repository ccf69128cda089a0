#include "sim/trace/power.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sim/trace/energy.h"

namespace trace {

uint64_t power_bin_cycles(const arch::Config& c) {
    return std::max<uint64_t>(1, uint64_t(std::llround(c.clock_ghz * 1000.0)));
}

PowerSeries PowerSeries::merged(uint64_t factor) const {
    PowerSeries out;
    factor = std::max<uint64_t>(1, factor);
    out.bin_cycles = bin_cycles * factor;
    out.femtojoules.assign((femtojoules.size() + factor - 1) / factor, 0);
    for (size_t i = 0; i < femtojoules.size(); ++i) out.femtojoules[i / factor] += femtojoules[i];
    return out;
}

PowerRecorder::PowerRecorder(const arch::Config& c) : config_(c) { series_.bin_cycles = power_bin_cycles(c); }

void PowerRecorder::spread(uint64_t fj, uint64_t start, uint64_t end) {
    if (fj == 0) return;
    // An empty range counts in the cycle before it (none is past the run).
    if (end == start && start > 0) --start;
    // Past kMaxPowerBins bins, pairs merge into bins twice as long: the
    // series stays small however long the run.
    while ((end > start ? end - 1 : start) / series_.bin_cycles >= kMaxPowerBins) series_ = series_.merged(2);
    const uint64_t w = series_.bin_cycles;
    const uint64_t first = start / w, last = end > start ? (end - 1) / w : first;
    if (series_.femtojoules.size() <= last) series_.femtojoules.resize(last + 1, 0);
    if (first == last) {
        series_.femtojoules[first] += fj;
        return;
    }
    // Each bin's share of fj is its overlap's, rounded down (the middle
    // bins' all the same); the last bin takes the rest. 64-bit arithmetic
    // when the product fits (nearly always: 128-bit division is a library
    // call, a measurable share of a run).
    const uint64_t span = end - start;
    auto share = [&](uint64_t overlap) {
        uint64_t product;
        return __builtin_mul_overflow(fj, overlap, &product) ? uint64_t((unsigned __int128)fj * overlap / span)
                                                             : product / span;
    };
    uint64_t given = share((first + 1) * w - start);
    series_.femtojoules[first] += given;
    if (last > first + 1) {
        const uint64_t whole = share(w);
        for (uint64_t b = first + 1; b < last; ++b) series_.femtojoules[b] += whole;
        given += whole * (last - first - 1);
    }
    series_.femtojoules[last] += fj - given;
}

void PowerRecorder::on_command(const CommandRecord& r, const arch::Command& c) {
    spread(command_femtojoules(c, config_), r.start, r.end);
}

void PowerRecorder::on_ddr_transfer(const DdrTransferRecord& t) {
    // At most the run's DDR energy, which run_energy checks.
    const unsigned __int128 fj = (unsigned __int128)t.bytes * uint64_t(config_.energy_ddr_fj_per_byte);
    spread(fj > UINT64_MAX ? UINT64_MAX : uint64_t(fj), t.start, t.leave);
}

std::vector<double> bin_watts(const PowerSeries& s, uint64_t total_cycles, uint64_t static_nanowatts,
                              double clock_ghz) {
    std::vector<double> out;
    out.reserve(s.femtojoules.size());
    for (size_t b = 0; b < s.femtojoules.size(); ++b) {
        const uint64_t begin = b * s.bin_cycles;
        // The run's last bin counts the cycles of it the run has.
        const uint64_t end = begin < total_cycles ? std::min(begin + s.bin_cycles, total_cycles) : begin + s.bin_cycles;
        const double seconds = double(end - begin) / (clock_ghz * 1e9);
        out.push_back(double(s.femtojoules[b]) * 1e-15 / seconds + double(static_nanowatts) * 1e-9);
    }
    return out;
}

double peak_watts(const PowerSeries& s, uint64_t total_cycles, uint64_t static_nanowatts, double clock_ghz) {
    const std::vector<double> w = bin_watts(s, total_cycles, static_nanowatts, clock_ghz);
    return w.empty() ? double(static_nanowatts) * 1e-9 : *std::max_element(w.begin(), w.end());
}

PowerSeries shown_power(const PowerSeries& s) {
    return s.merged((s.femtojoules.size() + kPowerPoints - 1) / kPowerPoints);
}

}  // namespace trace
