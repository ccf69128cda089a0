#include "sim/trace/interval_union.h"

#include <algorithm>

namespace trace {

uint64_t IntervalUnion::add(uint64_t start, uint64_t end) {
    const uint64_t added =
        arrival_ == Arrival::InStartOrder ? add_in_start_order(start, end) : add_in_any_order(start, end);
    latest_end_ = std::max(latest_end_, end);
    covered_ += added;
    return added;
}

// No interval to come starts before this one, nor this one before those
// already added: what lies before the latest end is covered, or a gap no
// interval can reach any more. The new part starts there or at `start`.
uint64_t IntervalUnion::add_in_start_order(uint64_t start, uint64_t end) {
    const uint64_t from = std::max(start, latest_end_);
    if (end <= from) return 0;
    if (!intervals_.empty() && intervals_.back().second == from) intervals_.back().second = end;
    else intervals_.assign(1, {from, end});
    return end - from;
}

uint64_t IntervalUnion::add_in_any_order(uint64_t start, uint64_t end) {
    if (start >= end) return 0;
    using Interval = std::pair<uint64_t, uint64_t>;
    // The first interval that ends at or after `start`: it and those after
    // it that begin no later than `end` touch the new one and merge with it.
    auto first = std::lower_bound(intervals_.begin(), intervals_.end(), start,
                                  [](const Interval& i, uint64_t s) { return i.second < s; });
    auto last = first;
    uint64_t merged_start = start, merged_end = end, was_covered = 0;
    for (; last != intervals_.end() && last->first <= end; ++last) {
        merged_start = std::min(merged_start, last->first);
        merged_end = std::max(merged_end, last->second);
        was_covered += last->second - last->first;
    }
    if (first == last) {
        intervals_.insert(first, {start, end});
    } else {
        *first = {merged_start, merged_end};
        intervals_.erase(first + 1, last);
    }
    return (merged_end - merged_start) - was_covered;
}

}  // namespace trace
