// The cycles covered by a union of [start, end) intervals. Two uses, one
// concept:
//  * an engine's busy time (timing model §9): the cycles in which at least
//    one of its commands is in flight. A DMA engine keeps several in flight
//    at once (§5), so its busy time is the union of its commands, not their
//    sum. Recorders see one engine's commands in the order they end, which
//    for one engine is also the order they start: Arrival::InStartOrder.
//    Then only the union's last stretch can still grow, so only it is kept
//    (O(1) memory however long the run) and the part an interval adds is
//    one piece, [end - added, end), which the profile buckets.
//  * an operation's active cycles (sim/trace/op_stats.h): the cycles in
//    which at least one of its commands was running, on any engine, so its
//    intervals come in any order: Arrival::AnyOrder. The union is kept as
//    disjoint, sorted intervals; commands end in simulation order, so an
//    interval almost always merges at the back and the list stays as short
//    as the gaps in it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace trace {

class IntervalUnion {
public:
    enum class Arrival {
        InStartOrder,  // each interval starts no earlier than those before it
        AnyOrder,
    };
    explicit IntervalUnion(Arrival arrival) : arrival_(arrival) {}

    // Adds [start, end); returns how many of its cycles were not covered
    // before (0 for an empty or an already covered interval).
    uint64_t add(uint64_t start, uint64_t end);
    // The cycles covered.
    uint64_t covered() const { return covered_; }
    // The latest end of the intervals added, an empty one's included: for
    // an engine, the end of its last command, after which nothing is in
    // flight (sim/trace/cycle_accounting.h).
    uint64_t latest_end() const { return latest_end_; }
    // The disjoint intervals kept, in order; two never touch (they would be
    // one). InStartOrder keeps only the last.
    const std::vector<std::pair<uint64_t, uint64_t>>& intervals() const { return intervals_; }

private:
    uint64_t add_in_start_order(uint64_t start, uint64_t end);
    uint64_t add_in_any_order(uint64_t start, uint64_t end);

    Arrival arrival_;
    std::vector<std::pair<uint64_t, uint64_t>> intervals_;
    uint64_t covered_ = 0, latest_end_ = 0;
};

}  // namespace trace
