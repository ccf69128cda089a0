#include "sim/trace/interval_union.h"

#include <algorithm>

namespace trace {

void IntervalUnion::add(uint64_t start, uint64_t end) {
    if (start >= end) return;
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
    covered_ += (merged_end - merged_start) - was_covered;
}

}  // namespace trace
