#include "sim/cli/driver/phase_timings.h"

#include <cstdio>

#include "sim/trace/report.h"

namespace cli {

Phase PhaseTimings::switch_to(Phase next) {
    const auto now = std::chrono::steady_clock::now();
    seconds_[size_t(current_)] += std::chrono::duration<double>(now - since_).count();
    since_ = now;
    const Phase previous = current_;
    current_ = next;
    return previous;
}

void PhaseTimings::move_to(Phase phase, Phase from, double seconds) {
    seconds_[size_t(from)] -= seconds;
    seconds_[size_t(phase)] += seconds;
}

namespace {

const char* phase_name(Phase p) {
    switch (p) {
    case Phase::Parse: return "parse";
    case Phase::Lower: return "lower";
    case Phase::Check: return "check";
    case Phase::Spool: return "spool";
    case Phase::Simulate: return "simulate";
    case Phase::Outputs: return "outputs";
    case Phase::None:
    case Phase::Count: break;
    }
    return "";
}

std::string row(const char* name, double seconds, uint64_t commands) {
    char line[96];
    const double per = commands ? seconds * 1e6 / double(commands) : 0.0;
    std::snprintf(line, sizeof line, "  %-9s %12.6f %12.3f\n", name, seconds, per);
    return line;
}

std::string per_command(uint64_t n, uint64_t commands) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", commands ? double(n) / double(commands) : 0.0);
    return text;
}

}  // namespace

std::string format_timings(const PhaseTimings& timings, uint64_t commands, uint64_t activations, uint64_t deltas) {
    std::string out = "timings: " + trace::grouped(commands) + " commands\n  phase          seconds   us/command\n";
    double total = 0;
    for (size_t p = size_t(Phase::Parse); p < size_t(Phase::Count); ++p) {
        out += row(phase_name(Phase(p)), timings.seconds(Phase(p)), commands);
        total += timings.seconds(Phase(p));
    }
    out += row("total", total, commands);
    out += "  SystemC: " + trace::grouped(activations) + " process activations (" + per_command(activations, commands) +
           " per command), " + trace::grouped(deltas) + " delta cycles (" + per_command(deltas, commands) +
           " per command)\n";
    return out;
}

}  // namespace cli
