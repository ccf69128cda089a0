#include "sim/trace/step_series.h"

#include <algorithm>

namespace trace {

StepSeries steps_from_deltas(std::vector<std::pair<uint64_t, int64_t>> deltas) {
    std::sort(deltas.begin(), deltas.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    StepSeries out;
    int64_t value = 0;
    for (size_t i = 0; i < deltas.size();) {
        uint64_t cycle = deltas[i].first;
        int64_t next = value;
        for (; i < deltas.size() && deltas[i].first == cycle; ++i) next += deltas[i].second;
        if (next == value) continue;
        value = next;
        out.push_back({cycle, value});
    }
    return out;
}

}  // namespace trace
