// Where a run's wall time goes, phase by phase (--timings): parse (the front
// end and the graph passes), lower, check, spool (writing the blocks and
// reading them back), simulate, outputs. Each phase's time is exclusive: a
// phase entered inside another pauses it. The benchmark harness reads the
// table to report microseconds per command per phase.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>

namespace cli {

enum class Phase { None, Parse, Lower, Check, Spool, Simulate, Outputs, Count };

class PhaseTimings {
public:
    // Charges the time since the last switch to the current phase and makes
    // `next` current; returns the phase it replaces.
    Phase switch_to(Phase next);
    // Moves `seconds` of the current phase's time to `phase` (the spool's
    // reads, timed inside the simulation).
    void move_to(Phase phase, Phase from, double seconds);
    double seconds(Phase p) const { return seconds_[size_t(p)]; }

private:
    std::array<double, size_t(Phase::Count)> seconds_{};
    Phase current_ = Phase::None;
    std::chrono::steady_clock::time_point since_ = std::chrono::steady_clock::now();
};

// The phase of a scope: entered on construction, the previous one resumed
// on destruction.
class ScopedPhase {
public:
    ScopedPhase(PhaseTimings& timings, Phase phase) : timings_(timings), previous_(timings.switch_to(phase)) {}
    ~ScopedPhase() { timings_.switch_to(previous_); }
    ScopedPhase(const ScopedPhase&) = delete;
    ScopedPhase& operator=(const ScopedPhase&) = delete;

private:
    PhaseTimings& timings_;
    Phase previous_;
};

// The table --timings prints on stderr: seconds and microseconds per
// command for each phase and in all, then the SystemC process activations
// and delta cycles, in all and per command.
std::string format_timings(const PhaseTimings& timings, uint64_t commands, uint64_t activations, uint64_t deltas);

}  // namespace cli
