// Power over time (docs/timing-model.md §9, "Energy"): each command's
// dynamic energy (sim/trace/energy.h, command_femtojoules) spread evenly
// over the cycles it was in flight, and each L2 <-> DDR transfer's over
// the cycles its bytes crossed the DDR channel, summed into bins of a
// fixed length, one microsecond of simulated time (in whole cycles; twice
// that, four times, ... for a run past kMaxPowerBins microseconds). The
// L2's flush at the end of the run takes none of its cycles and is in no
// bin; static power is the same in every bin and is added where a power
// is reported.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch/config.h"
#include "sim/trace/recorder.h"

namespace trace {

// At most this many bins (2 MiB of them): past it, bins merge in pairs.
constexpr uint64_t kMaxPowerBins = uint64_t(1) << 18;

struct PowerSeries {
    uint64_t bin_cycles = 1;            // one microsecond at clock_ghz (at least 1 cycle), or a power of two times that
    std::vector<uint64_t> femtojoules;  // dynamic energy per bin, from cycle 0
    // The series with `factor` bins merged into one (the last may be
    // shorter): the same energy, coarser.
    PowerSeries merged(uint64_t factor) const;
};

// One microsecond at the config's clock, in whole cycles (at least 1).
uint64_t power_bin_cycles(const arch::Config& c);

class PowerRecorder : public Recorder {
public:
    explicit PowerRecorder(const arch::Config& c);
    void on_command(const CommandRecord& r, const arch::Command& c) override;
    void on_ddr_transfer(const DdrTransferRecord& t) override;
    const PowerSeries& series() const { return series_; }

private:
    // Adds `fj` spread over [start, end) (at `start` when the range is
    // empty); the bins' shares are rounded down and the last bin takes
    // the rest, so the bins sum to exactly what was added.
    void spread(uint64_t fj, uint64_t start, uint64_t end);

    const arch::Config& config_;
    PowerSeries series_;
};

// Each bin's power in watts, static power included, the run's last bin
// counted over the cycles of it the run has; and the highest of them.
std::vector<double> bin_watts(const PowerSeries& s, uint64_t total_cycles, uint64_t static_nanowatts, double clock_ghz);
double peak_watts(const PowerSeries& s, uint64_t total_cycles, uint64_t static_nanowatts, double clock_ghz);

// The series the profile and the Chrome trace show: whole bins merged so
// that there are at most kPowerPoints of them.
constexpr uint64_t kPowerPoints = 1000;
PowerSeries shown_power(const PowerSeries& s);

}  // namespace trace
