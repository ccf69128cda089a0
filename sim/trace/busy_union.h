// An engine is busy in every cycle at least one of its commands is in flight
// (timing model §9). A DMA engine keeps several commands in flight at once
// (§5), so its busy time is the union of its commands' [start, end), not
// their sum. Recorders see an engine's commands in the order they end, which
// for one engine is also the order they start, so the union grows one
// command at a time: each adds the part of it after the union so far.
#pragma once

#include <algorithm>
#include <cstdint>

namespace trace {

class BusyUnion {
public:
    // Adds the command [start, end) and returns the first cycle of its part
    // not already busy (>= end when none is new).
    uint64_t add(uint64_t start, uint64_t end) {
        const uint64_t from = std::max(start, covered_to_);
        if (end > from) cycles_ += end - from;
        covered_to_ = std::max(covered_to_, end);
        return from;
    }
    uint64_t cycles() const { return cycles_; }
    // The end of the last command added: nothing is in flight from there.
    uint64_t covered_to() const { return covered_to_; }

private:
    uint64_t cycles_ = 0, covered_to_ = 0;
};

}  // namespace trace
