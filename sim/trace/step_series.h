// A value that changes at whole cycles, as the list of its changes: the
// common form of the counters the VCD writer draws (memory occupancy, flag
// tokens, bytes in flight). The value is 0 before the first step and
// steps[i].value from steps[i].cycle on; cycles strictly increase and no
// step repeats the value before it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace trace {

struct Step {
    uint64_t cycle = 0;
    int64_t value = 0;
    bool operator==(const Step& o) const { return cycle == o.cycle && value == o.value; }
};
using StepSeries = std::vector<Step>;

// Adds up (cycle, delta) pairs, given in any order: the value at cycle t is
// the sum of the deltas at cycles <= t. Cycles whose deltas cancel leave no step.
StepSeries steps_from_deltas(std::vector<std::pair<uint64_t, int64_t>> deltas);

}  // namespace trace
