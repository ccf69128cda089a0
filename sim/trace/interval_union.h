// The cycles covered by a set of [start, end) intervals added in any order:
// an operation's active cycles (sim/trace/op_stats.h), the cycles in which
// at least one of its commands was running. Keeps the union as disjoint,
// sorted intervals; commands end in simulation order, so an interval almost
// always merges at the back and the list stays as short as the gaps in it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace trace {

class IntervalUnion {
public:
    void add(uint64_t start, uint64_t end);
    uint64_t covered() const { return covered_; }
    // The disjoint intervals, in order; two never touch (they would be one).
    const std::vector<std::pair<uint64_t, uint64_t>>& intervals() const { return intervals_; }

private:
    std::vector<std::pair<uint64_t, uint64_t>> intervals_;
    uint64_t covered_ = 0;
};

}  // namespace trace
