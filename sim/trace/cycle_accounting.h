// Where an engine's cycles went (timing model §9, "Cycle accounting"): every
// cycle of the run is busy (a command in flight, less the cycles its DMA
// request waited for the link), waiting on a link, waiting on a flag,
// issuing (loop control holding the next command back), or idle, and the
// five sum to the run's total cycles.
//
// The waits before a command come from its record: from `w`, the later of
// the engine's ready cycle and the end of its previous command (nothing is
// in flight from there), to its start `s`, the cycles before its flags
// allowed it (`flags_at`) are flag waits and the rest are issue cycles
// (s = max(ready + issue_cycles, flags_at), §5, so only the issue held it
// back then). Cycles before `w` that are not in flight are idle: before the
// engine's block started, after its last command, between blocks.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sim/trace/interval_union.h"
#include "sim/trace/recorder.h"

namespace trace {

// One engine's run split five ways; the parts sum to the total cycles.
struct CycleSplit {
    uint64_t busy = 0, link_wait = 0, flag_wait = 0, issue = 0, idle = 0;

    // From the engine's busy time as §9 defines it (in flight, link waits
    // included), its link waits, flag waits and issue cycles.
    static CycleSplit of(uint64_t in_flight, uint64_t link_wait, uint64_t flag_wait, uint64_t issue,
                         uint64_t total_cycles) {
        return {in_flight - link_wait, link_wait, flag_wait, issue, total_cycles - in_flight - flag_wait - issue};
    }
    uint64_t sum() const { return busy + link_wait + flag_wait + issue + idle; }
};

// The waits before one command (above): its flag-wait and issue cycles,
// given the end of the last command its engine had in flight before it.
struct WaitsBefore {
    uint64_t flag = 0, issue = 0;
    static WaitsBefore of(const CommandRecord& r, uint64_t engine_latest_end) {
        const uint64_t w = std::max(r.ready, engine_latest_end);
        if (r.start <= w) return {};
        const uint64_t flag = std::min(std::max(r.flags_at, w), r.start) - w;
        return {flag, r.start - w - flag};
    }
};

// Accumulates one engine's figures from its commands' records, which an
// engine's recorder sees in the order they end: for one engine, also the
// order they start (§5).
class CycleAccount {
public:
    void add(const CommandRecord& r) {
        const WaitsBefore waits = WaitsBefore::of(r, in_flight_.latest_end());
        flag_wait_ += waits.flag;
        issue_ += waits.issue;
        in_flight_.add(r.start, r.end);
        link_wait_ += r.link_wait;
    }
    uint64_t busy_cycles() const { return in_flight_.covered(); }  // §9's busy time
    uint64_t link_wait_cycles() const { return link_wait_; }
    uint64_t flag_wait_cycles() const { return flag_wait_; }
    uint64_t issue_cycles() const { return issue_; }
    CycleSplit split(uint64_t total_cycles) const {
        return CycleSplit::of(busy_cycles(), link_wait_, flag_wait_, issue_, total_cycles);
    }

private:
    IntervalUnion in_flight_{IntervalUnion::Arrival::InStartOrder};
    uint64_t link_wait_ = 0, flag_wait_ = 0, issue_ = 0;
};

}  // namespace trace
